import Activity
import Raster

/// The gauge looks people know from watch complications and lock-screen widgets.
public enum GaugeStyle: String, Sendable, CaseIterable {
    case circular, circularCapacity, linear, linearCapacity
    case accessoryCircular, accessoryCircularCapacity, accessoryLinear, accessoryLinearCapacity

    /// Capacity styles fill up to the value; the others mark it on a whole track.
    public var isCapacity: Bool {
        switch self {
        case .circularCapacity, .linearCapacity, .accessoryCircularCapacity, .accessoryLinearCapacity: true
        default: false
        }
    }

    public var isCircular: Bool {
        switch self {
        case .circular, .circularCapacity, .accessoryCircular, .accessoryCircularCapacity: true
        default: false
        }
    }

    public var isAccessory: Bool { rawValue.hasPrefix("accessory") }
}

/// A value inside a range, and how to show it.
public struct Gauge: Sendable, Hashable {
    public var style: GaugeStyle
    /// nil or NaN: no value (shown as — without a marker).
    public var value: Double?
    public var minimum: Double
    public var maximum: Double
    public var title: String
    public var unit: String
    /// Colours along the path, low to high; the marker or fill takes the colour at the value.
    public var tint: [Color]
    /// Seconds since the value came, when it is stale (not renewed in time): the value is drawn
    /// dimmed with its age. nil: fresh.
    public var age: Double?
    /// The places its numbers are written to; nil: as many as show three significant digits
    /// (`NumberLine.automaticDecimals`).
    public var decimals: Int?

    /// Cool to warm, and none of the ring colours.
    public static let defaultTint = [Color(hex: 0x64D2FF), Color(hex: 0xFFD60A), Color(hex: 0xFF9F0A)]

    public init(
        style: GaugeStyle, value: Double?, minimum: Double = 0, maximum: Double = 100, title: String = "",
        unit: String = "", tint: [Color] = Gauge.defaultTint, age: Double? = nil, decimals: Int? = nil
    ) {
        self.age = age
        self.decimals = decimals.map { min(max($0, 0), 9) }
        self.style = style
        self.value = value
        self.minimum = minimum
        self.maximum = maximum
        self.title = title
        self.unit = unit
        self.tint = tint.isEmpty ? Gauge.defaultTint : tint
    }

    /// Where the value sits in the range, pinned to 0...1; nil without a value.
    public var fraction: Double? {
        guard let value, value.isFinite, maximum.isFinite, minimum.isFinite, maximum > minimum else { return nil }
        if value <= minimum { return 0 }
        if value >= maximum { return 1 }
        // Halved, so a range such as -1e308...1e308 cannot overflow to infinity (and 0/0 to NaN).
        let f = (value / 2 - minimum / 2) / (maximum / 2 - minimum / 2)
        return f.isFinite ? min(max(f, 0), 1) : 0
    }

    /// Whether the value lies outside the range (it is pinned to the end and its number shown).
    public var isOutOfRange: Bool {
        guard let value, value.isFinite else { return false }
        return value < minimum || value > maximum
    }

    /// A stale value (with one to show): dimmed, with its age.
    public var isStale: Bool { age != nil && value.map { $0.isFinite } == true }

    public var paint: ArcPaint {
        let n = tint.count
        return ArcPaint(stops: tint.enumerated().map { ArcPaint.Stop(n == 1 ? 0 : Double($0.offset) / Double(n - 1), $0.element) })
    }

    /// The value with its unit, concise: "30°", "72 %", "1.5 kW", "123,456 kWh", or — without a
    /// value.
    public func label(_ v: Double?) -> String { number(v, locale: .english).full }

    /// The places `v` is written to: the gauge's `decimals`, else three significant digits.
    func decimals(_ v: Double) -> Int { decimals ?? NumberLine.automaticDecimals(v) }

    /// The range a value is never rounded onto an end of (nil for a range that is not one).
    var range: ClosedRange<Double>? {
        minimum.isFinite && maximum.isFinite && minimum < maximum ? minimum...maximum : nil
    }

    /// A unit of one sign (°, %) is written on the number; any other after it, apart.
    var unitAttached: Bool { unit.count == 1 && "°%′″".contains(unit) }

