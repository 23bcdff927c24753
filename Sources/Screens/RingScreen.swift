import Activity
import Raster

/// What the ring screen shows: whose rings, which day, its summary and the week around it.
public struct RingScreenContent: Sendable {
    public var name: String
    public var day: CalendarDay
    public var today: CalendarDay
    /// The day's summary; nil for a day without one (a missing day, a future date).
    public var summary: ActivitySummary?
    /// Summaries of other days for the week strip; a day not here has no data.
    public var week: [CalendarDay: ActivitySummary]
    /// The time in the header (nil: no clock). A tiny panel has room for one line above its
    /// rings: the day, or the time when `clockOnTiny`.
    public var clock: ClockFace?
    public var clockOnTiny: Bool

    public init(
        name: String, day: CalendarDay, today: CalendarDay, summary: ActivitySummary?,
        week: [CalendarDay: ActivitySummary] = [:], clock: ClockFace? = nil, clockOnTiny: Bool = false
    ) {
        self.name = name
        self.day = day
        self.today = today
        self.summary = summary
        self.week = week
        self.clock = clock
        self.clockOnTiny = clockOnTiny
    }

    /// The seven days of the selected day's week, Monday first.
    public var weekDays: [CalendarDay] {
        let monday = day.adding(days: -(day.weekday - 1))
        return (0..<7).map { monday.adding(days: $0) }
    }

    /// The summary shown for `d` (future days have none).
    public func summary(for d: CalendarDay) -> ActivitySummary? {
        if d > today { return nil }
        return d == day ? summary : week[d]
    }
}

/// The ring screen: a day's Activity rings on black, with whose they are, which day, the three
/// figures and the week, laid out for the panel's size and shape.
public struct RingScreen: Screen {
    enum Mode {
        case ringsOnly(ActivitySummary?)
        case full(RingScreenContent)
    }

    let mode: Mode
    public var context: ScreenContext
    /// Its layout once worked out (for telling what changed from one frame to the next).
    let layoutMemo = LayoutMemo()

    /// The rings alone, as large as the picture allows.
    public init(summary: ActivitySummary?) {
        mode = .ringsOnly(summary)
        context = ScreenContext(text: nil)
    }

    public init(content: RingScreenContent, context: ScreenContext) {
        mode = .full(content)
        self.context = context
    }

    public func draw(into buffer: PixelBuffer, at time: Double) {
        buffer.fill(.black)
        let all = Rect(x: 0, y: 0, width: Float(buffer.width), height: Float(buffer.height))
        switch mode {
        case .ringsOnly(let summary):
            ActivityRingsView(rings: RingSet(summary)).draw(into: buffer, in: all)
        case .full(let content):
            RingScreenPainter(content: content, context: context, size: buffer.size).draw(into: buffer)
        }
    }
}

/// The layouts of the ring screen.
public enum RingLayoutKind: String, Sendable, CaseIterable {
    case landscape, portrait, square, round, tiny

    public static func choose(for size: Size, shape: PanelShape) -> RingLayoutKind {
        let short = min(size.width, size.height)
        if short < 300 { return .tiny }
        if shape == .round { return .round }
        let aspect = Float(size.width) / Float(size.height)
        if aspect >= 1.25 { return .landscape }
        if aspect <= 0.8 { return .portrait }
        return .square
    }
}

/// One of the three figures under or beside the rings.
struct RingFigure {
    var ring: Ring
    var label: String
    var value: String
    var unit: String
    var color: Color

    /// The colour of a ring's text: halfway along its gradient.
    static func color(_ ring: Ring) -> Color {
        let c = RingStyle.colors(ring)
        return Color.mix(c.start, c.end, 0.5)
    }

