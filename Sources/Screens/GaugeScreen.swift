import Activity
import Raster

/// What only the gauge screen asks of a gauge: how its numbers and unit are written.
extension Gauge {
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


/// The gauge screen: one large gauge, or a grid of gauges, in pages where the panel cannot hold
/// them all legibly (each cell's title whole, its value a figure of 20′ with its unit, a stale
/// value's age): as many on a page as keep that, the rest on the next pages, with page dots.
public struct GaugeScreen: ContextScreen {
    public var gauges: [Gauge]
    public var context: ScreenContext
    /// The page shown (0-based; past the last, the last).
    public var page: Int
    let memo = GridMemo()
    /// The screen drawn whole once, for `changes` (the next frame compares against it).
    let drawn = PictureMemo()

    public init(gauges: [Gauge], context: ScreenContext, page: Int = 0) {
        self.gauges = gauges
        self.context = context
        self.page = page
    }

    public func pageCount(for size: Size) -> Int { grid(size).pageCount }

    public func showing(page: Int) -> GaugeScreen { GaugeScreen(gauges: gauges, context: context, page: page) }

    /// The most gauges a page is tried with: more than any panel holds legibly, and a bound on
    /// the work for a configuration of thousands.
    static let mostPerPage = 16

    /// How the gauges are laid out on a picture of a size: how many a page, in how many columns
    /// and rows of cells of one size, where.
    struct Grid {
        var perPage: Int
        var pageCount: Int
        var columns: Int
        var rows: Int
        /// The block of cells, and a cell's size.
        var area: Rect
        var cell: (width: Float, height: Float)
        /// The titles' style (every cell's the same, on the cell's first line).
        var titleStyle: TextStyle
        var titleHeight: Float
        var dots: PageDots?
        var margin: Float

        func cellRect(_ i: Int) -> Rect {
            Rect(x: area.x + Float(i % columns) * cell.width, y: area.y + Float(i / columns) * cell.height,
                 width: cell.width, height: cell.height)
        }
    }

    final class GridMemo {
        var entry: (size: Size, grid: Grid)?
    }

    func grid(_ size: Size) -> Grid {
        if let entry = memo.entry, entry.size == size { return entry.grid }
        let g = makeGrid(size)
        memo.entry = (size, g)
        return g
    }

    /// The picture's area for gauges: the square inscribed in a round panel's circle; the room of
    /// page dots kept free at the right.
    func area(_ size: Size, dots: PageDots?, margin: Float) -> Rect {
        var area = Rect(x: 0, y: 0, width: Float(size.width), height: Float(size.height))
        if context.shape == .round {
            let side = min(area.width, area.height) * 0.7071
            area = Rect(x: area.center.x - side / 2, y: area.center.y - side / 2, width: side, height: side)
        }
        if let dots {
            let room = max(0, dots.room(margin: margin) - (Float(size.width) - area.maxX))
            area = Rect(x: area.x + room, y: area.y, width: max(1, area.width - 2 * room), height: area.height)
        }
        return area
    }

    /// `k` gauges a page in cells as square as the panel allows.
    func arrange(_ k: Int, size: Size, pageCount: Int, scale: TypeScale) -> Grid {
        let margin = max(2, Float(min(size.width, size.height)) * 0.02)
        let dots = pageCount > 1 ? PageDots(count: pageCount, page: min(max(0, page), pageCount - 1), scale: scale) : nil
        var area = area(size, dots: dots, margin: margin)
        let round = context.shape == .round
        let diameter = Float(min(size.width, size.height))
        var best = (columns: 1, rows: k, score: Float.infinity)
        for columns in 1...max(1, k) {
            let rows = (k + columns - 1) / columns
            let cell = (area.width / Float(columns), area.height / Float(rows))
            let aspect = cell.0 / cell.1
            let score = max(aspect, 1 / aspect) + Float(columns * rows - k) * 0.3
            // Between two as square, the taller cells (a gauge carries its title over it).
            let taller = abs(score - best.score) < 1e-4 && aspect < 1
            if score < best.score - 1e-4 || taller { best = (columns, rows, score) }
        }
        // Cells at most a fifth taller than wide: on a tall panel the grid is one block in the
        // middle, not gauges alone in tall cells.
        var cw = area.width / Float(best.columns)
        var ch = min(area.height / Float(best.rows), cw * 1.2)
        if round && best.columns != best.rows && k > 1 {
            // On a round panel, the block of cells inscribed in the circle.
            let ratio: Float = best.rows < best.columns ? 1.2 : 1
            let c = Float(best.columns), r = Float(best.rows)
            cw = diameter / (c * c + ratio * ratio * r * r).squareRoot()
            ch = cw * ratio
        }
        let block = Rect(x: area.center.x - cw * Float(best.columns) / 2, y: area.center.y - ch * Float(best.rows) / 2,
                         width: cw * Float(best.columns), height: ch * Float(best.rows))
        area = block
        let text = TextLayout(context, scale: scale)
        let titleStyle = scale.style(px: min(cw, ch) * 0.1, .semibold)
        let titleHeight = text.measure("M", titleStyle).height
        return Grid(perPage: k, pageCount: pageCount, columns: best.columns, rows: best.rows, area: area,
                    cell: (cw, ch), titleStyle: titleStyle, titleHeight: titleHeight, dots: dots, margin: margin)
    }