    /// A value (or a range end) with the gauge's unit, in every form it may be written; `unit`
    /// false leaves a unit written apart out (a range end: the value says it).
    func number(_ v: Double?, locale: AppLocale, suffix: String = "", unit withUnit: Bool = true) -> NumberLine {
        guard let v, v.isFinite else { return NumberLine(forms: ["—"], unit: "", suffix: suffix) }
        return NumberLine(v, decimals: decimals(v), locale: locale, unit: withUnit || unitAttached ? unit : "",
                          attached: unitAttached, suffix: suffix, within: range)
    }

    /// The value's unit, when written apart, as a smaller run after the number (`style` the
    /// number's).
    func unitRun(_ style: TextStyle, floor: Float) -> UnitRun? {
        guard !unit.isEmpty, !unitAttached else { return nil }
        return UnitRun(style: TextStyle(size: max(floor, style.size * 0.5), weight: .semibold), minimum: floor,
                       gap: style.size * 0.15)
    }
}

/// The gauge screen: one large gauge, or a grid of accessory gauges.
public struct GaugeScreen: ContextScreen {
    public var gauges: [Gauge]
    public var context: ScreenContext

    public init(gauges: [Gauge], context: ScreenContext) {
        self.gauges = gauges
        self.context = context
    }

    public func draw(into buffer: PixelBuffer, at time: Double) {
        buffer.fill(.black)
        let painter = GaugePainter(context: context, size: buffer.size)
        var area = Rect(x: 0, y: 0, width: Float(buffer.width), height: Float(buffer.height))
        let round = context.shape == .round
        let diameter = min(area.width, area.height)
        if round {
            // The square inscribed in the circle, so corners stay visible.
            let side = diameter * 0.7071
            area = Rect(x: area.center.x - side / 2, y: area.center.y - side / 2, width: side, height: side)
        }
        if gauges.count == 1 {
            painter.draw(gauges[0], in: area.insetBy(min(area.width, area.height) * 0.05), large: true,
                         element: "gauge.1", into: buffer)
            return
        }
        // A grid, cells as square as the panel allows.
        let n = gauges.count
        var best = (columns: 1, rows: n, score: Float.infinity)
        for columns in 1...max(1, n) {
            let rows = (n + columns - 1) / columns
            let cell = (area.width / Float(columns), area.height / Float(rows))
            let aspect = cell.0 / cell.1
            let score = max(aspect, 1 / aspect) + Float(columns * rows - n) * 0.3
            // Between two as square, the taller cells (a gauge carries its title under it).
            let taller = abs(score - best.score) < 1e-4 && aspect < 1
            if score < best.score - 1e-4 || taller { best = (columns, rows, score) }
        }
        // On a tall panel the grid is one block in the middle, not rows spread over the whole
        // height with each gauge alone in a tall cell.
        // Cells at most square, or a fifth taller than wide when a dial has a line under it.
        let captioned = gauges.contains { $0.style.isCircular && (!$0.title.isEmpty || $0.isStale) }
        let tall: Float = captioned ? 1.2 : 1
        var cw = area.width / Float(best.columns)
        var ch = min(area.height / Float(best.rows), cw * tall)
        if round && best.columns != best.rows {
            // On a round panel, the block of cells inscribed in the circle (cells a fifth taller
            // than wide when the grid is wider than tall): wider than the square for 3x2.
            let ratio: Float = best.rows < best.columns ? tall : 1
            let c = Float(best.columns), r = Float(best.rows)
            cw = diameter / (c * c + ratio * ratio * r * r).squareRoot()
            ch = cw * ratio
            area = Rect(x: Float(buffer.width) / 2 - cw * c / 2, y: Float(buffer.height) / 2 - ch * r / 2, width: cw * c,
                        height: ch * r)
        }
        let top = area.y + (area.height - ch * Float(best.rows)) / 2
        for (i, gauge) in gauges.enumerated() {
            let cell = Rect(x: area.x + Float(i % best.columns) * cw, y: top + Float(i / best.columns) * ch,
                            width: cw, height: ch)
            painter.draw(gauge, in: cell.insetBy(min(cw, ch) * 0.06), large: false, element: "gauge.\(i + 1)",
                         into: buffer)
        }
    }
}

/// Draws one gauge in a rect.
struct GaugePainter {
    let context: ScreenContext
    let text: TextLayout
    let scale: TypeScale

    static let track = Color(hex: 0x3A3A3C)
    /// The open ring's opening: 90° at the bottom; the path runs clockwise from lower left.
    static let openStart = 0.625
    static let openSweep = 0.75