    /// The figures of a day: all three, or Move alone on a Move-only day.
    static func figures(_ summary: ActivitySummary?, _ strings: Strings) -> [RingFigure] {
        func pair(_ value: Double?, _ goal: Double?) -> String {
            if value == nil && goal == nil { return strings.missing }
            let v = value.map { NumberText.fixed($0, decimals: 0, trimmingZeros: true) } ?? strings.missing
            let g = goal.map { NumberText.fixed($0, decimals: 0, trimmingZeros: true) } ?? strings.missing
            return "\(v)/\(g)"
        }
        let s = summary
        let move: RingFigure
        if s?.moveMode == .moveTime {
            move = RingFigure(
                ring: .move, label: strings.ringName(.move), value: pair(s?.moveTime, s?.moveTimeGoal),
                unit: strings.minutesUnit, color: color(.move))
        } else {
            let unit = s?.activeEnergyBurned?.unit ?? s?.activeEnergyBurnedGoal?.unit ?? .kilocalorie
            // Both sides in the value's unit.
            let goal = s?.activeEnergyBurnedGoal.map { $0.kilocalories / unit.kilocalories }
            move = RingFigure(
                ring: .move, label: strings.ringName(.move), value: pair(s?.activeEnergyBurned?.value, goal),
                unit: strings.energyUnit(unit), color: color(.move))
        }
        if case .moveOnly = RingSet(summary) { return [move] }
        return [
            move,
            RingFigure(
                ring: .exercise, label: strings.ringName(.exercise), value: pair(s?.exerciseTime, s?.exerciseTimeGoal),
                unit: strings.minutesUnit, color: color(.exercise)),
            RingFigure(
                ring: .stand, label: strings.ringName(.stand), value: pair(s?.standHours, s?.standHoursGoal),
                unit: strings.hoursUnit, color: color(.stand)),
        ]
    }
}

/// Lays out and draws the full ring screen.
struct RingScreenPainter {
    let content: RingScreenContent
    let context: ScreenContext
    let size: Size
    let text: TextLayout
    let strings: Strings
    let kind: RingLayoutKind
    /// Pixels per 1/480 of the short side.
    let u: Float
    let w: Float, h: Float

    init(content: RingScreenContent, context: ScreenContext, size: Size) {
        self.content = content
        self.context = context
        self.size = size
        text = TextLayout(context)
        strings = context.strings
        kind = RingLayoutKind.choose(for: size, shape: context.shape)
        w = Float(size.width)
        h = Float(size.height)
        u = min(w, h) / 480
    }

    // MARK: Styles

    var chinese: Bool { context.locale == .simplifiedChinese }
    /// A style scaled to the panel; Chinese characters need about a tenth more size than Latin
    /// capitals to read as well, and never get letter spacing.
    func style(_ size: Float, _ weight: FontWeight, minimum: Float, caps: Bool = false) -> TextStyle {
        let s = chinese && caps ? max(minimum + 1, size * u * 1.12) : max(minimum, size * u)
        return TextStyle(size: s, weight: weight, tracking: caps && !chinese ? s * 0.06 : 0)
    }

    var dayLabel: String { strings.dayLabel(content.day, today: content.today) }
    var compactDayLabel: String { strings.compactDayLabel(content.day, today: content.today) }

    /// The full day label when it fits `width` in `style`, else the compact one.
    func dayLabel(fitting width: Float, _ style: TextStyle) -> String {
        text.measure(dayLabel, style).width <= width ? dayLabel : compactDayLabel
    }
    var figures: [RingFigure] { RingFigure.figures(content.summary, strings) }

    func draw(into buffer: PixelBuffer) {
        switch kind {
        case .landscape: landscape(buffer)
        case .portrait: portrait(buffer)
        case .square: square(buffer)
        case .round: round(buffer)
        case .tiny: tiny(buffer)
        }
    }

    func rings(_ rect: Rect, into buffer: PixelBuffer) {
        context.probe?.rings(rect, RingSet(content.summary))
        ActivityRingsView(rings: RingSet(content.summary)).draw(into: buffer, in: rect)
    }

    /// The time as the header writes it, in `style`.
    var clockLine: String? { content.clock.map { strings.clockText($0).line } }

    /// The header's time: semibold white, a little larger than the name beside it.
    func clockStyle(_ nameSize: Float) -> TextStyle { style(nameSize * 1.1, .semibold, minimum: 12) }