    func makeGrid(_ size: Size) -> Grid {
        let n = max(1, gauges.count)
        let scale = TypeScale(size: size, context: context)
        let painter = GaugePainter(context: context, size: size)
        let text = painter.text
        if n == 1 { return arrange(1, size: size, pageCount: 1, scale: scale) }
        // The most a page that keeps every gauge legible in its cell.
        for k in stride(from: min(n, Self.mostPerPage), to: 1, by: -1) {
            let pages = (n + k - 1) / k
            let grid = arrange(k, size: size, pageCount: pages, scale: scale)
            let holds = gauges.allSatisfy { gauge in
                let cell = grid.cellRect(0).insetBy(min(grid.cell.width, grid.cell.height) * 0.06)
                if !gauge.title.isEmpty && text.measure(gauge.title, grid.titleStyle).width > cell.width { return false }
                var untitled = gauge
                untitled.title = ""
                return painter.legible(untitled, in: Self.body(of: cell, grid))
            }
            if holds { return grid }
        }
        // One a page: each as large as the panel allows.
        return arrange(1, size: size, pageCount: n, scale: scale)
    }

    /// A cell's room under its title line.
    static func body(of cell: Rect, _ grid: Grid) -> Rect {
        let top = grid.titleHeight * 1.15
        return Rect(x: cell.x, y: cell.y + top, width: cell.width, height: max(1, cell.height - top))
    }