    init(context: ScreenContext, size: Size) {
        self.context = context
        scale = TypeScale(size: size, context: context)
        text = TextLayout(context, scale: scale)
    }

    var locale: AppLocale { context.locale }

    func draw(_ gauge: Gauge, in rect: Rect, large: Bool, element: String, into buffer: PixelBuffer) {
        if gauge.style.isCircular {
            circular(gauge, in: rect, large: large, element: element, into: buffer)
        } else {
            linear(gauge, in: rect, large: large, element: element, into: buffer)
        }
    }

    // MARK: Circular

    /// Where a circular gauge of diameter `d` puts its parts, relative to its centre.
    struct Dial {
        var d: Float
        var lineWidth: Float
        var radius: Float
        /// The range ends' style and metrics, and their baseline below the centre.
        var endStyle: TextStyle
        var endMetrics: TextMetrics
        var endBaseline: Float
        /// How far the gauge reaches below its centre (its ring, or the range ends under it).
        var below: Float
    }

    func dial(_ gauge: Gauge, d: Float) -> Dial {
        let closed = gauge.style == .accessoryCircularCapacity
        let accessory = gauge.style.isAccessory
        let lineWidth = d * (accessory ? 0.1 : 0.085)
        let radius = d / 2 - lineWidth / 2 - d * 0.04
        let ls = scale.style(px: d * (accessory ? 0.1 : 0.07), .medium)
        let lm = text.measure("0", ls)
        // Below the path's ends and below a marker pinned there.
        let endBaseline = radius * 0.7071 + lineWidth * (gauge.style.isCapacity ? 0.6 : 0.8) + lm.ascent
        let below = closed ? d / 2 : max(d / 2, endBaseline + lm.descent)
        return Dial(d: d, lineWidth: lineWidth, radius: radius, endStyle: ls, endMetrics: lm, endBaseline: endBaseline,
                    below: below)
    }

    /// The width the value may take inside the ring: the chord of the ring's hole (less a pixel)
    /// at the top of the value's line in `style`, which sits a little above the centre on an
    /// open ring.
    func valueRoom(_ g: Dial, _ style: TextStyle, closed: Bool, marker: Bool) -> Float {
        // A marker's black ring reaches into the hole.
        let hole = g.radius - g.lineWidth * (marker ? 0.78 : 0.5) - 1
        let m = text.measure("0", style)
        let reach = m.height / 2 + (closed ? 0 : g.d * 0.02)
        return 2 * (max(0, hole * hole - reach * reach)).squareRoot()
    }

    /// Whether `box` stays off the dial's path: inside its hole (less a marker's reach, wherever
    /// the marker may be), or in the opening at the bottom, at every point of its edges.
    func clearOfPath(_ box: Rect, _ g: Dial, centre c: Point, closed: Bool, marker: Bool) -> Bool {
        let hole = g.radius - g.lineWidth * (marker ? 0.78 : 0.5) - 1
        let outer = g.radius + g.lineWidth * (marker ? 0.78 : 0.5) + 1
        let start = closed ? 0 : Self.openStart, sweep = closed ? 1 : Self.openSweep
        func clear(_ x: Float, _ y: Float) -> Bool {
            let dx = Double(x - c.x), dy = Double(y - c.y)
            let d = Float((dx * dx + dy * dy).squareRoot())
            if d <= hole { return true }
            // Past the path's band (and its caps) is outside the dial: not inside it.
            if d > outer { return false }
            var rel = Trigonometry.turnsClockwiseFromUp(dx: dx, dy: dy) - start
            rel -= rel.rounded(.down)
            if closed || rel <= sweep { return false }
            // In the opening: clear of the path's round ends (and a marker pinned there).
            let reach = g.lineWidth * (marker ? 0.78 : 0.5) + 1
            for end in [start, start + sweep] {
                let at = Trigonometry.direction(turns: end)
                let ex = c.x + g.radius * Float(at.dx) - x, ey = c.y + g.radius * Float(at.dy) - y
                if ex * ex + ey * ey < reach * reach { return false }
            }
            return true
        }
        let step: Float = 2
        var t: Float = 0
        while t <= 1 {
            let x = box.x + box.width * t, y = box.y + box.height * t
            if !clear(x, box.y) || !clear(x, box.maxY) || !clear(box.x, y) || !clear(box.maxX, y) { return false }
            t += step / max(box.width, box.height, 1)
        }
        return clear(box.maxX, box.maxY)
    }

