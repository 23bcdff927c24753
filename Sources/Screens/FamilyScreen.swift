import Activity
import Raster

/// One person on the family screen: who, in which colour, today's rings, and whether their data
/// is stale (their phone has not pushed for longer than the household's threshold), with the
/// line that says when it last did, made by the caller (`Strings.pushedAgo`).
public struct FamilyMember: Sendable, Equatable {
    public var name: String
    /// Their colour: the bar under their name, and the name itself (lightened where it would be
    /// too dark to read on black).
    public var colour: Color
    /// Today's summary; nil: no data today.
    public var summary: ActivitySummary?
    /// Drawn so: the rings dimmed, `lastPush` under the figures.
    public var stale: Bool
    /// "2 h ago" / "2 小时前": shown under a stale person's figures ("" shows nothing).
    public var lastPush: String

    public init(name: String, colour: Color, summary: ActivitySummary?, stale: Bool = false, lastPush: String = "") {
        self.name = name
        self.colour = colour
        self.summary = summary
        self.stale = stale
        self.lastPush = lastPush
    }
}

/// The household's rings: each person's name over a bar in their colour, their rings and their
/// three figures. Two to four people side by side (in a grid of two by two, or one under the
/// other, where the panel is tall) where every cell holds its figures at a figure's size (20′ at
/// the eye, `Legibility`) and rings of a size; else one person a page, as large as the panel
/// allows, with page dots at the right edge (as the ring screen's pages: the buttons, touch and
/// the cycle turn them). Round panels, one person alone and more than four people are always in
/// pages of one.
///
/// A figure is "value/goal" with its unit where that fits, else without the unit, else the value
/// alone (the ring says how far to the goal), in whichever of these keeps the rings largest,
/// the fuller forms first when their rings are nearly as large; a number is never rounded into
/// another. A stale person's rings are dimmed and their last push said under the figures.
public struct FamilyScreen: ContextScreen {
    public let members: [FamilyMember]
    public var context: ScreenContext
    /// The person shown where the screen is in pages (0-based; past the last, the last).
    public let page: Int
    let memo = HouseholdMemo()

    /// The most people side by side.
    public static let mostSideBySide = 4

    public init(members: [FamilyMember], context: ScreenContext, page: Int = 0) {
        self.members = members
        self.context = context
        self.page = page
    }

    public func draw(into buffer: PixelBuffer, at time: Double) {
        buffer.fill(.black)
        layout(buffer.size).draw(into: buffer, context: context)
    }

    /// One page where everyone is side by side; else one a person.
    public func pageCount(for size: Size) -> Int { layout(size).pageCount }

    public func showing(page: Int) -> FamilyScreen {
        page == self.page ? self : FamilyScreen(members: members, context: context, page: page)
    }

    /// Whether everyone is on one page, side by side, on a picture of `size`.
    public func sideBySide(on size: Size) -> Bool { members.count > 1 && layout(size).pageCount == 1 }

    /// The same people drawn alike: nothing. Other data: each line and group of rings drawn
    /// otherwise (nil where the layout moved).
    public func changes(since previous: any Screen, at previousTime: Double, now time: Double, size: Size) -> Damage? {
        guard let before = previous as? FamilyScreen, context.drawsLike(before.context) else { return nil }
        if before.members == members && before.page == page { return Damage() }
        return layout(size).changes(since: before.layout(size))
    }

    func layout(_ size: Size) -> HouseholdLayout {
        memo.layout(size, context) { FamilyLayouter(members: members, context: context, size: size, page: page).layout() }
    }
}

/// How a figure is written: "value/goal" or the value alone, with its unit or without.
struct FigureForm: Equatable {
    var pair: Bool
    var unit: Bool

    /// Fullest first.
    static let all = [
        FigureForm(pair: true, unit: true), FigureForm(pair: true, unit: false), FigureForm(pair: false, unit: true),
        FigureForm(pair: false, unit: false),
    ]

    /// `f` written so.
    func line(_ f: RingFigure) -> NumberLine {
        var n = pair ? f.number : f.value
        n.unit = unit ? f.unit : ""
        return n
    }
}

