import Activity
import Raster

/// What the clock screen shows: the time, today's date and today's rings.
public struct ClockScreenContent: Sendable {
    public var face: ClockFace
    public var day: CalendarDay
    /// Today's summary (nil: no data: the rings are empty).
    public var summary: ActivitySummary?

    public init(face: ClockFace, day: CalendarDay, summary: ActivitySummary?) {
        self.face = face
        self.day = day
        self.summary = summary
    }
}

/// The clock screen, the wrist's face: the time as large as the panel allows, the date under it
/// and the day's three rings small, laid out for the panel's size and shape.
public struct ClockScreen: ContextScreen {
    public var content: ClockScreenContent
    public var context: ScreenContext

    public init(content: ClockScreenContent, context: ScreenContext) {
        self.content = content
        self.context = context
    }

    public func draw(into buffer: PixelBuffer, at time: Double) {
        buffer.fill(.black)
        ClockScreenPainter(content: content, context: context, size: buffer.size).draw(into: buffer)
    }
}

/// Lays out and draws the clock screen.
struct ClockScreenPainter {
    let content: ClockScreenContent
    let context: ScreenContext
    let text: TextLayout
    let strings: Strings
    let kind: RingLayoutKind
    let w: Float, h: Float
    /// Pixels per 1/480 of the short side.
    let u: Float
    let clock: ClockText
    let scale: TypeScale

    init(content: ClockScreenContent, context: ScreenContext, size: Size) {
        self.content = content
        self.context = context
        scale = TypeScale(size: size, context: context)
        text = TextLayout(context, scale: scale)
        strings = context.strings
        kind = RingLayoutKind.choose(for: size, shape: context.shape)
        w = Float(size.width)
        h = Float(size.height)
        u = min(w, h) / 480
        clock = context.strings.clockText(content.face)
    }

    var chinese: Bool { context.locale == .simplifiedChinese }

    /// The digits' style at `size`, and the part of the day's beside them (a third as large).
    func digitsStyle(_ size: Float) -> TextStyle { TextStyle(size: size, weight: .semibold) }
    func periodStyle(_ size: Float) -> TextStyle {
        TextStyle(size: max(scale.floor, size * (chinese ? 0.3 : 0.32)), weight: .semibold)
    }
    func periodGap(_ size: Float) -> Float { size * 0.08 }

    /// The time's width at digit size `size`.
    func timeWidth(_ size: Float) -> Float {
        var width = text.measure(clock.digits, digitsStyle(size)).width
        if let period = clock.period { width += periodGap(size) + text.measure(period, periodStyle(size)).width }
        return width
    }

    /// The largest digit size up to `size` at which the time fits `width`.
    func timeSize(_ size: Float, fitting width: Float) -> Float {
        let full = timeWidth(size)
        guard full > width, full > 0 else { return size }
        return max(8, size * width / full * 0.99)
    }

    /// The time's ascent and descent (the digits', which the part of the day sits within).
    func timeMetrics(_ size: Float) -> TextMetrics { text.measure(clock.digits, digitsStyle(size)) }

    /// Draws the time centred on `cx` with its digits' top at `top`; returns the bottom.
    @discardableResult
    func drawTime(size: Float, centerX cx: Float, top: Float, into buffer: PixelBuffer) -> Float {
        let ds = digitsStyle(size)
        let dm = text.measure(clock.digits, ds)
        let baseline = top + dm.ascent
        let total = timeWidth(size)
        var x = cx - total / 2
        if let period = clock.period {
            let ps = periodStyle(size)
            let pw = text.measure(period, ps).width
            if clock.periodFirst {
                text.draw(period, ps, color: TextLayout.secondary, baseline: baseline, from: x, to: x + pw, align: .leading,
                          element: "clock.period", into: buffer)
                x += pw + periodGap(size)
                text.draw(clock.digits, ds, color: TextLayout.primary, baseline: baseline, from: x, to: x + dm.width,
                          align: .leading, element: "clock.time", into: buffer)
            } else {
                text.draw(clock.digits, ds, color: TextLayout.primary, baseline: baseline, from: x, to: x + dm.width,
                          align: .leading, element: "clock.time", into: buffer)
                x += dm.width + periodGap(size)
                text.draw(period, ps, color: TextLayout.secondary, baseline: baseline, from: x, to: x + pw, align: .leading,
                          element: "clock.period", into: buffer)
            }
        } else {
            text.draw(clock.digits, ds, color: TextLayout.primary, baseline: baseline, from: x, to: x + dm.width,
                      align: .leading, element: "clock.time", into: buffer)
        }
        return baseline + dm.descent
    }

    /// The date under the time: "Sunday, November 29" / "11月29日 星期日", short where it must be
    /// (then smaller, down to 70 %).
    func dateLine(fitting width: Float, _ style: TextStyle) -> FittedNumber {
        text.fit(NumberLine(forms: [strings.date(content.day), strings.compactDate(content.day)]), style,
                 minimum: style.size * 0.7, width: width, formsFirst: true)
    }

