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

    /// Cool to warm, and none of the ring colours.
    public static let defaultTint = [Color(hex: 0x64D2FF), Color(hex: 0xFFD60A), Color(hex: 0xFF9F0A)]

    public init(
        style: GaugeStyle, value: Double?, minimum: Double = 0, maximum: Double = 100, title: String = "",
        unit: String = "", tint: [Color] = Gauge.defaultTint, age: Double? = nil
    ) {
        self.age = age
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

    /// The value with its unit, concise: "30°", "72 %", "1.5 kW", or — without a value.
    public func label(_ v: Double?) -> String {
        guard let v, v.isFinite else { return "—" }
        // Whole numbers as they are; otherwise one decimal (two below 10), never rounding a
        // fraction away.
        let decimals = v == v.rounded() ? 0 : (abs(v) >= 10 ? 1 : 2)
        let number = NumberText.fixed(v, decimals: decimals, trimmingZeros: true)
        if unit.isEmpty { return number }
        let attached = unit.count == 1 && "°%′″".contains(unit)
        return attached ? number + unit : number + " " + unit
    }
}

/// The gauge screen: one large gauge, or a grid of accessory gauges.
public struct GaugeScreen: Screen {
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
        if context.shape == .round {
            // The square inscribed in the circle, so corners stay visible.
            let side = min(area.width, area.height) * 0.7071
            area = Rect(x: area.center.x - side / 2, y: area.center.y - side / 2, width: side, height: side)
        }
        if gauges.count == 1 {
            painter.draw(gauges[0], in: area.insetBy(min(area.width, area.height) * 0.05), large: true, into: buffer)
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
            if score < best.score { best = (columns, rows, score) }
        }
        // Cells at most square: on a tall panel the grid is one block in the middle, not rows
        // spread over the whole height with each gauge alone in a tall cell.
        let cw = area.width / Float(best.columns)
        let ch = min(area.height / Float(best.rows), cw)
        let top = area.y + (area.height - ch * Float(best.rows)) / 2
        for (i, gauge) in gauges.enumerated() {
            let cell = Rect(x: area.x + Float(i % best.columns) * cw, y: top + Float(i / best.columns) * ch,
                            width: cw, height: ch)
            painter.draw(gauge, in: cell.insetBy(min(cw, ch) * 0.06), large: false, into: buffer)
        }
    }
}

/// Draws one gauge in a rect.
struct GaugePainter {
    let context: ScreenContext
    let text: TextLayout
    let u: Float

    static let track = Color(hex: 0x3A3A3C)
    /// The open ring's opening: 90° at the bottom; the path runs clockwise from lower left.
    static let openStart = 0.625
    static let openSweep = 0.75

    init(context: ScreenContext, size: Size) {
        self.context = context
        text = TextLayout(context)
        u = Float(min(size.width, size.height)) / 480
    }

    func style(_ size: Float, _ weight: FontWeight, minimum: Float = 10) -> TextStyle {
        TextStyle(size: max(minimum, size), weight: weight)
    }

    func draw(_ gauge: Gauge, in rect: Rect, large: Bool, into buffer: PixelBuffer) {
        if gauge.style.isCircular {
            circular(gauge, in: rect, large: large, into: buffer)
        } else {
            linear(gauge, in: rect, large: large, into: buffer)
        }
    }

    // MARK: Circular