/// Lays the family screen out (`HouseholdLayout`), measured with the context's fonts.
struct FamilyLayouter {
    let members: [FamilyMember]
    let context: ScreenContext
    let size: Size
    let page: Int
    let scale: TypeScale
    let text: TextLayout
    let strings: Strings
    let w: Float, h: Float, u: Float
    /// Each person's figures (three, or Move alone).
    let figures: [[RingFigure]]

    init(members: [FamilyMember], context: ScreenContext, size: Size, page: Int) {
        self.members = members
        self.context = context
        self.size = size
        self.page = page
        scale = TypeScale(size: size, context: context)
        text = TextLayout(context, scale: scale)
        strings = context.strings
        w = Float(size.width)
        h = Float(size.height)
        u = scale.u
        figures = members.map { RingFigure.figures($0.summary, context.strings) }
    }

    /// How much of the rings' side a fuller form of the figures may give up and still be taken.
    static let fullerFormAllowance: Float = 0.75

    func layout() -> HouseholdLayout {
        var out = HouseholdLayout()
        guard !members.isEmpty else { return out }
        if context.shape != .round, (2...FamilyScreen.mostSideBySide).contains(members.count), let grid = bestGrid() {
            place(grid, into: &out)
        } else {
            paged(&out)
        }
        return out
    }

    // MARK: Shared pieces

    func style(_ design: Float, _ weight: FontWeight, minimum: Float = 0, caps: Bool = false) -> TextStyle {
        scale.style(design, weight, minimum: minimum, caps: caps)
    }

    /// The bar under a name: about half a millimetre on the panel (at least 3 px).
    var barHeight: Float { max(3, (Float(scale.viewing.pixelsPerMillimetre) * 0.5).rounded()) }

    /// A figure's unit as a run after its number: half its size, spaced.
    func unitRun(_ style: TextStyle) -> UnitRun {
        UnitRun(style: scale.style(px: style.size * 0.5, .semibold, caps: true), minimum: scale.floor,
                gap: max(3, style.size * 0.15))
    }

    /// `lines` each fitted to its width in `style` (down to the figure size; only forms that read
    /// as the same number; a unit kept where the line has one), then all at the smallest size any
    /// needed. nil when one does not fit even so.
    func fitFigures(_ lines: [NumberLine], _ style: TextStyle, widths: [Float]) -> [FittedNumber]? {
        var fitted: [FittedNumber] = []
        for (line, width) in zip(lines, widths) {
            let f = text.fit(line, style, minimum: scale.figure, width: width, unit: unitRun(style),
                             keepUnit: !line.unit.isEmpty, faithfulOnly: true)
            guard f.fits, f.faithful else { return nil }
            fitted.append(f)
        }
        guard let smallest = fitted.map(\.style.size).min(), fitted.contains(where: { $0.style.size != smallest }) else {
            return fitted
        }
        var s = style
        s.size = smallest
        var again: [FittedNumber] = []
        for (line, width) in zip(lines, widths) {
            let f = text.fit(line, s, minimum: smallest, width: width, unit: unitRun(s), keepUnit: !line.unit.isEmpty,
                             faithfulOnly: true)
            guard f.fits, f.faithful else { return nil }
            again.append(f)
        }
        return again
    }

    /// The height a line of figures at `style` takes (its unit's run included).
    func figureLineHeight(_ style: TextStyle) -> (ascent: Float, height: Float) {
        let m = text.lineMetrics("0", style)
        let um = text.lineMetrics(strings.energyUnit(.kilocalorie) + strings.minutesUnit, unitRun(style).style)
        let ascent = max(m.ascent, um.ascent)
        return (ascent, ascent + max(m.descent, um.descent))
    }

    /// The room a name needs at the least: all of it, or four ems (then cut).
    func nameRoom(_ name: String, _ style: TextStyle) -> Float {
        min(text.measure(name, style).width, 4 * style.size)
    }

    func nameElement(_ i: Int) -> String { "family.\(i + 1).name" }
    func pushElement(_ i: Int) -> String { "family.\(i + 1).push" }
    func figureElement(_ i: Int, _ f: RingFigure) -> String { "family.\(i + 1)." + f.element(.value).dropFirst("rings.".count) }