    public func draw(into buffer: PixelBuffer, at time: Double) {
        buffer.fill(.black)
        guard !gauges.isEmpty else { return }
        let g = grid(buffer.size)
        let painter = GaugePainter(context: context, size: buffer.size)
        let shown = min(max(0, page), g.pageCount - 1)
        context.probe?.pages(shown, of: g.pageCount)
        if let dots = g.dots {
            for disc in dots.discs(w: Float(buffer.width), h: Float(buffer.height), round: context.shape == .round,
                                   margin: g.margin) {
                context.probe?.shape("page dot", Rect(x: disc.center.x - disc.radius, y: disc.center.y - disc.radius,
                                                      width: 2 * disc.radius, height: 2 * disc.radius))
                buffer.fillDisc(center: disc.center, radius: disc.radius, color: disc.color)
            }
        }
        let first = shown * g.perPage
        let onPage = gauges[first..<min(gauges.count, first + g.perPage)]
        if g.perPage == 1 {
            let gauge = onPage[onPage.startIndex]
            let e = "gauge.\(first + 1)"
            if context.shape == .round {
                // Round: a dial round the panel's circle (clear of the page dots), else the block
                // in the widest band of the circle it needs.
                let w = Float(buffer.width), h = Float(buffer.height)
                let c = Point(x: w / 2, y: h / 2)
                let r = min(w, h) / 2 - g.margin - (g.dots?.room(margin: g.margin) ?? 0)
                if gauge.style.isCircular && painter.roundFace(gauge, centre: c, diameter: 2 * r, element: e, into: buffer) {
                    return
                }
                if !gauge.style.isCircular {
                    let band = Rect(x: c.x - 0.8 * r, y: c.y - 0.6 * r, width: 1.6 * r, height: 1.2 * r)
                    painter.draw(gauge, in: band, large: true, element: e, into: buffer)
                    return
                }
            }
            painter.draw(gauge, in: g.area.insetBy(min(g.area.width, g.area.height) * 0.05), large: true, element: e,
                         into: buffer)
            return
        }
        // Every title on its cell's first line, so a row's titles share one baseline.
        for (i, gauge) in onPage.enumerated() {
            let cell = g.cellRect(i).insetBy(min(g.cell.width, g.cell.height) * 0.06)
            let e = "gauge.\(first + i + 1)"
            if !gauge.title.isEmpty {
                let m = painter.text.measure(gauge.title, g.titleStyle)
                let shownTitle = painter.text.truncated(gauge.title, g.titleStyle, width: cell.width)
                painter.text.draw(shownTitle, g.titleStyle, color: TextLayout.secondary, baseline: cell.y + m.ascent,
                                  from: cell.x, to: cell.maxX, align: .center, element: e + ".title",
                                  full: gauge.title, into: buffer)
            }
            var untitled = gauge
            untitled.title = ""
            painter.draw(untitled, in: Self.body(of: cell, g), large: false, element: e, into: buffer)
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

    /// Whether `gauge` in a grid cell's `rect` (under its title) is legible: its value whole or in
    /// a form that reads as it, a figure of 20′, with its unit, and a stale value's age.
    func legible(_ gauge: Gauge, in rect: Rect) -> Bool {
        gauge.style.isCircular
            ? circular(gauge, in: rect, large: false, element: "", into: nil)
            : linear(gauge, in: rect, large: false, element: "", into: nil)
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

    /// A gauge alone on the screen (`large`) has a thinner path, so the hole holds its value as
    /// a figure of 20′ on a small panel.
    func dial(_ gauge: Gauge, d: Float, large: Bool = false) -> Dial {
        let closed = gauge.style == .accessoryCircularCapacity
        let accessory = gauge.style.isAccessory
        let lineWidth = d * (large ? 0.065 : accessory ? 0.1 : 0.085)
        let radius = d / 2 - lineWidth / 2 - d * (large ? 0.02 : 0.04)
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
    func valueRoom(_ g: Dial, _ style: TextStyle, closed: Bool, marker: Bool, below: Float = 0) -> Float {
        // A marker's black ring reaches into the hole.
        let hole = g.radius - g.lineWidth * (marker ? 0.78 : 0.5) - 1
        let m = text.measure("0", style)
        // A line under it (`below` high) raises it by half that.
        let reach = m.height / 2 + below / 2 + (closed ? 0 : g.d * 0.02)
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
    @discardableResult
    func circular(_ gauge: Gauge, in rect: Rect, large: Bool, element e: String, into buffer: PixelBuffer?) -> Bool {
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
        func layout(above: Int, below: Int, valueLine: Float = 0) -> (Dial, top: Float) {
            let aboveH = above > 0 ? Float(above) * tm.height + titleGap : 0
            let belowH = (below > 0 ? Float(below) * tm.height + titleGap : 0) + (valueLine > 0 ? valueLine + titleGap : 0)
            var d = min(rect.width, rect.height - aboveH - belowH)
            var g = dial(gauge, d: d, large: large)
            for _ in 0..<3 {
                let total = aboveH + d / 2 + g.below + belowH
                guard total > rect.height + 0.01 else { break }
                d = max(0, d - (total - rect.height))
                g = dial(gauge, d: d, large: large)
            }
            let total = aboveH + d / 2 + g.below + belowH
            return (g, rect.y + (rect.height - total) / 2 + aboveH)
        }
        /// The value fitted inside the ring, its baseline; whether the age fits under it there; the
        /// unit's style where it goes on a line of its own under the value (where the value and
        /// its unit do not fit one line at the figure size, the whole number is kept and the unit
        /// put under it, before any shorter form).
        func inside(_ g: Dial, centre c: Point) -> (FittedNumber, Float, Bool, TextStyle?) {
            let vs = scale.style(px: g.d * (accessory ? 0.27 : 0.22), .semibold, minimum: scale.figure)
            // The chord of the hole at the value's line: a smaller value has more room.
            func room(_ size: Float) -> Float {
                var style = vs
                style.size = size
                return valueRoom(g, style, closed: closed, marker: marker)
            }
            let lift = closed ? 0 : g.d * 0.02
            var value = text.fit(gauge.number(gauge.value, locale: locale), vs, minimum: scale.figure, room: room,
                                 unit: gauge.unitRun(vs, floor: scale.floor), keepUnit: true)
            var unitBelow: TextStyle?
            var vm = text.measure(value.text, value.style)
            var baseline = c.y + (vm.ascent - vm.descent) / 2 - lift
            if !value.faithful || !value.fits, gauge.unitRun(vs, floor: scale.floor) != nil {
                let unitH = text.measure(gauge.unit, scale.style(px: vs.size * 0.5, .semibold)).height
                let bare = text.fit(gauge.number(gauge.value, locale: locale, unit: false), vs, minimum: scale.figure,
                                    room: { size in
                                        var style = vs
                                        style.size = size
                                        return valueRoom(g, style, closed: closed, marker: marker, below: unitH)
                                    }, keepUnit: true, faithfulOnly: value.fits)
                let us = scale.style(px: bare.style.size * 0.5, .semibold)
                let bm = text.measure(bare.text, bare.style), um = text.measure(gauge.unit, us)
                let b = c.y - (bm.ascent + bm.descent + um.height) / 2 + bm.ascent - lift
                let box = Rect(x: c.x - um.width / 2, y: b + bm.descent, width: um.width, height: um.height)
                let valueBox = Rect(x: c.x - bare.width / 2, y: b - bm.ascent, width: bare.width, height: bm.height)
                if bare.fits && (bare.faithful || !value.fits) && clearOfPath(box, g, centre: c, closed: closed, marker: marker)
                    && clearOfPath(valueBox, g, centre: c, closed: closed, marker: marker) {
                    value = bare
                    unitBelow = us
                    vm = bm
                    baseline = b
                }
            }
            guard let ageText else { return (value, baseline, false, unitBelow) }
            let am = text.measure(ageText, g.endStyle)
            let unitH = unitBelow.map { text.measure(gauge.unit, $0).height } ?? 0
            let y0 = baseline + vm.descent + unitH + g.d * 0.01
            let box = Rect(x: c.x - am.width / 2, y: y0, width: am.width, height: am.height)
            return (value, baseline, clearOfPath(box, g, centre: c, closed: closed, marker: marker), unitBelow)
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
        var g = dial(gauge, d: 0, large: large), top: Float = 0, c = Point(x: 0, y: 0)
        var value = FittedNumber(text: "", unit: nil, style: titleStyle, unitStyle: titleStyle, gap: 0, width: 0,
                                 full: "", fits: false, exact: false)
        var valueBaseline: Float = 0, ageInside = false
        var unitBelow: TextStyle?
        let options: [(title: Bool, age: Bool, inside: Bool)] =
            age == nil ? [(true, false, false), (false, false, false)]
            : [(true, false, true), (true, true, false), (true, false, false), (false, false, false)]
        for option in options {
            captions(title: option.title ? title : nil, age: option.age ? age : nil)
            (g, top) = layout(above: above.count, below: below.count)
            c = Point(x: rect.center.x, y: top + g.d / 2)
            let fitsInside: Bool
            (value, valueBaseline, fitsInside, unitBelow) = inside(g, centre: c)
            ageInside = option.inside && fitsInside
            if value.fits && (!option.inside || fitsInside) { break }
        }
        // A value the hole cannot hold whole (0.000123 Sv; 123,456 kWh on a small panel): on a
        // line of its own under the dial, at the figure size at least, with its title and age
        // beside it; the dial smaller.
        var outside: (value: FittedNumber, metrics: TextMetrics, unit: TextStyle?)?
        var outsideAged = false
        if !(value.fits && value.faithful && (title == nil || (above + below).contains { $0.contains { $0.element == e + ".title" } })) {
            let vs = scale.style(px: side * (large ? 0.16 : 0.2), .semibold, minimum: scale.figure)
            // A stale value's age after it on its line where both fit ("12.5 · 3 min").
            var line = text.fit(gauge.number(gauge.value, locale: locale, suffix: ageText ?? ""), vs, minimum: scale.figure,
                                width: rect.width, unit: gauge.unitRun(vs, floor: scale.floor), keepUnit: true,
                                faithfulOnly: true)
            outsideAged = ageText != nil && line.fits
            if !line.fits && ageText != nil {
                line = text.fit(gauge.number(gauge.value, locale: locale), vs, minimum: scale.figure, width: rect.width,
                                unit: gauge.unitRun(vs, floor: scale.floor), keepUnit: true, faithfulOnly: true)
            }
            var unitLine: TextStyle?
            if !line.fits, let run = gauge.unitRun(vs, floor: scale.floor) {
                // Its unit on a line of its own under it.
                line = text.fit(gauge.number(gauge.value, locale: locale, unit: false), vs, minimum: scale.figure,
                                width: rect.width, faithfulOnly: true)
                var us = run.style
                us.size = max(scale.floor, run.style.size * line.style.size / vs.size)
                unitLine = us
            }
            if line.fits {
                let (keptAbove, keptBelow) = (above, below)
                captions(title: title, age: outsideAged ? nil : age)
                let vm = text.measure(line.text, line.style)
                let unitH = unitLine.map { text.measure(gauge.unit, $0).height } ?? 0
                let (og, otop) = layout(above: above.count, below: below.count, valueLine: vm.height + unitH)
                // The dial keeps some size (a third of the rect alone, half in a grid): smaller,
                // the value stays inside.
                if og.d >= side / (large ? 3 : 2) {
                    (g, top) = (og, otop)
                    c = Point(x: rect.center.x, y: top + g.d / 2)
                    outside = (line, vm, unitLine)
                    value = line
                    unitBelow = nil
                    ageInside = false
                } else {
                    (above, below) = (keptAbove, keptBelow)
                    outsideAged = false
                }
            }
        }
        guard let buffer else {
            let titleShown = gauge.title.isEmpty || (above + below).contains { $0.contains { $0.element == e + ".title" } }
            let ageShown = age == nil || ageInside || outsideAged
                || (above + below).contains { $0.contains { $0.element == e + ".age" } }
            return value.fits && value.faithful && titleShown && ageShown
        }

        drawDial(gauge, g, centre: c, into: buffer)
        let room = valueRoom(g, value.style, closed: closed, marker: marker)
        var valueLineH: Float = 0
        if let outside {
            // Under the dial (and its range ends).
            let top = c.y + g.below + titleGap
            text.draw(outside.value, color: valueColor(gauge, fraction), baseline: top + outside.metrics.ascent,
                      from: rect.x, to: rect.maxX, align: .center, element: e + ".value", into: buffer)
            valueLineH = outside.metrics.height + titleGap
            if let us = outside.unit {
                let um = text.measure(gauge.unit, us)
                text.draw(gauge.unit, us, color: valueColor(gauge, fraction), baseline: top + outside.metrics.height + um.ascent,
                          from: rect.x, to: rect.maxX, align: .center, element: e + ".value.unit", into: buffer)
                valueLineH += um.height
            }
        } else {
            text.draw(value, color: valueColor(gauge, fraction), baseline: valueBaseline, from: c.x - room / 2,
                      to: c.x + room / 2, align: .center, element: e + ".value", into: buffer)
        }
        let vm = text.measure(value.text, value.style)
        var under = valueBaseline + vm.descent
        if let unitBelow {
            let um = text.measure(gauge.unit, unitBelow)
            text.draw(gauge.unit, unitBelow, color: valueColor(gauge, fraction), baseline: under + um.ascent,
                      from: c.x - room / 2, to: c.x + room / 2, align: .center, element: e + ".value.unit", into: buffer)
            under += um.height
        }
        if let ageText, ageInside {
            let am = text.measure(ageText, g.endStyle)
            text.draw(ageText, g.endStyle, color: TextLayout.secondary,
                      baseline: under + am.ascent + g.d * 0.01, from: c.x - room / 2,
                      to: c.x + room / 2, align: .center, element: e + ".age", number: true, into: buffer)
        }
        if !closed { drawEnds(gauge, g, centre: c, element: e, within: (rect.x, rect.maxX), into: buffer) }
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
        draw(below, top: c.y + g.below + titleGap + valueLineH)
        return true
    }

    /// The dial's path: a capacity style's track filled up to the value, the others' whole path
    /// in its colours with a marker at the value.
    func drawDial(_ gauge: Gauge, _ g: Dial, centre c: Point, into buffer: PixelBuffer) {
        let closed = gauge.style == .accessoryCircularCapacity
        let fraction = gauge.fraction
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
    }

    /// The range ends in an open dial's opening, under each end of the path; both left out when
    /// either does not fit its room whole at the smallest size.
    /// `inside`: on a line of the hole instead (its top and its chord's width), each end in its
    /// half of the chord.
    func drawEnds(
        _ gauge: Gauge, _ g: Dial, centre c: Point, element e: String, inside: (top: Float, width: Float)? = nil,
        within bounds: (x0: Float, x1: Float)? = nil, into buffer: PixelBuffer
    ) {
        let gap = max(2, g.d * 0.02)
        if inside == nil, let bounds {
            // Each under its end of the path, as far out as the rect lets it go: the left one in
            // [x0, centre], the right one in [centre, x1].
            let rooms = [c.x - gap - bounds.x0, bounds.x1 - c.x - gap]
            let ends = text.fitTogether(
                [gauge.number(gauge.minimum, locale: locale, unit: false),
                 gauge.number(gauge.maximum, locale: locale, unit: false)], g.endStyle,
                minimum: scale.floor, widths: rooms)
            guard ends.allSatisfy({ $0.fits && $0.faithful }) else { return }
            let under = g.radius * 0.7071
            let left = min(max(bounds.x0, c.x - under - ends[0].width / 2), c.x - gap - ends[0].width)
            let right = max(min(bounds.x1 - ends[1].width, c.x + under - ends[1].width / 2), c.x + gap)
            text.draw(ends[0], color: TextLayout.secondary, baseline: c.y + g.endBaseline, from: left,
                      to: left + ends[0].width, align: .leading, element: e + ".minimum", into: buffer)
            text.draw(ends[1], color: TextLayout.secondary, baseline: c.y + g.endBaseline, from: right,
                      to: right + ends[1].width, align: .leading, element: e + ".maximum", into: buffer)
            return
        }
        let room = inside.map { $0.width / 2 - gap } ?? g.radius * 0.7071
        let ends = text.fitTogether(
            [gauge.number(gauge.minimum, locale: locale, unit: false),
             gauge.number(gauge.maximum, locale: locale, unit: false)], g.endStyle,
            minimum: scale.floor, widths: [room, room])
        guard ends.allSatisfy({ $0.fits && $0.faithful }) else { return }
        if let inside {
            let m = text.measure("0", ends[0].style)
            let baseline = inside.top + m.ascent
            text.draw(ends[0], color: TextLayout.secondary, baseline: baseline, from: c.x - inside.width / 2,
                      to: c.x - inside.width / 2 + room, align: .leading, element: e + ".minimum", into: buffer)
            text.draw(ends[1], color: TextLayout.secondary, baseline: baseline, from: c.x + inside.width / 2 - room,
                      to: c.x + inside.width / 2, align: .trailing, element: e + ".maximum", into: buffer)
            return
        }
        for (f, x, name) in [(ends[0], c.x - room, e + ".minimum"), (ends[1], c.x + room, e + ".maximum")] {
            text.draw(f, color: TextLayout.secondary, baseline: c.y + g.endBaseline, from: x - room / 2,
                      to: x + room / 2, align: .center, element: name, into: buffer)
        }
    }

    /// A circular gauge alone on a round panel, as a watch face: the dial round the panel's
    /// circle, its title, value (with its unit, or the unit under it) and a stale value's age
    /// inside the hole, each line within the hole's chord where it sits; the range ends in the
    /// opening. False, with nothing drawn, where the value does not fit the hole whole at the
    /// figure size (the caller lays it out another way).
    @discardableResult
    func roundFace(_ gauge: Gauge, centre c: Point, diameter d: Float, element e: String, into buffer: PixelBuffer?) -> Bool {
        let closed = gauge.style == .accessoryCircularCapacity
        let marker = !gauge.style.isCapacity
        let g = dial(gauge, d: d, large: true)
        let hole = g.radius - g.lineWidth * (marker ? 0.78 : 0.5) - 1
        // The chord of the hole over [y0, y1], less a margin.
        func chord(_ y0: Float, _ y1: Float) -> Float {
            let dy = max(abs(y0 - c.y), abs(y1 - c.y))
            return max(0, 2 * (max(0, hole * hole - dy * dy)).squareRoot() - 2 * max(2, d * 0.02))
        }
        let ts = scale.style(px: d * 0.075, .semibold)
        let vs = scale.style(px: d * (gauge.style.isAccessory ? 0.27 : 0.22), .semibold, minimum: scale.figure)
        let tm = text.measure("M", ts), vm0 = text.measure("0", vs)
        let ageText = gauge.isStale ? gauge.age.map { context.strings.age(seconds: $0) } : nil
        let am = text.measure("0", g.endStyle)
        let run = gauge.unitRun(vs, floor: scale.floor)
        let um0 = run.map { text.measure("M", $0.style) }
        let gap = max(2, d * 0.015)
        // An open dial's range ends: in its opening, level with the path's ends, between them.
        let endsTop = c.y + g.radius * 0.7071 - am.height / 2
        let endsWidth = 2 * (g.radius * 0.7071 - g.lineWidth * 0.8 - 1)
        /// The lines from the top (title, value, the unit apart, the age) and the value's fit.
        struct Stack {
            var value: FittedNumber
            var unitStyle: TextStyle?
            var tops: [Float]
            var valueHeight: Float
        }
        // The lines centred (raised a little on an open dial, and kept over its range ends); the
        // value fitted to the chord where it sits, the lines placed again for its size.
        func place(unitApart: Bool) -> Stack? {
            var vh = vm0.height
            var result: Stack?
            for _ in 0..<3 {
                let uh = unitApart ? um0.map { $0.height * vh / vm0.height } ?? 0 : 0
                var heights: [Float] = []
                if !gauge.title.isEmpty { heights.append(tm.height) }
                heights.append(vh)
                if unitApart, um0 != nil { heights.append(uh) }
                if ageText != nil { heights.append(am.height) }
                let total = heights.reduce(0, +) + gap * Float(heights.count - 1)
                var y = c.y - total / 2 - (closed ? 0 : d * 0.03)
                if !closed { y = min(y, endsTop - gap - total) }
                var tops: [Float] = []
                for h in heights {
                    tops.append(y)
                    y += h + gap
                }
                let vi = gauge.title.isEmpty ? 0 : 1
                let room = chord(tops[vi], tops[vi] + vh)
                let value = unitApart
                    ? text.fit(gauge.number(gauge.value, locale: locale, unit: false), vs, minimum: scale.figure, width: room,
                               faithfulOnly: true)
                    : text.fit(gauge.number(gauge.value, locale: locale), vs, minimum: scale.figure, width: room, unit: run,
                               keepUnit: true, faithfulOnly: true)
                result = nil
                guard value.fits else {
                    // Smaller room than at its smallest: placed again at the figure size.
                    let smallest = text.measure("0", scale.style(px: scale.figure, .semibold)).height
                    if vh <= smallest + 0.5 { return nil }
                    vh = smallest
                    continue
                }
                var stack = Stack(value: value, unitStyle: nil, tops: tops, valueHeight: vh)
                if unitApart, let run {
                    var style = run.style
                    style.size = max(scale.floor, run.style.size * value.style.size / vs.size)
                    let top = tops[vi + 1]
                    guard text.measure(gauge.unit, style).width <= chord(top, top + uh) else { return nil }
                    stack.unitStyle = style
                }
                if let ageText, text.measure(ageText, g.endStyle).width > chord(tops.last!, tops.last! + am.height) {
                    return nil
                }
                let drawn = text.measure("0", value.style).height
                result = stack
                if drawn >= vh - 0.5 { break }
                vh = drawn
            }
            return result
        }
        guard let stack = place(unitApart: false) ?? (run != nil ? place(unitApart: true) : nil) else { return false }
        // The range ends where they fit beside the path's ends, else not at all.
        guard let buffer else { return true }
        let value = stack.value, tops = stack.tops
        let fraction = gauge.fraction
        drawDial(gauge, g, centre: c, into: buffer)
        var i = 0
        if !gauge.title.isEmpty {
            let room = chord(tops[0], tops[0] + tm.height)
            let fitted = text.fitted(gauge.title, ts, minimum: ts.size * 0.7, width: room)
            let m = text.measure(fitted.text, fitted.style)
            text.draw(fitted.text, fitted.style, color: TextLayout.secondary, baseline: tops[0] + (tm.height + m.ascent - m.descent) / 2,
                      from: c.x - room / 2, to: c.x + room / 2, align: .center, element: e + ".title", full: gauge.title,
                      into: buffer)
            i += 1
        }
        let vm = text.measure(value.text, value.style)
        let vh = stack.valueHeight
        let room = chord(tops[i], tops[i] + vh)
        text.draw(value, color: valueColor(gauge, fraction), baseline: tops[i] + (vh + vm.ascent - vm.descent) / 2,
                  from: c.x - room / 2, to: c.x + room / 2, align: .center, element: e + ".value", into: buffer)
        i += 1
        if let unitStyle = stack.unitStyle {
            let um = text.measure(gauge.unit, unitStyle)
            text.draw(gauge.unit, unitStyle, color: valueColor(gauge, fraction), baseline: tops[i] + um.ascent,
                      from: c.x - hole, to: c.x + hole, align: .center, element: e + ".value.unit", into: buffer)
            i += 1
        }
        if let ageText {
            text.draw(ageText, g.endStyle, color: TextLayout.secondary, baseline: tops[i] + am.ascent, from: c.x - hole,
                      to: c.x + hole, align: .center, element: e + ".age", number: true, into: buffer)
        }
        if !closed {
            drawEnds(gauge, g, centre: c, element: e, inside: (endsTop, endsWidth), into: buffer)
        }
        return true
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
    @discardableResult
    func linear(_ gauge: Gauge, in rect: Rect, large: Bool, element e: String, into buffer: PixelBuffer?) -> Bool {
        let capacity = gauge.style.isCapacity
        let side = min(rect.width, max(rect.height, rect.width * 0.4))
        var accessory = gauge.style.isAccessory
        let ts = scale.style(px: side * (accessory ? 0.075 : 0.06), .semibold)
        let vs = scale.style(px: side * (accessory ? 0.1 : 0.12), .semibold, minimum: scale.figure)
        let ls = scale.style(px: side * (accessory ? 0.06 : 0.05), .medium)
        let barH = max(3, side * (accessory ? 0.035 : 0.05))
        let tm = text.measure("M", ts), lm = text.measure("0", ls)
        let gap = side * 0.025
        let ageText = gauge.isStale ? gauge.age.map { context.strings.age(seconds: $0) } : nil
        // A value leading the bar takes at most half the row (else it goes over the bar, as
        // `linear` has it); elsewhere the whole width. A stale value's age follows it, unless that
        // leaves no room for the value (it is still dimmed).
        func fitValue(room: Float) -> (FittedNumber, aged: Bool) {
            let aged = text.fit(gauge.number(gauge.value, locale: locale, suffix: ageText ?? ""), vs,
                                minimum: scale.figure, width: room, unit: gauge.unitRun(vs, floor: scale.floor),
                                keepUnit: true)
            if aged.fits || ageText == nil { return (aged, ageText != nil) }
            return (text.fit(gauge.number(gauge.value, locale: locale), vs, minimum: scale.figure, width: room,
                             unit: gauge.unitRun(vs, floor: scale.floor), keepUnit: true), false)
        }
        var (value, aged) = fitValue(room: accessory ? rect.width * 0.5 : rect.width)
        if accessory && !(value.fits && (aged || ageText == nil)) {
            accessory = false
            (value, aged) = fitValue(room: rect.width)
        }
        // Where the value with its unit fits only rounded ("123k kWh"), the whole number with
        // its unit on a line of its own under it (not beside the bar).
        var unitLine: TextStyle?
        if !(value.fits && value.faithful), let run = gauge.unitRun(vs, floor: scale.floor) {
            let bare = text.fit(gauge.number(gauge.value, locale: locale, suffix: aged ? ageText ?? "" : "", unit: false),
                                vs, minimum: scale.figure, width: rect.width, faithfulOnly: true)
            if bare.fits {
                value = bare
                accessory = false
                var us = run.style
                us.size = max(scale.floor, run.style.size * bare.style.size / vs.size)
                unitLine = us
            }
        }
        let legible = value.fits && value.faithful && (aged || ageText == nil)
        let vm = text.measure(value.text, value.style)
        let unitH = unitLine.map { text.measure(gauge.unit, $0).height } ?? 0
        guard let buffer else {
            // The block's height at the least: the value and the bar (and a title) in the rect.
            let needed = vm.height + unitH + barH * 2 + (gauge.title.isEmpty ? 0 : tm.height + gap) + gap
            return legible && needed <= rect.height
        }
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
            if f.allSatisfy({ $0.fits && $0.faithful }) {
                ends = (f[0], f[1])
                endsBeside = beside
                break
            }
            endsBeside = false
        }
        let valueAbove = !capacity && !accessory || gauge.style.isAccessory && !accessory
        let valueBelow = capacity && !gauge.style.isAccessory
        // A marker stands out of its bar: the row keeps room for it.
        let markerRow = capacity ? barH : 2 * barH * 1.15 + 2
        let barRowH = accessory ? max(markerRow, vm.height) : (endsBeside ? max(barH, lm.height) : markerRow)
        var blockH = barRowH
        if !gauge.title.isEmpty { blockH += tm.height + gap }
        if valueAbove || valueBelow { blockH += vm.height + unitH + gap }
        if !endsBeside && ends != nil { blockH += lm.height + gap }
        // Alone, in the middle of its rect; in a grid's cell, right under the cell's title (a dial
        // beside it fills its cell: a bar in the middle of its own would float apart from its
        // title).
        var y = large ? rect.y + (rect.height - blockH) / 2 : rect.y + min(rect.height - blockH, gap * 2) / 2
        let valueColor = valueColor(gauge, gauge.fraction)
        if !gauge.title.isEmpty {
            let fitted = text.fitted(gauge.title, ts, minimum: ts.size * 0.7, width: rect.width)
            text.draw(fitted.text, fitted.style, color: TextLayout.secondary, baseline: y + tm.ascent, from: rect.x,
                      to: rect.maxX, align: .leading, element: e + ".title", full: gauge.title, into: buffer)
            y += tm.height + gap
        }
        /// The unit's own line under the value (`unitLine`), aligned as the value is.
        func drawUnitLine(top: Float, align: TextAlignment) {
            guard let unitLine else { return }
            let um = text.measure(gauge.unit, unitLine)
            text.draw(gauge.unit, unitLine, color: valueColor, baseline: top + um.ascent, from: rect.x, to: rect.maxX,
                      align: align, element: e + ".value.unit", into: buffer)
        }
        if valueAbove {
            text.draw(value, color: valueColor, baseline: y + vm.ascent, from: rect.x, to: rect.maxX, align: .leading,
                      element: e + ".value", into: buffer)
            drawUnitLine(top: y + vm.height, align: .leading)
            y += vm.height + unitH + gap
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
            drawUnitLine(top: y + vm.height, align: .center)
        }
        return legible
    }
}