    /// A line of text over or under a dial: its runs (text, element, whether a number).
    typealias Caption = [(text: String, element: String, number: Bool)]

    /// A circular gauge and its title as one block, centred in `rect`: the title above
    /// (`circular`) or under it (the others, as watch complications carry their label), the
    /// value in the middle, the range ends in the opening, a stale value's age under the value
    /// when it fits inside the ring, else beside the title or on a line of its own.
    func circular(_ gauge: Gauge, in rect: Rect, large: Bool, element e: String, into buffer: PixelBuffer) {
        let closed = gauge.style == .accessoryCircularCapacity
        let accessory = gauge.style.isAccessory
        let marker = !gauge.style.isCapacity
        let side = min(rect.width, rect.height)
        let titleStyle = scale.style(px: side * (large ? 0.075 : 0.1), .semibold)
        let titleAbove = gauge.style == .circular
        let tm = text.measure(gauge.title.isEmpty ? "M" : gauge.title, titleStyle)
        let titleGap = side * 0.03
        let fraction = gauge.fraction
        let ageText = gauge.isStale ? gauge.age.map { context.strings.age(seconds: $0) } : nil
        let title: (text: String, element: String, number: Bool)? =
            gauge.title.isEmpty ? nil : (gauge.title, e + ".title", false)
        let age: (text: String, element: String, number: Bool)? = ageText.map { ($0, e + ".age", true) }

        /// The dial as large as the rect allows with the caption lines over and under it.
        func layout(above: Int, below: Int) -> (Dial, top: Float) {
            let aboveH = above > 0 ? Float(above) * tm.height + titleGap : 0
            let belowH = below > 0 ? Float(below) * tm.height + titleGap : 0
            var d = min(rect.width, rect.height - aboveH - belowH)
            var g = dial(gauge, d: d)
            for _ in 0..<3 {
                let total = aboveH + d / 2 + g.below + belowH
                guard total > rect.height + 0.01 else { break }
                d = max(0, d - (total - rect.height))
                g = dial(gauge, d: d)
            }
            let total = aboveH + d / 2 + g.below + belowH
            return (g, rect.y + (rect.height - total) / 2 + aboveH)
        }
        /// The value fitted inside the ring, its baseline; whether the age fits under it there.
        func inside(_ g: Dial, centre c: Point) -> (FittedNumber, Float, Bool) {
            let vs = scale.style(px: g.d * (accessory ? 0.27 : 0.22), .semibold)
            // The chord of the hole at the value's line: a smaller value has more room.
            let value = text.fit(gauge.number(gauge.value, locale: locale), vs, minimum: vs.size * 0.5,
                                 room: { size in
                                     var style = vs
                                     style.size = size
                                     return valueRoom(g, style, closed: closed, marker: marker)
                                 },
                                 unit: gauge.unitRun(vs, floor: scale.floor))
            let vm = text.measure(value.text, value.style)
            let baseline = c.y + (vm.ascent - vm.descent) / 2 - (closed ? 0 : g.d * 0.02)
            guard let ageText else { return (value, baseline, false) }
            let am = text.measure(ageText, g.endStyle)
            let y0 = baseline + vm.descent + g.d * 0.01
            let box = Rect(x: c.x - am.width / 2, y: y0, width: am.width, height: am.height)
            return (value, baseline, clearOfPath(box, g, centre: c, closed: closed, marker: marker))
        }
        // The captions: the title, and the age when it is not inside the ring, beside the title
        // when both fit one line. Where the dial left would be too small for its value, the age
        // is left out, then the title (the value stays; a stale one is still dimmed).
        var above: [Caption] = [], below: [Caption] = []
        func captions(title: (text: String, element: String, number: Bool)?,
                      age: (text: String, element: String, number: Bool)?) {
            above = []
            below = []
            if titleAbove {
                if let title { above.append([title]) }
                if let age { below.append([age]) }
            } else if let title, let age {
                let w = text.measure(title.text, titleStyle).width + titleStyle.size * 0.4
                    + text.measure(age.text, titleStyle).width
                below = w <= rect.width ? [[title, age]] : [[title], [age]]
            } else if let line = title ?? age {
                below.append([line])
            }
        }
        var g = dial(gauge, d: 0), top: Float = 0, c = Point(x: 0, y: 0)
        var value = FittedNumber(text: "", unit: nil, style: titleStyle, unitStyle: titleStyle, gap: 0, width: 0,
                                 full: "", fits: false, exact: false)
        var valueBaseline: Float = 0, ageInside = false
        let options: [(title: Bool, age: Bool, inside: Bool)] =
            age == nil ? [(true, false, false), (false, false, false)]
            : [(true, false, true), (true, true, false), (true, false, false), (false, false, false)]
        for option in options {
            captions(title: option.title ? title : nil, age: option.age ? age : nil)
            (g, top) = layout(above: above.count, below: below.count)
            c = Point(x: rect.center.x, y: top + g.d / 2)
            let fitsInside: Bool
            (value, valueBaseline, fitsInside) = inside(g, centre: c)
            ageInside = option.inside && fitsInside
            if value.fits && (!option.inside || fitsInside) { break }
        }

        let start = closed ? 0 : Self.openStart
        let sweep = closed ? 1 : Self.openSweep
        if gauge.style.isCapacity {
            // The track fills from the start up to the value, in the colour along the path.
            let paint = gauge.paint
            let valuePaint = ArcPaint(stops: paint.stops, from: 0, to: sweep)
            let arc = ArcStroke(center: c, radius: g.radius, width: g.lineWidth, start: start,
                                sweep: fraction.map { $0 * sweep }, paint: valuePaint, track: Self.track,
                                trackSweep: sweep)
            context.probe?.arc(arc, sweep: sweep)
            buffer.stroke(arc)
        } else {
            // The whole path in its colours, and a marker at the value.
            let arc = ArcStroke(center: c, radius: g.radius, width: g.lineWidth, start: start, sweep: sweep,
                                paint: ArcPaint(stops: gauge.paint.stops, from: 0, to: sweep))
            context.probe?.arc(arc, sweep: sweep)
            buffer.stroke(arc)
            if let fraction {
                let at = Trigonometry.direction(turns: start + fraction * sweep)
                let p = Point(x: c.x + g.radius * Float(at.dx), y: c.y + g.radius * Float(at.dy))
                let r = g.lineWidth * 0.78
                context.probe?.shape("marker", Rect(x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r))
                buffer.fillDisc(center: p, radius: g.lineWidth * 0.78, color: .black)
                buffer.fillDisc(center: p, radius: g.lineWidth * 0.55, color: markerColor(gauge, fraction))
            }
        }
        let room = valueRoom(g, value.style, closed: closed, marker: marker)
        text.draw(value, color: valueColor(gauge, fraction), baseline: valueBaseline, from: c.x - room / 2,
                  to: c.x + room / 2, align: .center, element: e + ".value", into: buffer)
        if let ageText, ageInside {
            let vm = text.measure(value.text, value.style), am = text.measure(ageText, g.endStyle)
            text.draw(ageText, g.endStyle, color: TextLayout.secondary,
                      baseline: valueBaseline + vm.descent + am.ascent + g.d * 0.01, from: c.x - room / 2,
                      to: c.x + room / 2, align: .center, element: e + ".age", number: true, into: buffer)
        }
        // Range ends in the opening, under each end of the path; both left out when either does
        // not fit its room at the smallest size.
        if !closed {
            let room = g.radius * 0.7071
            let ends = text.fitTogether(
                [gauge.number(gauge.minimum, locale: locale, unit: false),
                 gauge.number(gauge.maximum, locale: locale, unit: false)], g.endStyle,
                minimum: scale.floor, widths: [room, room])
            if ends.allSatisfy(\.fits) {
                for (f, x, name) in [(ends[0], c.x - room, e + ".minimum"), (ends[1], c.x + room, e + ".maximum")] {
                    text.draw(f, color: TextLayout.secondary, baseline: c.y + g.endBaseline, from: x - room / 2,
                              to: x + room / 2, align: .center, element: name, into: buffer)
                }
            }
        }
        // The captions, each line centred.
        func draw(_ lines: [Caption], top: Float) {
            for (i, line) in lines.enumerated() {
                let baseline = top + Float(i) * tm.height + tm.ascent
                let gap = titleStyle.size * 0.4
                // A title shares its line with what follows it: it is cut to leave that room.
                let others = line.dropFirst().reduce(Float(0)) { $0 + gap + text.measure($1.text, titleStyle).width }
                var runs: [(String, String?, String, Bool, TextStyle, Float)] = []
                for (j, run) in line.enumerated() {
                    var style = titleStyle
                    var shown = run.text
                    if !run.number && j == 0 {
                        // A title alone on its line is first made smaller (down to 70 %), then cut.
                        let room = max(0, rect.width - others)
                        if line.count == 1 { style = text.fitting(run.text, titleStyle, width: room) }
                        shown = text.truncated(run.text, style, width: room)
                    }
                    runs.append((shown, run.text, run.element, run.number, style, text.measure(shown, style).width))
                }
                let total = runs.reduce(Float(0)) { $0 + $1.5 } + gap * Float(runs.count - 1)
                var x = rect.center.x - total / 2
                for (shown, full, element, number, style, width) in runs where !shown.isEmpty {
                    text.draw(shown, style, color: TextLayout.secondary, baseline: baseline, from: x, to: x + width,
                              align: .leading, element: element, full: full, number: number, into: buffer)
                    x += width + gap
                }
            }
        }
        let aboveH = above.isEmpty ? 0 : Float(above.count) * tm.height + titleGap
        draw(above, top: top - aboveH)
        draw(below, top: c.y + g.below + titleGap)
    }