    /// A person's name, cut to [x0, x1], on `baseline`, aligned; returns its box.
    @discardableResult
    func placeName(_ i: Int, _ s: TextStyle, baseline: Float, from x0: Float, to x1: Float, align: TextAlignment,
                   into out: inout HouseholdLayout) -> Rect {
        let name = members[i].name
        guard !name.isEmpty else { return Rect(x: (x0 + x1) / 2, y: baseline, width: 0, height: 0) }
        let shown = Household.cutName(name, s, width: x1 - x0, text: text)
        if shown.isEmpty {
            out.omitted.append(Omission(nameElement(i), "no room for even an ellipsis"))
            return Rect(x: x0, y: baseline, width: 0, height: 0)
        }
        let placed = text.place(shown, s, color: Household.readable(members[i].colour), baseline: baseline, from: x0, to: x1,
                                align: align, full: name)
        out.items.append(.text(placed, element: nameElement(i)))
        return placed.box
    }

    /// A stale person's last push, cut to [x0, x1].
    func placePush(_ i: Int, _ s: TextStyle, baseline: Float, from x0: Float, to x1: Float, align: TextAlignment,
                   into out: inout HouseholdLayout) {
        let line = members[i].lastPush
        guard members[i].stale, !line.isEmpty else { return }
        let shown = text.truncated(line, s, width: x1 - x0)
        guard !shown.isEmpty else {
            out.omitted.append(Omission(pushElement(i), "no room for even an ellipsis"))
            return
        }
        out.items.append(.text(text.place(shown, s, color: TextLayout.secondary, baseline: baseline, from: x0, to: x1,
                                          align: align, full: line), element: pushElement(i)))
    }

    func placeFigure(_ i: Int, _ f: RingFigure, _ fitted: FittedNumber, baseline: Float, from x0: Float, to x1: Float,
                     align: TextAlignment, into out: inout HouseholdLayout) {
        let element = figureElement(i, f)
        let (value, unit) = text.place(fitted, color: f.color, baseline: baseline, from: x0, to: x1, align: align)
        out.items.append(.text(value, element: element))
        if let unit { out.items.append(.text(unit, element: element + ".unit")) }
    }

    func rings(_ i: Int, _ rect: Rect, into out: inout HouseholdLayout) {
        out.items.append(.rings(rect, RingSet(members[i].summary), dimmed: members[i].stale))
    }

    var anyStale: Bool { members.contains { $0.stale && !$0.lastPush.isEmpty } }

    // MARK: Side by side

    /// Everyone on one page: `columns` × `rows` cells of one size, the figures in `form` at one
    /// size, the rings' side.
    struct Grid {
        var columns: Int
        var rows: Int
        var cell: (width: Float, height: Float)
        var pad: Float
        var gutter: Float
        var form: FigureForm
        var figures: [[FittedNumber]]
        var ring: Float
    }

    /// The arrangements tried for `n` people: a row of them, two rows, one under the other.
    static func arrangements(_ n: Int) -> [(columns: Int, rows: Int)] {
        var all = [(n, 1)]
        if n >= 3 { all.append(((n + 1) / 2, 2)) }
        all.append((1, n))
        return all
    }

    /// The smallest rings a cell may have beside others: three figures' ems, and a fifth of the
    /// panel's short side (smaller, a person's rings are a detail: one a page instead).
    var smallestCellRings: Float { max(3 * scale.figure, 0.2 * min(w, h)) }

    func cellStyles() -> (name: TextStyle, figure: TextStyle, push: TextStyle) {
        (style(24, .semibold), scale.figureStyle(40, .semibold), style(18, .medium))
    }