    /// Name, then the day's title ("Today", "Wednesday"), then its date, from `top` in [x0, x1];
    /// the time, when shown, on the name's line at the other end. Returns the bottom.
    func header(top: Float, x0: Float, x1: Float, nameSize: Float, daySize: Float, align: TextAlignment,
                into buffer: PixelBuffer) -> Float {
        var y = top
        let small = style(nameSize, .medium, minimum: 11)
        let clock = clockLine
        if !content.name.isEmpty || clock != nil {
            let m = text.measure(content.name.isEmpty ? "M" : content.name, small)
            var line = m.height
            var nameRight = x1
            if let clock {
                let cs = clockStyle(nameSize)
                let cm = text.measure(clock, cs)
                // On the name's baseline, at the far end.
                let baseline = y + max(m.ascent, cm.ascent)
                let box = text.draw(clock, cs, color: TextLayout.primary, baseline: baseline, from: x0, to: x1,
                                    align: align == .leading ? .trailing : .leading, into: buffer)
                nameRight = box.x - 12 * u
                line = max(m.ascent, cm.ascent) + max(m.descent, cm.descent)
                if !content.name.isEmpty {
                    let name = text.truncated(content.name, small, width: max(0, nameRight - x0))
                    text.draw(name, small, color: TextLayout.secondary, baseline: baseline, from: x0, to: nameRight,
                              align: .leading, into: buffer)
                }
            } else {
                let name = text.truncated(content.name, small, width: x1 - x0)
                text.draw(name, small, color: TextLayout.secondary, baseline: y + m.ascent, from: x0, to: x1, align: align,
                          into: buffer)
            }
            y += line + 2 * u
        }
        let title = strings.dayTitle(content.day, today: content.today)
        let d = text.fitting(title, style(daySize, .semibold, minimum: 14), width: x1 - x0)
        let m = text.measure(title, d)
        text.draw(text.truncated(title, d, width: x1 - x0), d, color: TextLayout.primary, baseline: y + m.ascent,
                  from: x0, to: x1, align: align, into: buffer)
        y += m.height
        let date = strings.dateLine(content.day, today: content.today)
        let dm = text.measure(date, small)
        text.draw(text.truncated(date, small, width: x1 - x0), small, color: TextLayout.secondary, baseline: y + dm.ascent,
                  from: x0, to: x1, align: align, into: buffer)
        return y + dm.height
    }

    /// A figure as label over "value unit", from `top` in [x0, x1]; returns the bottom.
    @discardableResult
    func figureInline(_ f: RingFigure, top: Float, x0: Float, x1: Float, labelSize: Float, valueSize: Float,
                      align: TextAlignment, into buffer: PixelBuffer) -> Float {
        let ls = style(labelSize, .semibold, minimum: 10, caps: true)
        let lm = text.measure(f.label, ls)
        text.draw(f.label, ls, color: f.color, baseline: top + lm.ascent, from: x0, to: x1, align: align, into: buffer)
        var vs = style(valueSize, .semibold, minimum: 13)
        var us = style(valueSize * 0.52, .semibold, minimum: 10, caps: true)
        let gap = 5 * u
        // Shrink value and unit together until the pair fits.
        for _ in 0..<8 {
            if text.measure(f.value, vs).width + gap + text.measure(f.unit, us).width <= x1 - x0 { break }
            vs.size *= 0.92
            us.size *= 0.92
        }
        let vm = text.measure(f.value, vs), um = text.measure(f.unit, us)
        let baseline = top + lm.height + 1 * u + vm.ascent
        let total = vm.width + gap + um.width
        let start: Float
        switch align {
        case .leading: start = x0
        case .center: start = (x0 + x1 - total) / 2
        case .trailing: start = x1 - total
        }
        text.draw(f.value, vs, color: f.color, baseline: baseline, from: start, to: start + vm.width, align: .leading, into: buffer)
        text.draw(f.unit, us, color: f.color, baseline: baseline, from: start + vm.width + gap, to: x1, align: .leading,
                  into: buffer)
        return baseline + vm.descent
    }

    /// Height `figureInline` takes.
    func figureInlineHeight(labelSize: Float, valueSize: Float) -> Float {
        let lm = text.measure("M", style(labelSize, .semibold, minimum: 10, caps: true))
        let vm = text.measure("0", style(valueSize, .semibold, minimum: 13))
        return lm.height + 1 * u + vm.height
    }