    func circular(_ gauge: Gauge, in rect: Rect, large: Bool, into buffer: PixelBuffer) {
        let closed = gauge.style == .accessoryCircularCapacity
        let accessory = gauge.style.isAccessory
        let side = min(rect.width, rect.height)
        // Title above (standard and accessory have none; capacity puts it below).
        var area = rect
        let titleStyle = style(side * (large ? 0.075 : 0.1), .semibold)
        let showTitle = !gauge.title.isEmpty && !accessory
        let titleBelow = gauge.style == .circularCapacity
        let titleH = showTitle ? text.measure(gauge.title, titleStyle).height + side * 0.03 : 0
        if showTitle && !titleBelow {
            area = Rect(x: rect.x, y: rect.y + titleH, width: rect.width, height: rect.height - titleH)
        } else if showTitle {
            area = Rect(x: rect.x, y: rect.y, width: rect.width, height: rect.height - titleH)
        }
        let d = min(area.width, area.height)
        let lineWidth = d * (accessory ? 0.1 : 0.085)
        let radius = d / 2 - lineWidth / 2 - d * 0.04
        let c = Point(x: area.center.x, y: area.center.y)
        let start = closed ? 0 : Self.openStart
        let sweep = closed ? 1 : Self.openSweep
        let fraction = gauge.fraction
        if gauge.style.isCapacity {
            // The track fills from the start up to the value, in the colour along the path.
            let paint = gauge.paint
            let valuePaint = ArcPaint(stops: paint.stops, from: 0, to: sweep)
            let arc = ArcStroke(center: c, radius: radius, width: lineWidth, start: start,
                                sweep: fraction.map { $0 * sweep }, paint: valuePaint, track: Self.track,
                                trackSweep: sweep)
            context.probe?.arc(arc, sweep: sweep)
            buffer.stroke(arc)
        } else {
            // The whole path in its colours, and a marker at the value.
            let arc = ArcStroke(center: c, radius: radius, width: lineWidth, start: start, sweep: sweep,
                                paint: ArcPaint(stops: gauge.paint.stops, from: 0, to: sweep))
            context.probe?.arc(arc, sweep: sweep)
            buffer.stroke(arc)
            if let fraction {
                let at = Trigonometry.direction(turns: start + fraction * sweep)
                let p = Point(x: c.x + radius * Float(at.dx), y: c.y + radius * Float(at.dy))
                let r = lineWidth * 0.78
                context.probe?.shape("marker", Rect(x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r))
                buffer.fillDisc(center: p, radius: lineWidth * 0.78, color: .black)
                buffer.fillDisc(center: p, radius: lineWidth * 0.55, color: markerColor(gauge, fraction))
            }
        }
        // Value in the centre.
        let valueText = gauge.label(gauge.value)
        let inner = 2 * (radius - lineWidth / 2) * 0.82
        let vs = text.fitting(valueText, style(d * (accessory ? 0.27 : 0.22), .semibold, minimum: 11), width: inner)
        let vm = text.measure(valueText, vs)
        let valueColor = valueColor(gauge, fraction)
        let valueBaseline = c.y + (vm.ascent - vm.descent) / 2 - (closed ? 0 : d * 0.02)
        text.draw(text.truncated(valueText, vs, width: inner), vs, color: valueColor,
                  baseline: valueBaseline, from: c.x - inner / 2,
                  to: c.x + inner / 2, align: .center, into: buffer)
        // Range ends in the opening, under each end of the path.
        let ls = style(d * (accessory ? 0.1 : 0.07), .medium, minimum: 9)
        let lm = text.measure("0", ls)
        if gauge.isStale, let age = gauge.age {
            // How old the value is, under it.
            let ageText = context.strings.age(seconds: age)
            text.draw(text.truncated(ageText, ls, width: inner), ls, color: TextLayout.secondary,
                      baseline: valueBaseline + vm.descent + lm.ascent + d * 0.01, from: c.x - inner / 2,
                      to: c.x + inner / 2, align: .center, into: buffer)
        }
        // Below the path's ends and below a marker pinned there.
        let endY = c.y + radius * 0.7071 + lineWidth * (gauge.style.isCapacity ? 0.6 : 0.8) + lm.ascent
        if !closed && gauge.style != .accessoryCircularCapacity {
            let minText = gauge.label(gauge.minimum), maxText = gauge.label(gauge.maximum)
            let leftX = c.x - radius * 0.7071, rightX = c.x + radius * 0.7071
            let room = radius * 0.7071
            text.draw(text.truncated(minText, ls, width: room), ls, color: TextLayout.secondary, baseline: endY,
                      from: leftX - room / 2, to: leftX + room / 2, align: .center, into: buffer)
            text.draw(text.truncated(maxText, ls, width: room), ls, color: TextLayout.secondary, baseline: endY,
                      from: rightX - room / 2, to: rightX + room / 2, align: .center, into: buffer)
        }
        if showTitle {
            let ts = text.fitting(gauge.title, titleStyle, width: rect.width)
            let tm = text.measure(gauge.title, ts)
            let baseline = titleBelow ? max(endY + lm.descent, c.y + d / 2) + side * 0.03 + tm.ascent : rect.y + tm.ascent
            text.draw(text.truncated(gauge.title, ts, width: rect.width), ts, color: TextLayout.secondary,
                      baseline: baseline, from: rect.x, to: rect.maxX, align: .center, into: buffer)
        }
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
    /// leading it for accessories, and the range ends beside it for `linearCapacity`); the range
    /// ends under the bar; the value (below for `linearCapacity`).
    func linear(_ gauge: Gauge, in rect: Rect, large: Bool, into buffer: PixelBuffer) {
        let accessory = gauge.style.isAccessory
        let capacity = gauge.style.isCapacity
        let side = min(rect.width, max(rect.height, rect.width * 0.4))
        let ts = style(side * (accessory ? 0.075 : 0.06), .semibold)
        let vs = style(side * (accessory ? 0.1 : 0.12), .semibold, minimum: 11)
        let ls = style(side * (accessory ? 0.06 : 0.05), .medium, minimum: 9)
        let barH = max(3, side * (accessory ? 0.035 : 0.05))
        let tm = text.measure("M", ts), vm = text.measure("0", vs), lm = text.measure("0", ls)
        let gap = side * 0.025
        var valueText = gauge.label(gauge.value)
        if gauge.isStale, let age = gauge.age { valueText += " " + context.strings.age(seconds: age) }
        let minText = gauge.label(gauge.minimum), maxText = gauge.label(gauge.maximum)
        let endsBeside = capacity && !accessory
        let valueAbove = !capacity && !accessory
        let valueBelow = capacity && !accessory
        let barRowH = accessory ? max(barH, vm.height) : (endsBeside ? max(barH, lm.height) : barH)
        var blockH = barRowH
        if !gauge.title.isEmpty { blockH += tm.height + gap }
        if valueAbove || valueBelow { blockH += vm.height + gap }
        if !endsBeside { blockH += lm.height + gap }
        var y = rect.y + (rect.height - blockH) / 2
        let valueColor = valueColor(gauge, gauge.fraction)
        if !gauge.title.isEmpty {
            let fitted = text.fitting(gauge.title, ts, width: rect.width)
            text.draw(text.truncated(gauge.title, fitted, width: rect.width), fitted, color: TextLayout.secondary,
                      baseline: y + tm.ascent, from: rect.x, to: rect.maxX, align: .leading, into: buffer)
            y += tm.height + gap
        }
        if valueAbove {
            text.draw(valueText, vs, color: valueColor, baseline: y + vm.ascent, from: rect.x, to: rect.maxX,
                      align: .leading, into: buffer)
            y += vm.height + gap
        }
        // The bar row.
        var x0 = rect.x, x1 = rect.maxX
        if accessory {
            text.draw(valueText, vs, color: valueColor, baseline: y + (barRowH + vm.ascent - vm.descent) / 2,
                      from: x0, to: x1, align: .leading, into: buffer)
            x0 += text.measure(valueText, vs).width + 2 * gap
        }
        if endsBeside {
            let baseline = y + (barRowH + lm.ascent - lm.descent) / 2
            let left = text.draw(minText, ls, color: TextLayout.secondary, baseline: baseline, from: x0, to: x1,
                                 align: .leading, into: buffer)
            let right = text.draw(maxText, ls, color: TextLayout.secondary, baseline: baseline, from: x0, to: x1,
                                  align: .trailing, into: buffer)
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
        if !endsBeside {
            text.draw(minText, ls, color: TextLayout.secondary, baseline: y + lm.ascent, from: bar.x, to: bar.maxX,
                      align: .leading, into: buffer)
            text.draw(maxText, ls, color: TextLayout.secondary, baseline: y + lm.ascent, from: bar.x, to: bar.maxX,
                      align: .trailing, into: buffer)
            y += lm.height + gap
        }
        if valueBelow {
            text.draw(valueText, vs, color: valueColor, baseline: y + vm.ascent, from: rect.x, to: rect.maxX,
                      align: .center, into: buffer)
        }
    }
}