    /// The arrangement with the largest rings where every cell holds its figures legibly (the
    /// fuller forms first, `fullerFormAllowance`); nil when none does.
    func bestGrid() -> Grid? {
        let n = members.count
        let pad = max(6, 16 * u), gutter = max(6, 16 * u)
        let (ns, fs, ps) = cellStyles()
        let nameH = text.lineMetrics(members.map(\.name).joined(), ns).height
        let pushH = anyStale ? text.lineMetrics(members.map(\.lastPush).joined(), ps).height + 2 * u : 0
        let lines = figures.map(\.count).max() ?? 3
        var best: [(grid: Grid, formIndex: Int)] = []
        for (formIndex, form) in FigureForm.all.enumerated() {
            for (columns, rows) in Self.arrangements(n) {
                let cw = (w - 2 * pad - Float(columns - 1) * gutter) / Float(columns)
                let ch = (h - 2 * pad - Float(rows - 1) * gutter) / Float(rows)
                guard cw > 0, ch > 0, members.allSatisfy({ nameRoom($0.name, ns) <= cw }) else { continue }
                let all = figures.flatMap { $0.map(form.line) }
                guard let fitted = fitFigures(all, fs, widths: all.map { _ in cw }) else { continue }
                let size = fitted.first.map { f -> TextStyle in
                    var s = fs
                    s.size = f.style.size
                    return s
                } ?? fs
                let lineH = figureLineHeight(size).height
                let fixed = nameH + 2 * u + barHeight + 2 * cellGap + Float(lines) * lineH + pushH
                let ring = min(cw, ch - fixed)
                guard ring >= smallestCellRings else { continue }
                var k = 0
                let perPerson = figures.map { list -> [FittedNumber] in
                    defer { k += list.count }
                    return Array(fitted[k..<(k + list.count)])
                }
                best.append((Grid(columns: columns, rows: rows, cell: (cw, ch), pad: pad, gutter: gutter, form: form,
                                  figures: perPerson, ring: ring), formIndex))
            }
        }
        return Self.choose(best.map { ($0.grid, $0.formIndex, $0.grid.ring) })
    }

    /// Of candidates (each with the index of its figures' form, fullest first, and its rings'
    /// side), the fullest form whose rings are within `fullerFormAllowance` of the largest, its
    /// largest rings.
    static func choose<T>(_ candidates: [(T, Int, Float)]) -> T? {
        guard let largest = candidates.map(\.2).max() else { return nil }
        let taken = candidates.filter { $0.2 >= fullerFormAllowance * largest }
        guard let form = taken.map(\.1).min() else { return nil }
        return taken.filter { $0.1 == form }.max { $0.2 < $1.2 }?.0
    }

    var cellGap: Float { max(4, 12 * u) }

    func place(_ g: Grid, into out: inout HouseholdLayout) {
        let (ns, _, ps) = cellStyles()
        let nm = text.lineMetrics(members.map(\.name).joined(), ns)
        let lines = figures.map(\.count).max() ?? 3
        let fs: TextStyle = g.figures.first?.first?.style ?? cellStyles().figure
        let (figureAscent, lineH) = figureLineHeight(fs)
        let pm = text.lineMetrics(members.map(\.lastPush).joined(), ps)
        let pushH = anyStale ? pm.height + 2 * u : 0
        let block = nm.height + 2 * u + barHeight + 2 * cellGap + g.ring + Float(lines) * lineH + pushH
        // The grid centred on the panel (a last row that is not full, centred too).
        let gridH = Float(g.rows) * g.cell.height + Float(g.rows - 1) * g.gutter
        for i in members.indices {
            let row = i / g.columns, column = i % g.columns
            let inRow = min(g.columns, members.count - row * g.columns)
            let rowW = Float(inRow) * g.cell.width + Float(inRow - 1) * g.gutter
            let x0 = (w - rowW) / 2 + Float(column) * (g.cell.width + g.gutter), x1 = x0 + g.cell.width
            var y = (h - gridH) / 2 + Float(row) * (g.cell.height + g.gutter) + (g.cell.height - block) / 2
            placeName(i, ns, baseline: y + nm.ascent, from: x0, to: x1, align: .center, into: &out)
            y += nm.height + 2 * u
            out.items.append(.bar(Rect(x: x0, y: y, width: g.cell.width, height: barHeight), members[i].colour,
                                  name: "family.\(i + 1).bar"))
            y += barHeight + cellGap
            rings(i, Rect(x: (x0 + x1 - g.ring) / 2, y: y, width: g.ring, height: g.ring), into: &out)
            y += g.ring + cellGap
            // Move alone sits where Move sits with three.
            for (f, fitted) in zip(figures[i], g.figures[i]) {
                placeFigure(i, f, fitted, baseline: y + figureAscent, from: x0, to: x1, align: .center, into: &out)
                y += lineH
            }
            y += Float(lines - figures[i].count) * lineH
            placePush(i, ps, baseline: y + 2 * u + pm.ascent, from: x0, to: x1, align: .center, into: &out)
        }
    }