    /// A figure as three centred lines (label, value, unit) in a column; returns the bottom.
    @discardableResult
    func figureStacked(_ f: RingFigure, top: Float, x0: Float, x1: Float, labelSize: Float, valueSize: Float,
                       into buffer: PixelBuffer) -> Float {
        let ls = text.fitting(f.label, style(labelSize, .semibold, minimum: 9, caps: true), width: x1 - x0)
        let vs = text.fitting(f.value, style(valueSize, .semibold, minimum: 12), width: x1 - x0)
        let us = text.fitting(f.unit, style(labelSize, .semibold, minimum: 9, caps: true), width: x1 - x0)
        var y = top
        let lm = text.measure(f.label, ls)
        text.draw(f.label, ls, color: f.color, baseline: y + lm.ascent, from: x0, to: x1, align: .center, into: buffer)
        y += lm.height
        let vm = text.measure(f.value, vs)
        text.draw(text.truncated(f.value, vs, width: x1 - x0), vs, color: f.color, baseline: y + vm.ascent, from: x0,
                  to: x1, align: .center, into: buffer)
        y += vm.height
        let um = text.measure(f.unit, us)
        text.draw(f.unit, us, color: f.color, baseline: y + um.ascent, from: x0, to: x1, align: .center, into: buffer)
        return y + um.height
    }

    func figureStackedHeight(labelSize: Float, valueSize: Float) -> Float {
        let lm = text.measure("M", style(labelSize, .semibold, minimum: 9, caps: true))
        let vm = text.measure("0", style(valueSize, .semibold, minimum: 12))
        return 2 * lm.height + vm.height
    }

    /// A row of stacked figures across [x0, x1].
    func figureRow(top: Float, x0: Float, x1: Float, labelSize: Float, valueSize: Float, into buffer: PixelBuffer) {
        let list = figures
        let gap = 10 * u
        let column = (x1 - x0 - gap * Float(2)) / 3
        // One figure (Move only) sits in the middle column.
        let first = list.count == 1 ? 1 : 0
        for (i, f) in list.enumerated() {
            let c = Float(first + i)
            figureStacked(f, top: top, x0: x0 + c * (column + gap), x1: x0 + c * (column + gap) + column,
                          labelSize: labelSize, valueSize: valueSize, into: buffer)
        }
    }

    // MARK: The week strip

    func weekHeight(letterSize: Float, ringSize: Float) -> Float {
        text.measure("M", style(letterSize, .semibold, minimum: 9)).height + 6 * u + ringSize * u
    }

    /// Seven days, Monday first: the weekday letter over the day's small rings; the selected day's
    /// letter on a white disc.
    func week(_ rect: Rect, letterSize: Float, into buffer: PixelBuffer) {
        let s = style(letterSize, .semibold, minimum: 9)
        let lm = text.measure("M", s)
        let cell = rect.width / 7
        let side = min(cell - 4 * u, rect.height - lm.height - 6 * u)
        guard side > 8 else { return }
        for (i, d) in content.weekDays.enumerated() {
            let x0 = rect.x + Float(i) * cell
            let letter = strings.weekdayInitial(d.weekday)
            let baseline = rect.y + lm.ascent
            var color = d == content.today ? TextLayout.primary : TextLayout.secondary
            if d == content.day {
                let r = lm.height * 0.62
                buffer.fillDisc(center: Point(x: x0 + cell / 2, y: baseline - lm.ascent / 2 + lm.descent / 2 - 0.5 * u),
                                radius: r, color: .white)
                color = .black
            }
            text.draw(letter, s, color: color, baseline: baseline, from: x0, to: x0 + cell, align: .center, into: buffer)
            let ringRect = Rect(x: x0 + (cell - side) / 2, y: rect.y + lm.height + 6 * u, width: side, height: side)
            context.probe?.rings(ringRect, RingSet(content.summary(for: d)))
            ActivityRingsView(rings: RingSet(content.summary(for: d))).draw(into: buffer, in: ringRect)
        }
    }

    // MARK: Layouts

    func landscape(_ buffer: PixelBuffer) {
        let pad = 24 * u, gutter = 28 * u
        var side = h - 2 * pad
        let minColumn = 230 * u
        if w - side - 2 * pad - gutter < minColumn { side = max(0, w - 2 * pad - gutter - minColumn) }
        rings(Rect(x: pad, y: (h - side) / 2, width: side, height: side), into: buffer)
        let x0 = pad + side + gutter, x1 = w - pad
        let headerBottom = header(top: pad, x0: x0, x1: x1, nameSize: 20, daySize: 34, align: .leading, into: buffer)
        let weekH = weekHeight(letterSize: 13, ringSize: 40)
        let figureH = figureInlineHeight(labelSize: 15, valueSize: 32)
        let list = figures
        let figuresH = Float(list.count) * figureH
        var bottom = h - pad
        let room = bottom - headerBottom - 16 * u
        if room >= figuresH + Float(list.count) * 12 * u + weekH + 16 * u {
            week(Rect(x: x0, y: bottom - weekH, width: x1 - x0, height: weekH), letterSize: 13, into: buffer)
            bottom -= weekH + 16 * u
        }
        // Spaced as three figures would be, so Move alone sits where it always does.
        let spacing = max(8 * u, (bottom - headerBottom - 16 * u - 3 * figureH) / 3)
        var y = headerBottom + 16 * u + spacing / 2
        for f in list {
            figureInline(f, top: y, x0: x0, x1: x1, labelSize: 15, valueSize: 32, align: .leading, into: buffer)
            y += figureH + spacing
        }
    }