    /// The value's colour: the path's colour at the value when out of range, dimmed when stale.
    func valueColor(_ gauge: Gauge, _ fraction: Double?) -> Color {
        if gauge.isStale { return TextLayout.secondary }
        return gauge.isOutOfRange ? gauge.paint.color(atFraction: fraction ?? 0) : TextLayout.primary
    }

    /// The marker's colour: the path's at the value, dimmed when stale.
    func markerColor(_ gauge: Gauge, _ fraction: Double) -> Color {
        let c = gauge.paint.color(atFraction: fraction)
        guard gauge.isStale else { return c }
        return Color(red: UInt8(Float(c.red) * 0.4), green: UInt8(Float(c.green) * 0.4), blue: UInt8(Float(c.blue) * 0.4))
    }

    // MARK: Linear

    /// Rows, top to bottom: title; the value (above the bar for `linear`); the bar (with the value
    /// leading it for accessories, and the range ends beside it for `linearCapacity` when they
    /// fit there); the range ends under the bar; the value (below for `linearCapacity`).
    func linear(_ gauge: Gauge, in rect: Rect, large: Bool, element e: String, into buffer: PixelBuffer) {
        let accessory = gauge.style.isAccessory
        let capacity = gauge.style.isCapacity
        let side = min(rect.width, max(rect.height, rect.width * 0.4))
        let ts = scale.style(px: side * (accessory ? 0.075 : 0.06), .semibold)
        let vs = scale.style(px: side * (accessory ? 0.1 : 0.12), .semibold)
        let ls = scale.style(px: side * (accessory ? 0.06 : 0.05), .medium)
        let barH = max(3, side * (accessory ? 0.035 : 0.05))
        let tm = text.measure("M", ts), lm = text.measure("0", ls)
        let gap = side * 0.025
        let ageText = gauge.isStale ? gauge.age.map { context.strings.age(seconds: $0) } : nil
        // A value leading the bar takes at most half the row; elsewhere the whole width. A stale
        // value's age follows it, unless that leaves no room for the value (it is still dimmed).
        let valueRoom = accessory ? rect.width * 0.5 : rect.width
        var value = text.fit(gauge.number(gauge.value, locale: locale, suffix: ageText ?? ""), vs,
                             minimum: vs.size * 0.7, width: valueRoom, unit: gauge.unitRun(vs, floor: scale.floor))
        if !value.fits && ageText != nil {
            value = text.fit(gauge.number(gauge.value, locale: locale), vs, minimum: vs.size * 0.7, width: valueRoom,
                             unit: gauge.unitRun(vs, floor: scale.floor))
        }
        let vm = text.measure(value.text, value.style)
        let minLine = gauge.number(gauge.minimum, locale: locale, unit: false)
        let maxLine = gauge.number(gauge.maximum, locale: locale, unit: false)
        var endsBeside = capacity && !accessory
        var ends: (FittedNumber, FittedNumber)?
        // Beside the bar (a quarter of the row each), else under it (half each), else not at all.
        for beside in endsBeside ? [true, false] : [false] {
            // Under the bar: half of the bar each (a value leading it takes its part of the row).
            let bar = accessory ? rect.width - value.width - 2 * gap : rect.width
            let room = beside ? rect.width * 0.25 : bar / 2 - gap
            let f = text.fitTogether([minLine, maxLine], ls, minimum: scale.floor, widths: [room, room])
            if f.allSatisfy(\.fits) {
                ends = (f[0], f[1])
                endsBeside = beside
                break
            }
            endsBeside = false
        }
        let valueAbove = !capacity && !accessory
        let valueBelow = capacity && !accessory
        // A marker stands out of its bar: the row keeps room for it.
        let markerRow = capacity ? barH : 2 * barH * 1.15 + 2
        let barRowH = accessory ? max(markerRow, vm.height) : (endsBeside ? max(barH, lm.height) : markerRow)
        var blockH = barRowH
        if !gauge.title.isEmpty { blockH += tm.height + gap }
        if valueAbove || valueBelow { blockH += vm.height + gap }
        if !endsBeside && ends != nil { blockH += lm.height + gap }
        var y = rect.y + (rect.height - blockH) / 2
        let valueColor = valueColor(gauge, gauge.fraction)
        if !gauge.title.isEmpty {
            let fitted = text.fitted(gauge.title, ts, minimum: ts.size * 0.7, width: rect.width)
            text.draw(fitted.text, fitted.style, color: TextLayout.secondary, baseline: y + tm.ascent, from: rect.x,
                      to: rect.maxX, align: .leading, element: e + ".title", full: gauge.title, into: buffer)
            y += tm.height + gap
        }
        if valueAbove {
            text.draw(value, color: valueColor, baseline: y + vm.ascent, from: rect.x, to: rect.maxX, align: .leading,
                      element: e + ".value", into: buffer)
            y += vm.height + gap
        }
        // The bar row.
        var x0 = rect.x, x1 = rect.maxX
        if accessory {
            let box = text.draw(value, color: valueColor, baseline: y + (barRowH + vm.ascent - vm.descent) / 2,
                                from: x0, to: x1, align: .leading, element: e + ".value", into: buffer)
            x0 = box.maxX + 2 * gap
        }
        if endsBeside, let (low, high) = ends {
            let baseline = y + (barRowH + lm.ascent - lm.descent) / 2
            let left = text.draw(low, color: TextLayout.secondary, baseline: baseline, from: x0, to: x1, align: .leading,
                                 element: e + ".minimum", into: buffer)
            let right = text.draw(high, color: TextLayout.secondary, baseline: baseline, from: x0, to: x1,
                                  align: .trailing, element: e + ".maximum", into: buffer)
            x0 = left.maxX + 2 * gap
            x1 = right.x - 2 * gap
        }
        let bar = Rect(x: x0, y: y + (barRowH - barH) / 2, width: max(barH, x1 - x0), height: barH)
        context.probe?.shape("bar", bar)
        let fraction = gauge.fraction
        if capacity {
            buffer.fillRoundedRect(bar, radius: barH / 2, color: Self.track)
            if let fraction, fraction > 0 {
                let fill = Rect(x: bar.x, y: bar.y, width: max(barH, bar.width * Float(fraction)), height: barH)
                buffer.fillRoundedRect(fill, radius: barH / 2, gradient: gauge.paint, from: bar.x, to: bar.maxX)
            }
        } else {
            buffer.fillRoundedRect(bar, radius: barH / 2, gradient: gauge.paint, from: bar.x, to: bar.maxX)
            if let fraction {
                let marker = barH * 0.9
                let p = Point(x: bar.x + barH / 2 + (bar.width - barH) * Float(fraction), y: bar.y + barH / 2)
                let r = marker + barH * 0.25
                context.probe?.shape("marker", Rect(x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r))
                buffer.fillDisc(center: p, radius: marker + barH * 0.25, color: .black)
                buffer.fillDisc(center: p, radius: marker, color: markerColor(gauge, fraction))
            }
        }
        y += barRowH + gap
        if !endsBeside, let (low, high) = ends {
            text.draw(low, color: TextLayout.secondary, baseline: y + lm.ascent, from: bar.x, to: bar.maxX,
                      align: .leading, element: e + ".minimum", into: buffer)
            text.draw(high, color: TextLayout.secondary, baseline: y + lm.ascent, from: bar.x, to: bar.maxX,
                      align: .trailing, element: e + ".maximum", into: buffer)
            y += lm.height + gap
        }
        if valueBelow {
            text.draw(value, color: valueColor, baseline: y + vm.ascent, from: rect.x, to: rect.maxX, align: .center,
                      element: e + ".value", into: buffer)
        }
    }
}