    // MARK: One a page

    func paged(_ out: inout HouseholdLayout) {
        let count = members.count
        out.pageCount = count
        out.page = min(max(0, page), count - 1)
        let round = context.shape == .round
        let margin = max(4, 8 * u)
        let dots = PageDots(count: count, page: out.page, scale: scale)
        out.dots(dots, w: w, h: h, round: round, margin: margin)
        let frame = RingScreenLayouter.PageFrame(w: w, h: h, round: round, margin: margin, right: dots.room(margin: margin))
        let i = out.page
        var candidates: [(HouseholdLayout, Int, Float)] = []
        for (formIndex, form) in FigureForm.all.enumerated() {
            for row in [false, true] {
                var o = HouseholdLayout()
                if let ring = stacked(i, frame: frame, form: form, row: row, into: &o) { candidates.append((o, formIndex, ring)) }
            }
            if !round {
                var o = HouseholdLayout()
                if let ring = beside(i, frame: frame, form: form, into: &o) { candidates.append((o, formIndex, ring)) }
            }
        }
        if let chosen = Self.choose(candidates) {
            out.items += chosen.items
            out.omitted += chosen.omitted
            return
        }
        // Not even the value alone beside rings of a tenth of the panel: the figures alone.
        var o = HouseholdLayout()
        _ = stacked(i, frame: frame, form: FigureForm(pair: false, unit: false), row: false, rings: false, into: &o)
        out.items += o.items
        out.omitted += o.omitted + [Omission("family.\(i + 1).rings", "the figures leave no room for them at a legible size")]
    }

    func pageStyles() -> (name: TextStyle, figure: TextStyle, push: TextStyle) {
        (style(30, .semibold), scale.figureStyle(46, .semibold), style(20, .medium))
    }

    /// The smallest rings on a page of one: a tenth of the panel's short side.
    var smallestPageRings: Float { 0.1 * min(w, h) }