    func portrait(_ buffer: PixelBuffer) {
        let pad = 28 * u
        let headerBottom = header(top: pad, x0: pad, x1: w - pad, nameSize: 20, daySize: 34, align: .leading, into: buffer)
        let weekH = weekHeight(letterSize: 13, ringSize: 46)
        let figureH = figureStackedHeight(labelSize: 14, valueSize: 28)
        let gap = 22 * u
        var side = w - 2 * pad
        let available = h - pad - headerBottom - 3 * gap - figureH - weekH
        side = min(side, available)
        // Spread what is left evenly between the blocks.
        let slack = max(0, available - side) / 4
        var y = headerBottom + gap + slack
        rings(Rect(x: (w - side) / 2, y: y, width: side, height: side), into: buffer)
        y += side + gap + slack
        figureRow(top: y, x0: pad, x1: w - pad, labelSize: 14, valueSize: 28, into: buffer)
        y += figureH + gap + slack
        week(Rect(x: pad, y: y, width: w - 2 * pad, height: weekH), letterSize: 13, into: buffer)
    }

    func square(_ buffer: PixelBuffer) {
        let pad = 18 * u
        // Day label leading, name trailing, on one baseline.
        let ds = style(28, .semibold, minimum: 14)
        // Leave the name at least a third of the width.
        let label = dayLabel(fitting: (w - 2 * pad) * 0.66, ds)
        let dm = text.measure(label, ds)
        let baseline = pad + dm.ascent
        let dayBox = text.draw(text.truncated(label, ds, width: w - 2 * pad), ds, color: TextLayout.primary,
                               baseline: baseline, from: pad, to: w - pad, align: .leading, into: buffer)
        // The time at the trailing end, the name before it (what room is left).
        var nameRight = w - pad
        if let clock = clockLine {
            let cs = clockStyle(18)
            if text.measure(clock, cs).width <= w - pad - dayBox.maxX - 16 * u {
                let box = text.draw(clock, cs, color: TextLayout.primary, baseline: baseline, from: pad, to: w - pad,
                                    align: .trailing, into: buffer)
                nameRight = box.x - 12 * u
            }
        }
        if !content.name.isEmpty {
            let ns = style(18, .medium, minimum: 11)
            let room = nameRight - dayBox.maxX - 16 * u
            let name = text.truncated(content.name, ns, width: room)
            if !name.isEmpty {
                text.draw(name, ns, color: TextLayout.secondary, baseline: baseline, from: pad, to: nameRight,
                          align: .trailing, into: buffer)
            }
        }
        let headerBottom = baseline + dm.descent
        let showWeek = min(w, h) >= 600
        let weekH = showWeek ? weekHeight(letterSize: 12, ringSize: 40) : 0
        let figureH = figureStackedHeight(labelSize: 13, valueSize: 24)
        let gap = 14 * u
        let bottom = h - pad
        var y = bottom - weekH
        if showWeek {
            week(Rect(x: pad, y: y, width: w - 2 * pad, height: weekH), letterSize: 12, into: buffer)
            y -= gap
        }
        y -= figureH
        figureRow(top: y, x0: pad, x1: w - pad, labelSize: 13, valueSize: 24, into: buffer)
        let side = min(w - 2 * pad, y - gap - headerBottom - gap)
        rings(Rect(x: (w - side) / 2, y: headerBottom + gap + (y - gap - headerBottom - gap - side) / 2, width: side,
                   height: side), into: buffer)
    }

    /// Half the width of the panel's circle at height y, less a margin.
    func chord(_ y0: Float, _ y1: Float, radius r: Float, center c: Point, margin: Float) -> Float {
        let dy = max(abs(y0 - c.y), abs(y1 - c.y))
        return max(0, (max(0, r * r - dy * dy)).squareRoot() - margin)
    }