    func dateStyle(_ size: Float) -> TextStyle { scale.style(size, .medium) }

    /// Draws the date line, centred in [x0, x1] on `baseline`.
    func drawDate(_ date: FittedNumber, baseline: Float, from x0: Float, to x1: Float, into buffer: PixelBuffer) {
        text.draw(date, color: TextLayout.secondary, baseline: baseline, from: x0, to: x1, align: .center,
                  element: "clock.date", number: false, into: buffer)
    }

    func rings(_ rect: Rect, into buffer: PixelBuffer) {
        context.probe?.rings(rect)
        ActivityRingsView(rings: RingSet(content.summary)).draw(into: buffer, in: rect)
    }

    func draw(into buffer: PixelBuffer) {
        switch kind {
        case .landscape: landscape(buffer)
        case .round: round(buffer)
        case .tiny where context.shape == .round: round(buffer)
        case .portrait, .square, .tiny: stacked(buffer)
        }
    }

    /// Time, date and rings one under the other, the whole centred on the panel.
    func stacked(_ buffer: PixelBuffer) {
        let pad = max(6, 24 * u)
        let tiny = kind == .tiny
        let size = timeSize(min(w, h) * (tiny ? 0.25 : 0.27), fitting: w - 2 * pad)
        let tm = timeMetrics(size)
        let ds = dateStyle(tiny ? 20 : 24)
        let date = dateLine(fitting: w - 2 * pad, ds)
        let dm = text.measure(date.text, date.style)
        let gap = (tiny ? 10 : 20) * u
        // The rings take what is left, up to two fifths of the short side.
        let ringGap = 16 * u
        let room = h - 2 * pad - tm.height - 4 * u - dm.height - ringGap
        let side = max(0, min(room, min(w, h) * (tiny ? 0.4 : 0.42), w - 2 * pad))
        let total = tm.height + 4 * u + dm.height + ringGap + side
        var y = max(pad, (h - total) / 2 - gap / 2)
        y = drawTime(size: size, centerX: w / 2, top: y, into: buffer) + 4 * u
        drawDate(date, baseline: y + dm.ascent, from: pad, to: w - pad, into: buffer)
        y += dm.height + ringGap
        if side > 8 { rings(Rect(x: (w - side) / 2, y: y, width: side, height: side), into: buffer) }
    }

    /// Time and date on the left, the rings on the right.
    func landscape(_ buffer: PixelBuffer) {
        let pad = 28 * u
        let side = min(h * 0.5, w * 0.3)
        let ringsX = w - pad - side
        let columnRight = ringsX - 24 * u
        let size = timeSize(h * 0.36, fitting: columnRight - pad)
        let tm = timeMetrics(size)
        let ds = dateStyle(26)
        let date = dateLine(fitting: columnRight - pad, ds)
        let dm = text.measure(date.text, date.style)
        let total = tm.height + 6 * u + dm.height
        var y = (h - total) / 2
        let cx = (pad + columnRight) / 2
        y = drawTime(size: size, centerX: cx, top: y, into: buffer) + 6 * u
        drawDate(date, baseline: y + dm.ascent, from: pad, to: columnRight, into: buffer)
        rings(Rect(x: ringsX, y: (h - side) / 2, width: side, height: side), into: buffer)
    }

    /// Half the width of the panel's circle over [y0, y1], less a margin.
    func chord(_ y0: Float, _ y1: Float, radius r: Float, center c: Point, margin: Float) -> Float {
        let dy = max(abs(y0 - c.y), abs(y1 - c.y))
        return max(0, (max(0, r * r - dy * dy)).squareRoot() - margin)
    }

    /// Inside the circle: the time across the middle's upper half, the date, the rings below.
    func round(_ buffer: PixelBuffer) {
        let r = min(w, h) / 2
        let c = Point(x: w / 2, y: h / 2)
        let margin = 12 * u
        let side = r * 0.62
        // The rings sit low, their outer edge a margin inside the circle.
        let ringsTop = c.y + r - margin - side - 0.08 * r
        let ds = dateStyle(22)
        let dm0 = text.measure("M", ds)
        let dateBottom = ringsTop - 12 * u
        let dateTop = dateBottom - dm0.height
        let date = dateLine(fitting: 2 * chord(dateTop, dateBottom, radius: r, center: c, margin: margin), ds)
        let dm = text.measure(date.text, date.style)
        drawDate(date, baseline: dateTop + dm.ascent, from: c.x - r, to: c.x + r, into: buffer)
        // The time above the date, as large as the circle's chord there allows.
        var size = r * 0.5
        for _ in 0..<4 {
            let tm = timeMetrics(size)
            let top = dateTop - 6 * u - tm.height
            size = timeSize(size, fitting: 2 * chord(top, dateTop, radius: r, center: c, margin: margin))
        }
        let tm = timeMetrics(size)
        drawTime(size: size, centerX: c.x, top: dateTop - 6 * u - tm.height, into: buffer)
        rings(Rect(x: c.x - side / 2, y: ringsTop, width: side, height: side), into: buffer)
    }
}