    /// A page with the name over its bar, the rings, the figures one under the other (or in a
    /// row: `row`) and a stale person's last push, centred on `frame`; on a round panel each line
    /// within the circle where it sits, the whole moved up or down from the middle where that
    /// lets the rings be larger. Returns the rings' side; nil when the figures do not fit legibly
    /// with rings of `smallestPageRings`.
    func stacked(_ i: Int, frame: RingScreenLayouter.PageFrame, form: FigureForm, row: Bool, rings drawn: Bool = true,
                 into out: inout HouseholdLayout) -> Float? {
        let (ns, fs, ps) = pageStyles()
        let list = figures[i]
        let lines = list.map(form.line)
        let nm = text.lineMetrics(members[i].name, ns)
        let nameNeeds = nameRoom(members[i].name, ns)
        let stale = members[i].stale && !members[i].lastPush.isEmpty
        let pm = text.lineMetrics(members[i].lastPush, ps)
        // On a round panel the last push is short: said whole (where it is, the circle is narrow).
        let pushNeeds = stale && frame.round ? pm.width : 0
        let gap = max(3, 10 * u), small = max(2, 4 * u)
        let line = figureLineHeight(fs)
        let figureH = row ? line.height : Float(list.count) * line.height
        let fixed = nm.height + small + barHeight + (drawn ? 2 * gap : gap) + figureH + (stale ? small + pm.height : 0)
        let frameH = frame.bottom - frame.top - (frame.round ? 2 * frame.margin : 0)
        let (fx0, fx1) = frame.span(frame.c.y, frame.c.y)
        let rowGap = max(8, 16 * u)
        // Each line's fit in a width (whole pixels) worked out once: the search tries many.
        var fits: [Int: FittedNumber?] = [:]
        func fit(_ k: Int, _ width: Float) -> FittedNumber? {
            let key = k << 20 | Int(max(0, width))
            if let known = fits[key] { return known }
            let f = fitFigures([lines[k]], fs, widths: [Float(Int(max(0, width)))])?.first
            fits[key] = f
            return f
        }
        /// Where everything goes with rings of `side` and the stack's top at `top`; nil when
        /// something does not fit there.
        func arrange(side: Float, top: Float) -> (top: Float, widths: [Float])? {
            var y = top
            let (nx0, nx1) = frame.span(y, y + nm.height)
            guard nx1 - nx0 >= nameNeeds else { return nil }
            y += nm.height + small + barHeight + gap
            if drawn {
                if frame.round && side / 2 + abs(y + side / 2 - frame.c.y) > frame.r - frame.margin { return nil }
                y += side + gap
            }
            var widths: [Float] = []
            if row {
                let (x0, x1) = frame.span(y, y + line.height)
                var together = Float(list.count - 1) * rowGap
                for k in list.indices {
                    guard let f = fit(k, x1 - x0) else { return nil }
                    together += f.width
                }
                guard together <= x1 - x0 else { return nil }
                widths = list.map { _ in x1 - x0 }
                y += line.height
            } else {
                for k in list.indices {
                    let (x0, x1) = frame.span(y, y + line.height)
                    guard fit(k, x1 - x0) != nil else { return nil }
                    widths.append(x1 - x0)
                    y += line.height
                }
            }
            if stale {
                let (x0, x1) = frame.span(y + small, y + small + pm.height)
                guard x1 - x0 >= pushNeeds else { return nil }
            }
            return (top, widths)
        }
        /// The arrangement with rings of `side`: the stack centred, else (round) moved up or down
        /// in steps while it stays inside the circle.
        func arrangement(_ side: Float) -> (top: Float, widths: [Float])? {
            let total = fixed + side
            let centred = frame.round ? frame.c.y - total / 2 : frame.top + (frameH - total) / 2
            if let a = arrange(side: side, top: centred) { return a }
            guard frame.round else { return nil }
            let step = max(1, 2 * u)
            let highest = frame.top + frame.margin, lowest = frame.bottom - frame.margin - total
            var k: Float = 1
            while centred - k * step >= highest || centred + k * step <= lowest {
                for top in [centred - k * step, centred + k * step] where top >= highest && top <= lowest {
                    if let a = arrange(side: side, top: top) { return a }
                }
                k += 1
            }
            return nil
        }
        // The largest rings that fit (a smaller side never fits less: a bisection).
        var side: Float
        var chosen: (top: Float, widths: [Float])
        if drawn {
            // A rectangle's rings keep a little room at the sides.
            var high = min((fx1 - fx0) * (frame.round ? 1 : 0.92), frameH - fixed), low = smallestPageRings
            guard high >= low, let lowest = arrangement(low) else { return nil }
            if let best = arrangement(high) {
                side = high
                chosen = best
            } else {
                side = low
                chosen = lowest
                while high - low > max(1, u) {
                    let middle = (low + high) / 2
                    if let a = arrangement(middle) {
                        low = middle
                        side = middle
                        chosen = a
                    } else {
                        high = middle
                    }
                }
            }
        } else {
            side = 0
            guard let a = arrangement(0) else { return nil }
            chosen = a
        }
        // The figures at one size.
        guard let fitted = fitFigures(lines, fs, widths: chosen.widths) else { return nil }
        var y = chosen.top
        let (nx0, nx1) = frame.span(y, y + nm.height)
        let nb = placeName(i, ns, baseline: y + nm.ascent, from: nx0, to: nx1, align: .center, into: &out)
        let barW = max(nb.width, min(nx1 - nx0, 3 * ns.size))
        out.items.append(.bar(Rect(x: frame.c.x - barW / 2, y: y + nm.height + small, width: barW, height: barHeight),
                              members[i].colour, name: "family.\(i + 1).bar"))
        y += nm.height + small + barHeight + gap
        if drawn {
            rings(i, Rect(x: frame.c.x - side / 2, y: y, width: side, height: side), into: &out)
            y += side + gap
        }
        let figuresTop = y
        let fl = figureLineHeight(fitted.first?.style ?? fs)
        y += (line.height - fl.height) / 2
        if row {
            let together = fitted.map(\.width).reduce(0, +) + Float(fitted.count - 1) * rowGap
            var x = frame.c.x - together / 2
            for (f, n) in zip(list, fitted) {
                placeFigure(i, f, n, baseline: y + fl.ascent, from: x, to: x + n.width, align: .leading, into: &out)
                x += n.width + rowGap
            }
        } else {
            for (f, n) in zip(list, fitted) {
                let (x0, x1) = frame.span(y, y + fl.height)
                placeFigure(i, f, n, baseline: y + fl.ascent, from: x0, to: x1, align: .center, into: &out)
                y += line.height
            }
        }
        if stale {
            let top = figuresTop + figureH + small
            let (x0, x1) = frame.span(top, top + pm.height)
            placePush(i, ps, baseline: top + pm.ascent, from: x0, to: x1, align: .center, into: &out)
        }
        return side
    }