    func round(_ buffer: PixelBuffer) {
        let r = min(w, h) / 2
        let c = Point(x: w / 2, y: h / 2)
        let margin = 10 * u
        // Header: the time, then name over day, centred, each fitted to the circle's chord where
        // it sits.
        var y = c.y - (content.clock == nil ? 0.74 : 0.82) * r
        if let clock = clockLine {
            let s = clockStyle(20)
            let m = text.measure(clock, s)
            let half = chord(y, y + m.height, radius: r, center: c, margin: margin)
            text.draw(text.truncated(clock, s, width: 2 * half), s, color: TextLayout.primary, baseline: y + m.ascent,
                      from: c.x - half, to: c.x + half, align: .center, into: buffer)
            y += m.height + 2 * u
        }
        if !content.name.isEmpty {
            let s = style(16, .medium, minimum: 11)
            let m = text.measure(content.name, s)
            let half = chord(y, y + m.height, radius: r, center: c, margin: margin)
            text.draw(text.truncated(content.name, s, width: 2 * half), s, color: TextLayout.secondary,
                      baseline: y + m.ascent, from: c.x - half, to: c.x + half, align: .center, into: buffer)
            y += m.height
        }
        var ds = style(26, .semibold, minimum: 14)
        var dm = text.measure(dayLabel, ds)
        var half = chord(y, y + dm.height, radius: r, center: c, margin: margin)
        let label = dayLabel(fitting: 2 * half, ds)
        ds = text.fitting(label, ds, width: 2 * half)
        dm = text.measure(label, ds)
        half = chord(y, y + dm.height, radius: r, center: c, margin: margin)
        text.draw(text.truncated(label, ds, width: 2 * half), ds, color: TextLayout.primary, baseline: y + dm.ascent,
                  from: c.x - half, to: c.x + half, align: .center, into: buffer)
        let headerBottom = y + dm.height
        // Figures: a row of value over unit, under the rings.
        let list = figures
        let vs = style(22, .semibold, minimum: 12)
        let us = style(11, .semibold, minimum: 9, caps: true)
        let vm = text.measure("0", vs), um = text.measure("M", us)
        let rowBottom = c.y + 0.80 * r
        let rowTop = rowBottom - vm.height - um.height
        let rowHalf = chord(rowTop, rowBottom, radius: r, center: c, margin: margin)
        let gap = 8 * u
        let column = (2 * rowHalf - 2 * gap) / 3
        let first = list.count == 1 ? 1 : 0
        for (i, f) in list.enumerated() {
            let x0 = c.x - rowHalf + Float(first + i) * (column + gap)
            let fv = text.fitting(f.value, vs, width: column)
            text.draw(text.truncated(f.value, fv, width: column), fv, color: f.color, baseline: rowTop + vm.ascent,
                      from: x0, to: x0 + column, align: .center, into: buffer)
            let fu = text.fitting(f.unit, us, width: column)
            text.draw(f.unit, fu, color: f.color, baseline: rowTop + vm.height + um.ascent, from: x0, to: x0 + column,
                      align: .center, into: buffer)
        }
        // Rings between, centred on the panel's centre line.
        let top = headerBottom + 12 * u, bottom = rowTop - 12 * u
        let side = min(bottom - top, 2 * r * 0.80)
        rings(Rect(x: c.x - side / 2, y: top + (bottom - top - side) / 2, width: side, height: side), into: buffer)
    }

    func tiny(_ buffer: PixelBuffer) {
        let pad = max(4, 10 * u)
        let base = style(34, .semibold, minimum: 15)
        let label = content.clockOnTiny ? clockLine ?? dayLabel(fitting: w - 2 * pad, base) : dayLabel(fitting: w - 2 * pad, base)
        let ds = text.fitting(label, base, width: w - 2 * pad)
        let dm = text.measure(label, ds)
        text.draw(text.truncated(label, ds, width: w - 2 * pad), ds, color: TextLayout.primary,
                  baseline: pad + dm.ascent, from: pad, to: w - pad, align: .center, into: buffer)
        let top = pad + dm.height + 4 * u
        let side = max(0, min(w - 2 * pad, h - top - pad))
        rings(Rect(x: (w - side) / 2, y: top, width: side, height: side), into: buffer)
    }
}