    /// A landscape page: the name over its bar across the top, the rings at the left under it,
    /// the figures one under the other beside them (and a stale person's last push). Returns the
    /// rings' side; nil when the figures do not fit legibly beside rings of `smallestPageRings`.
    func beside(_ i: Int, frame: RingScreenLayouter.PageFrame, form: FigureForm, into out: inout HouseholdLayout) -> Float? {
        let (ns, fs, ps) = pageStyles()
        let list = figures[i]
        let nm = text.lineMetrics(members[i].name, ns)
        let stale = members[i].stale && !members[i].lastPush.isEmpty
        let pm = text.lineMetrics(members[i].lastPush, ps)
        let gap = max(3, 10 * u), small = max(2, 4 * u), gutter = max(8, 24 * u)
        let (x0, x1) = frame.span(frame.top, frame.bottom)
        let width = x1 - x0
        guard width >= nameRoom(members[i].name, ns) else { return nil }
        let bodyTop = frame.top + nm.height + small + barHeight + gap
        let bodyH = frame.bottom - bodyTop
        let column = width - gutter - smallestPageRings
        guard column > 0, let fitted = fitFigures(list.map(form.line), fs, widths: list.map { _ in column }) else { return nil }
        let common = fitted.first?.style ?? fs
        let line = figureLineHeight(common)
        let pushW = stale ? text.measure(members[i].lastPush, ps).width : 0
        let columnW = min(column, max(fitted.map(\.width).max() ?? 0, pushW))
        let columnH = Float(3) * line.height + (stale ? small + pm.height : 0)
        guard columnH <= bodyH else { return nil }
        let side = min(bodyH, width - gutter - columnW)
        guard side >= smallestPageRings else { return nil }
        // The rings and the column side by side, centred as a group.
        let groupX = x0 + (width - side - gutter - columnW) / 2
        let nb = placeName(i, ns, baseline: frame.top + nm.ascent, from: x0, to: x1, align: .center, into: &out)
        let barW = max(nb.width, min(width, 3 * ns.size))
        out.items.append(.bar(Rect(x: frame.c.x - barW / 2, y: frame.top + nm.height + small, width: barW, height: barHeight),
                              members[i].colour, name: "family.\(i + 1).bar"))
        rings(i, Rect(x: groupX, y: bodyTop + (bodyH - side) / 2, width: side, height: side), into: &out)
        let cx0 = groupX + side + gutter, cx1 = cx0 + columnW
        var y = bodyTop + (bodyH - columnH) / 2
        for (f, n) in zip(list, fitted) {
            placeFigure(i, f, n, baseline: y + line.ascent, from: cx0, to: cx1, align: .leading, into: &out)
            y += line.height
        }
        y += Float(3 - list.count) * line.height
        if stale { placePush(i, ps, baseline: y + small + pm.ascent, from: cx0, to: cx1, align: .leading, into: &out) }
        return side
    }
}
