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
    /// The time in the header (nil: no clock). A tiny panel (240x240, round or square) has room
    /// for one line above its rings: the day, or the time when `clockOnTiny`.
    public var clock: ClockFace?
    public var clockOnTiny: Bool
    /// The page shown where the screen is in pages (`RingScreen.pageCount`): 0 the rings, then
    /// each figure; past the last, the last.
    public var page: Int
    /// A line for a store with nothing in it yet, saying how to get data (nil: it has data).
    public var hint: String?

    public init(
        name: String, day: CalendarDay, today: CalendarDay, summary: ActivitySummary?,
        week: [CalendarDay: ActivitySummary] = [:], clock: ClockFace? = nil, clockOnTiny: Bool = false, page: Int = 0,
        hint: String? = nil
    ) {
        self.name = name
        self.day = day
        self.today = today
        self.summary = summary
        self.week = week
        self.clock = clock
        self.clockOnTiny = clockOnTiny
        self.page = page
        self.hint = hint
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
public struct RingScreen: ContextScreen {
    enum Mode {
        case ringsOnly(ActivitySummary?)
        case full(RingScreenContent)
    }

    let mode: Mode
    public var context: ScreenContext
    /// Its layout once worked out (drawn again, and compared by the next frame's `changes`).
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
        layout(buffer.size).draw(into: buffer, context: context)
    }

    /// How many pages the screen has on a picture of `size`: one where the rings and their
    /// figures fit at the legible sizes together, else the rings and then each figure.
    public func pageCount(for size: Size) -> Int { layout(size).pageCount }

    public var page: Int {
        if case .full(let content) = mode { return content.page }
        return 0
    }

    public func showing(page: Int) -> RingScreen {
        guard case .full(var content) = mode, content.page != page else { return self }
        content.page = page
        return RingScreen(content: content, context: context)
    }
}

/// The layouts of the ring screen.
public enum RingLayoutKind: String, Sendable, CaseIterable {
    case landscape, portrait, square, round, tiny

    /// Whether the ring screen on a picture of `size` is in pages (the rings, then each figure
    /// large): on a round panel (whose rings take four fifths of the diameter, leaving no room for
    /// figures at 20′), and where the short side holds fewer than 12 figures' ems (a 240x240
    /// panel seen from 50 cm: 5.8; 320x240 from 60 cm: 7.6; 800x480 from 80 cm: 14.3). A choice
    /// made by the panel, never by the figures, so a day with longer figures, or the intro's
    /// frames, never switch layouts.
    public static func paged(size: Size, shape: PanelShape, scale: TypeScale) -> Bool {
        shape == .round || Float(min(size.width, size.height)) < 12 * scale.figure
    }

    /// Whether the ring screen on a picture of `size` has the time in its header where a clock is
    /// on: wherever it has a line for it (a paged layout's header holds the day and the time),
    /// but the tiny layout's, whose one line is the day unless asked for the time instead
    /// (`clockOnTiny`).
    public static func showsTime(size: Size, context: ScreenContext, clockOnTiny: Bool) -> Bool {
        clockOnTiny || paged(size: size, shape: context.shape, scale: TypeScale(size: size, context: context))
            || choose(for: size, shape: context.shape) != .tiny
    }

    /// `tiny` for a panel under 300 px that is about square or round (240x240); otherwise round,
    /// landscape (width / height ≥ 1.25: 800x480, 320x240), portrait (≤ 0.8: 720x1280, 240x320)
    /// or square.
    public static func choose(for size: Size, shape: PanelShape) -> RingLayoutKind {
        let short = min(size.width, size.height)
        let aspect = Float(size.width) / Float(size.height)
        if short < 300 && (shape == .round || (aspect < 1.25 && aspect > 0.8)) { return .tiny }
        if shape == .round { return .round }
        if aspect >= 1.25 { return .landscape }
        if aspect <= 0.8 { return .portrait }
        return .square
    }
}

/// One of the three figures under or beside the rings.
struct RingFigure {
    var ring: Ring
    var label: String
    /// "value/goal", in every form it may be written.
    var number: NumberLine
    /// The value and the goal alone.
    var value: NumberLine
    var goal: NumberLine
    var unit: String
    var color: Color

    /// The colour of a ring's text: halfway along its gradient.
    static func color(_ ring: Ring) -> Color {
        let c = RingStyle.colors(ring)
        return Color.mix(c.start, c.end, 0.5)
    }

    /// The parts of a figure.
    enum Part { case label, value, unit }

    /// The element a figure's part is named by: `rings.figure.move.value` (literals: no string
    /// is built for it on a frame).
    func element(_ part: Part) -> String {
        switch (ring, part) {
        case (.move, .label): "rings.figure.move.label"
        case (.move, .value): "rings.figure.move.value"
        case (.move, .unit): "rings.figure.move.unit"
        case (.exercise, .label): "rings.figure.exercise.label"
        case (.exercise, .value): "rings.figure.exercise.value"
        case (.exercise, .unit): "rings.figure.exercise.unit"
        case (.stand, .label): "rings.figure.stand.label"
        case (.stand, .value): "rings.figure.stand.value"
        case (.stand, .unit): "rings.figure.stand.unit"
        }
    }

    /// The figures of a day: all three, or Move alone on a Move-only day.
    static func figures(_ summary: ActivitySummary?, _ strings: Strings) -> [RingFigure] {
        let locale = strings.locale
        func figure(_ ring: Ring, _ value: Double?, _ goal: Double?, unit: String) -> RingFigure {
            let v = NumberLine(value, decimals: 0, locale: locale), g = NumberLine(goal, decimals: 0, locale: locale)
            let number = value == nil && goal == nil
                ? NumberLine(forms: [strings.missing], unit: unit) : NumberLine.pair(v, g, unit: unit)
            return RingFigure(ring: ring, label: strings.ringName(ring), number: number, value: v, goal: g, unit: unit,
                              color: color(ring))
        }
        let s = summary
        let move: RingFigure
        if s?.moveMode == .moveTime {
            move = figure(.move, s?.moveTime, s?.moveTimeGoal, unit: strings.minutesUnit)
        } else if s?.moveMode == .steps {
            // The source's own word: Move from a step counter is steps, not energy.
            move = figure(.move, s?.steps, s?.stepsGoal, unit: strings.stepsUnit)
        } else {
            let unit = s?.activeEnergyBurned?.unit ?? s?.activeEnergyBurnedGoal?.unit ?? .kilocalorie
            // Both sides in the value's unit.
            let goal = s?.activeEnergyBurnedGoal.map { $0.kilocalories / unit.kilocalories }
            move = figure(.move, s?.activeEnergyBurned?.value, goal, unit: strings.energyUnit(unit))
        }
        if case .moveOnly = RingSet(summary) { return [move] }
        return [
            move,
            figure(.exercise, s?.exerciseTime, s?.exerciseTimeGoal, unit: strings.minutesUnit),
            figure(.stand, s?.standHours, s?.standHoursGoal, unit: strings.hoursUnit),
        ]
    }
}

/// Lays the full ring screen out (`RingScreenLayout`): where each layout puts the rings, the
/// text and the week strip, measured with the context's fonts, nothing drawn.
struct RingScreenLayouter {
    let content: RingScreenContent
    let context: ScreenContext
    let size: Size
    let text: TextLayout
    let strings: Strings
    let kind: RingLayoutKind
    let scale: TypeScale
    /// Pixels per 1/480 of the short side.
    let u: Float
    let w: Float, h: Float

    init(content: RingScreenContent, context: ScreenContext, size: Size) {
        self.content = content
        self.context = context
        self.size = size
        scale = TypeScale(size: size, context: context)
        text = TextLayout(context, scale: scale)
        strings = context.strings
        kind = RingLayoutKind.choose(for: size, shape: context.shape)
        w = Float(size.width)
        h = Float(size.height)
        u = scale.u
        figures = RingFigure.figures(content.summary, strings)
    }

    // MARK: Styles

    /// A style scaled to the panel, never under the floor nor `minimum` (`TypeScale`).
    func style(_ size: Float, _ weight: FontWeight, minimum: Float = 0, caps: Bool = false) -> TextStyle {
        scale.style(size, weight, minimum: minimum, caps: caps)
    }

    /// The day on one line, in its full and compact wording.
    var dayLabelLine: NumberLine {
        NumberLine(forms: [strings.dayLabel(content.day, today: content.today),
                           strings.compactDayLabel(content.day, today: content.today)])
    }
    /// The day's figures (worked out once: every layout reads them more than once).
    let figures: [RingFigure]

    /// The layout of the panel's kind.
    func layout() -> RingScreenLayout {
        var out = RingScreenLayout()
        // Every layout's items (about 30 with the week strip), without growing the array.
        out.items.reserveCapacity(40)
        if RingLayoutKind.paged(size: size, shape: context.shape, scale: scale) {
            paged(&out)
            return out
        }
        switch kind {
        case .landscape: landscape(&out)
        case .portrait: portrait(&out)
        case .square: square(&out)
        case .round: round(&out)
        case .tiny: context.shape == .round ? tinyRound(&out) : tiny(&out)
        }
        return out
    }

    func rings(_ rect: Rect, into out: inout RingScreenLayout) {
        out.items.append(.rings(rect, RingSet(content.summary)))
    }

    /// `text` on `baseline` within [x0, x1], aligned (`TextLayout.draw`); returns its box.
    @discardableResult
    func place(
        _ s: String, _ style: TextStyle, color: Color, baseline: Float, from x0: Float, to x1: Float,
        align: TextAlignment, element: String, full: String? = nil, into out: inout RingScreenLayout
    ) -> Rect {
        let placed = text.place(s, style, color: color, baseline: baseline, from: x0, to: x1, align: align, full: full)
        out.items.append(.text(placed, element: element))
        return placed.box
    }

    /// A title or a name cut to [x0, x1] (`TextLayout.drawCut`).
    func placeCut(
        _ s: String, _ style: TextStyle, color: Color, baseline: Float, from x0: Float, to x1: Float,
        align: TextAlignment, element: String, into out: inout RingScreenLayout
    ) {
        let placed = text.placeCut(s, style, color: color, baseline: baseline, from: x0, to: x1, align: align)
        out.items.append(.text(placed, element: element))
    }

    /// A fitted number and its unit's run (`TextLayout.draw(_:color:...)`); returns its box.
    @discardableResult
    func place(
        _ f: FittedNumber, color: Color, baseline: Float, from x0: Float, to x1: Float, align: TextAlignment,
        element: String, unitElement: String? = nil, number: Bool = true, into out: inout RingScreenLayout
    ) -> Rect {
        let (value, unit) = text.place(f, color: color, baseline: baseline, from: x0, to: x1, align: align,
                                       number: number)
        out.items.append(.text(value, element: element))
        if let unit { out.items.append(.text(unit, element: unitElement ?? element + ".unit")) }
        return TextLayout.box(value, unit)
    }

    /// The time as the header writes it, in `style`.
    var clockLine: String? { content.clock.map { strings.clockText($0).line } }

    /// The header's time: semibold white, a little larger than the name beside it.
    func clockStyle(_ nameSize: Float) -> TextStyle { style(nameSize * 1.1, .semibold) }

    /// Name, then the day's title ("Today", "Wednesday"), then its date, from `top` in [x0, x1];
    /// the time, when shown, on the name's line at the other end. Returns the bottom.
    func header(top: Float, x0: Float, x1: Float, nameSize: Float, daySize: Float, align: TextAlignment,
                into out: inout RingScreenLayout) -> Float {
        var y = top
        let small = style(nameSize, .medium)
        let clock = clockLine
        if !content.name.isEmpty || clock != nil {
            let m = text.measure(content.name.isEmpty ? "M" : content.name, small)
            var line = m.height
            if let clock {
                let cs = clockStyle(nameSize)
                let cm = text.measure(clock, cs)
                // On the name's baseline, at the far end.
                let baseline = y + max(m.ascent, cm.ascent)
                let box = place(clock, cs, color: TextLayout.primary, baseline: baseline, from: x0, to: x1,
                                align: align == .leading ? .trailing : .leading, element: "rings.time", into: &out)
                let nameRight = box.x - 12 * u
                line = max(m.ascent, cm.ascent) + max(m.descent, cm.descent)
                if !content.name.isEmpty {
                    placeCut(content.name, small, color: TextLayout.secondary, baseline: baseline, from: x0,
                             to: max(x0, nameRight), align: .leading, element: "rings.name", into: &out)
                }
            } else {
                placeCut(content.name, small, color: TextLayout.secondary, baseline: y + m.ascent, from: x0, to: x1,
                         align: align, element: "rings.name", into: &out)
            }
            y += line + 2 * u
        }
        let title = strings.dayTitle(content.day, today: content.today)
        let d = text.fitting(title, style(daySize, .semibold), width: x1 - x0)
        let m = text.measure(title, d)
        placeCut(title, d, color: TextLayout.primary, baseline: y + m.ascent, from: x0, to: x1, align: align,
                 element: "rings.day", into: &out)
        y += m.height
        let date = text.fit(
            NumberLine(forms: [strings.dateLine(content.day, today: content.today),
                               strings.shortDateLine(content.day, today: content.today)]),
            small, minimum: small.size, width: x1 - x0, formsFirst: true)
        let dm = text.measure(date.text, date.style)
        place(date, color: TextLayout.secondary, baseline: y + dm.ascent, from: x0, to: x1, align: align,
              element: "rings.date", number: false, into: &out)
        return y + dm.height
    }

    // MARK: Figures

    /// Figure label, value and unit styles at design sizes (in 1/480 of the short side), with
    /// the minimums that keep a value larger than its label on small panels.
    func labelStyle(_ size: Float) -> TextStyle { style(size, .semibold, caps: true) }
    func valueStyle(_ size: Float) -> TextStyle { style(size, .semibold, minimum: scale.figure) }

    /// The figures as label over "value unit", one under the other in [x0, x1] from `top`,
    /// `spacing` apart; every value at the size the widest needs.
    func figureColumn(_ list: [RingFigure], top: Float, spacing: Float, x0: Float, x1: Float, labelSize: Float,
                      valueSize: Float, into out: inout RingScreenLayout) {
        let ls = labelStyle(labelSize)
        let vs = valueStyle(valueSize)
        let unit = UnitRun(style: style(valueSize * 0.52, .semibold, caps: true), minimum: scale.floor, gap: max(3, 5 * u))
        let fitted = text.fitTogether(list.map(\.number), vs, minimum: scale.figure,
                                      widths: list.map { _ in x1 - x0 }, unit: unit)
        var y = top
        for (f, value) in zip(list, fitted) {
            let lm = text.measure(f.label, ls)
            placeCut(f.label, ls, color: f.color, baseline: y + lm.ascent, from: x0, to: x1, align: .leading,
                     element: f.element(.label), into: &out)
            let vm = text.measure(value.text, value.style)
            let baseline = y + lm.height + 1 * u + vm.ascent
            place(value, color: f.color, baseline: baseline, from: x0, to: x1, align: .leading,
                  element: f.element(.value), unitElement: f.element(.unit), into: &out)
            y += figureInlineHeight(labelSize: labelSize, valueSize: valueSize) + spacing
        }
    }

    /// Height a label over "value unit" takes.
    func figureInlineHeight(labelSize: Float, valueSize: Float) -> Float {
        let lm = text.measure("M", labelStyle(labelSize))
        let vm = text.measure("0", valueStyle(valueSize))
        return lm.height + 1 * u + vm.height
    }

    /// A row of figures across [x0, x1], each a centred column of label (where every label fits
    /// its column), value and unit; every value at one size. Returns the bottom.
    @discardableResult
    func figureRow(top: Float, x0: Float, x1: Float, labels: RowLabels?, valueSize: Float,
                   into out: inout RingScreenLayout)
        -> Float
    {
        let list = figures
        let gap = 10 * u
        let column = (x1 - x0 - gap * Float(2)) / 3
        // One figure (Move only) sits in the middle column.
        let first = list.count == 1 ? 1 : 0
        let labelSize = labels?.size
        let vs = valueStyle(valueSize)
        // A value may reach into the gaps beside its column (`rowHolds` keeps it off its
        // neighbour's value and within a gap of [x0, x1]).
        let values = text.fitTogether(list.map(\.number.bare), vs, minimum: scale.figure,
                                      widths: list.map { _ in column + 2 * gap })
        let us = style(labelSize ?? valueSize * 0.5, .semibold, caps: true)
        for (i, f) in list.enumerated() {
            let c0 = x0 + Float(first + i) * (column + gap), c1 = c0 + column
            var y = top
            if let labels {
                let lm = text.measure(f.label, labels.styles[i])
                place(f.label, labels.styles[i], color: f.color, baseline: y + lm.ascent, from: c0, to: c1, align: .center,
                      element: f.element(.label), into: &out)
                y += lm.height
            }
            let vm = text.measure(values[i].text, values[i].style)
            place(values[i], color: f.color, baseline: y + vm.ascent, from: c0, to: c1, align: .center,
                  element: f.element(.value), into: &out)
            y += vm.height
            var unit = (text: f.unit, style: us)
            var um = text.measure(f.unit, us)
            if um.width > column {
                unit = text.fitted(f.unit, us, minimum: us.size * 0.7, width: column)
                um = text.measure(unit.text, unit.style)
            }
            place(unit.text, unit.style, color: f.color, baseline: y + um.ascent, from: c0, to: c1, align: .center,
                  element: f.element(.unit), full: f.unit, into: &out)
        }
        return top + figureRowHeight(labelSize: labelSize, valueSize: valueSize)
    }

    func figureRowHeight(labelSize: Float?, valueSize: Float) -> Float {
        let um = text.measure("M", style(labelSize ?? valueSize * 0.5, .semibold, caps: true))
        let vm = text.measure("0", valueStyle(valueSize))
        return (labelSize == nil ? 1 : 2) * um.height + vm.height
    }

    /// The ring names over a row of figures: their design size and each one's style, fitted to
    /// its column.
    struct RowLabels {
        var size: Float
        var styles: [TextStyle]
    }

    /// The names over a row of figures in [x0, x1] at `labelSize`, when every one fits its column
    /// (else none: the colours say which figure is which).
    func rowLabels(x0: Float, x1: Float, labelSize: Float) -> RowLabels? {
        let column = (x1 - x0 - 20 * u) / 3
        let s = labelStyle(labelSize)
        var styles: [TextStyle] = []
        for f in figures {
            let fitted = text.fitting(f.label, s, width: column)
            guard text.measure(f.label, fitted).width <= column else { return nil }
            styles.append(fitted)
        }
        return RowLabels(size: labelSize, styles: styles)
    }

    // MARK: The empty store's hint

    /// The hint of a store with nothing in it yet, in place of the figures (which would all be
    /// "—"): as many lines as [top, bottom] holds up to `most`, centred there, each within
    /// [x0, x1] (on a round panel also within the circle's chord where it sits, `circle`).
    /// Returns false when not even one line fits.
    @discardableResult
    func hintBlock(
        top: Float, bottom: Float, x0: Float, x1: Float, most: Int = 3, align: TextAlignment = .center,
        circle: (center: Point, radius: Float, margin: Float)? = nil, into out: inout RingScreenLayout
    ) -> Bool {
        guard let hint = content.hint else { return false }
        let s = style(22, .medium)
        let lm = text.lineMetrics(hint, s)
        let count = min(most, Int((bottom - top) / lm.height))
        guard count > 0 else { return false }
        var spans: [(Float, Float)] = []
        var y = top + (bottom - top - Float(count) * lm.height) / 2
        let firstTop = y
        for _ in 0..<count {
            if let circle {
                let half = chord(y, y + lm.height, radius: circle.radius, center: circle.center, margin: circle.margin)
                spans.append((max(x0, circle.center.x - half), min(x1, circle.center.x + half)))
            } else {
                spans.append((x0, x1))
            }
            y += lm.height
        }
        let lines = text.wrapped(hint, s, widths: spans.map { max(0, $0.1 - $0.0) })
        for (i, line) in lines.enumerated() {
            let y0 = firstTop + Float(i) * lm.height
            place(line, s, color: TextLayout.secondary, baseline: y0 + lm.ascent, from: spans[i].0, to: spans[i].1, align: align,
                  element: "rings.hint.\(i + 1)", full: hint, into: &out)
        }
        return !lines.isEmpty
    }

    // MARK: The week strip

    func weekHeight(letterSize: Float, ringSize: Float) -> Float {
        text.measure("M", style(letterSize, .semibold)).height + 6 * u + ringSize * u
    }

    /// Whether a week strip `width` wide has room for its letters and for rings of at least 20 px
    /// (smaller, a day's rings cannot be told apart: the strip is left out).
    func weekFits(width: Float, letterSize: Float, ringSize: Float) -> Bool {
        let lm = text.measure("M", style(letterSize, .semibold))
        let cell = width / 7
        return lm.height * 1.3 <= cell && min(cell - 4 * u, ringSize * u) >= 20
    }

    /// Seven days, Monday first: the weekday letter over the day's small rings; the selected day's
    /// letter on a white disc. Letters that would not fit their cells at the floor are left out.
    func week(_ rect: Rect, letterSize: Float, into out: inout RingScreenLayout) {
        let s = style(letterSize, .semibold)
        let lm = text.measure("M", s)
        let cell = rect.width / 7
        let letters = lm.height * 1.3 <= cell
        let top = letters ? lm.height + 6 * u : 0
        let side = min(cell - 4 * u, rect.height - top)
        guard side > 8 else { return }
        for (i, d) in content.weekDays.enumerated() {
            let x0 = rect.x + Float(i) * cell
            if letters {
                let letter = strings.weekdayInitial(d.weekday)
                let baseline = rect.y + lm.ascent
                var color = d == content.today ? TextLayout.primary : TextLayout.secondary
                if d == content.day {
                    let r = lm.height * 0.62
                    out.items.append(.disc(center: Point(x: x0 + cell / 2, y: baseline - lm.ascent / 2 + lm.descent / 2 - 0.5 * u),
                                           radius: r, color: .white))
                    color = .black
                }
                place(letter, s, color: color, baseline: baseline, from: x0, to: x0 + cell, align: .center,
                      element: Self.weekElements[i], into: &out)
            }
            let ringRect = Rect(x: x0 + (cell - side) / 2, y: rect.y + top, width: side, height: side)
            out.items.append(.rings(ringRect, RingSet(content.summary(for: d))))
        }
    }

    /// The week strip's days by element, Monday first (literals: no string is built for them).
    static let weekElements = [
        "rings.week.1", "rings.week.2", "rings.week.3", "rings.week.4", "rings.week.5", "rings.week.6", "rings.week.7",
    ]

    // MARK: Layouts

    func landscape(_ out: inout RingScreenLayout) {
        let pad = 24 * u, gutter = 28 * u
        var side = h - 2 * pad
        let minColumn = 230 * u
        if w - side - 2 * pad - gutter < minColumn { side = max(0, w - 2 * pad - gutter - minColumn) }
        rings(Rect(x: pad, y: (h - side) / 2, width: side, height: side), into: &out)
        let x0 = pad + side + gutter, x1 = w - pad
        let headerBottom = header(top: pad, x0: x0, x1: x1, nameSize: 20, daySize: 34, align: .leading, into: &out)
        let weekH = weekHeight(letterSize: 13, ringSize: 40)
        let figureH = figureInlineHeight(labelSize: 15, valueSize: 32)
        let list = figures
        let figuresH = Float(list.count) * figureH
        var bottom = h - pad
        let room = bottom - headerBottom - 16 * u
        if room >= figuresH + Float(list.count) * 12 * u + weekH + 16 * u
            && weekFits(width: x1 - x0, letterSize: 13, ringSize: 40)
        {
            week(Rect(x: x0, y: bottom - weekH, width: x1 - x0, height: weekH), letterSize: 13, into: &out)
            bottom -= weekH + 16 * u
        }
        // Spaced as three figures would be, so Move alone sits where it always does.
        let spacing = max(8 * u, (bottom - headerBottom - 16 * u - 3 * figureH) / 3)
        if content.hint != nil {
            hintBlock(top: headerBottom + 16 * u, bottom: bottom, x0: x0, x1: x1, align: .leading, into: &out)
            return
        }
        figureColumn(list, top: headerBottom + 16 * u + spacing / 2, spacing: spacing, x0: x0, x1: x1, labelSize: 15,
                     valueSize: 32, into: &out)
    }

    /// Whether every figure's value and goal fit whole in a row across [x0, x1] at `valueSize`
    /// (shrunk no further than the figure size), each centred on its column: a value may reach
    /// into the gaps beside its column, but stays half a gap from its neighbour's and within a
    /// gap of [x0, x1]. An exact form that does not fit even at the figure size does not hold (it
    /// was drawn across its neighbour and past the panel's edge).
    func rowHolds(x0: Float, x1: Float, valueSize: Float) -> Bool {
        let gap = 10 * u
        let column = (x1 - x0 - gap * 2) / 3
        let vs = valueStyle(valueSize)
        let fitted = figures.map { text.fit($0.number.bare, vs, minimum: scale.figure, width: column + 2 * gap) }
        guard fitted.allSatisfy(\.holdsWhole) else { return false }
        // As figureRow draws them: all at the smallest size any needed.
        let size = fitted.map(\.style.size).min() ?? vs.size
        let widths = fitted.map { $0.style.size == size ? $0.width : $0.width * size / $0.style.size }
        let first = figures.count == 1 ? 1 : 0
        var slots = [Float?](repeating: nil, count: 3)
        for (i, width) in widths.enumerated() { slots[first + i] = width }
        for i in 0..<2 {
            guard let a = slots[i], let b = slots[i + 1] else { continue }
            if (a + b) / 2 + gap / 2 > column + gap { return false }
        }
        return widths.allSatisfy { $0 / 2 <= column / 2 + gap }
    }

    func portrait(_ out: inout RingScreenLayout) {
        let pad = 28 * u
        let headerBottom = header(top: pad, x0: pad, x1: w - pad, nameSize: 20, daySize: 34, align: .leading, into: &out)
        // A narrow panel (240 px) leaves the week out, for rings of a size, and the ring names
        // when they do not fit their columns (the colours say which is which).
        let showWeek = w >= 300 && weekFits(width: w - 2 * pad, letterSize: 13, ringSize: 46)
        let weekH = showWeek ? weekHeight(letterSize: 13, ringSize: 46) : 0
        // The figures in a row under the rings where each holds its column whole at the figure
        // size, else one under the other (label over value and unit).
        let inRow = rowHolds(x0: pad, x1: w - pad, valueSize: 28)
        let labels = inRow ? rowLabels(x0: pad, x1: w - pad, labelSize: 14) : nil
        let spacing = 14 * u
        let figureH = inRow
            ? figureRowHeight(labelSize: labels?.size, valueSize: 28)
            : Float(figures.count) * figureInlineHeight(labelSize: 15, valueSize: 32) + Float(figures.count - 1) * spacing
        let gap = 22 * u
        let blocks: Float = showWeek ? 3 : 2
        var side = w - 2 * pad
        let available = h - pad - headerBottom - blocks * gap - figureH - weekH
        side = min(side, available)
        // Spread what is left evenly between the blocks.
        let slack = max(0, available - side) / (blocks + 1)
        var y = headerBottom + gap + slack
        rings(Rect(x: (w - side) / 2, y: y, width: side, height: side), into: &out)
        y += side + gap + slack
        if content.hint != nil {
            hintBlock(top: y, bottom: y + figureH, x0: pad, x1: w - pad, into: &out)
        } else if inRow {
            figureRow(top: y, x0: pad, x1: w - pad, labels: labels, valueSize: 28, into: &out)
        } else {
            figureColumn(figures, top: y, spacing: spacing, x0: pad, x1: w - pad, labelSize: 15, valueSize: 32, into: &out)
        }
        y += figureH + gap + slack
        if showWeek {
            week(Rect(x: pad, y: y, width: w - 2 * pad, height: weekH), letterSize: 13, into: &out)
        }
    }

    func square(_ out: inout RingScreenLayout) {
        let pad = 18 * u
        // Day label leading, name trailing, on one baseline.
        let ds = style(28, .semibold)
        // Leave the name at least a third of the width.
        let label = text.fit(dayLabelLine, ds, minimum: ds.size, width: (w - 2 * pad) * 0.66, formsFirst: true)
        let dm = text.measure(label.text, label.style)
        let baseline = pad + dm.ascent
        let dayBox = place(label, color: TextLayout.primary, baseline: baseline, from: pad, to: w - pad,
                           align: .leading, element: "rings.day", number: false, into: &out)
        // The time at the trailing end, the name before it (what room is left).
        var nameRight = w - pad
        if let clock = clockLine {
            let cs = clockStyle(18)
            if text.measure(clock, cs).width <= w - pad - dayBox.maxX - 16 * u {
                let box = place(clock, cs, color: TextLayout.primary, baseline: baseline, from: pad, to: w - pad,
                                align: .trailing, element: "rings.time", into: &out)
                nameRight = box.x - 12 * u
            }
        }
        if !content.name.isEmpty {
            let ns = style(18, .medium)
            let room = nameRight - dayBox.maxX - 16 * u
            let name = text.truncated(content.name, ns, width: room)
            if !name.isEmpty {
                place(name, ns, color: TextLayout.secondary, baseline: baseline, from: pad, to: nameRight,
                      align: .trailing, element: "rings.name", full: content.name, into: &out)
            }
        }
        let headerBottom = baseline + dm.descent
        let showWeek = min(w, h) >= 600 && weekFits(width: w - 2 * pad, letterSize: 12, ringSize: 40)
        let weekH = showWeek ? weekHeight(letterSize: 12, ringSize: 40) : 0
        // The figures in a row where each holds its column whole at the figure size, else one
        // under the other.
        let inRow = rowHolds(x0: pad, x1: w - pad, valueSize: 24)
        let labels = inRow ? rowLabels(x0: pad, x1: w - pad, labelSize: 13) : nil
        let spacing = 10 * u
        let figureH = inRow
            ? figureRowHeight(labelSize: labels?.size, valueSize: 24)
            : Float(figures.count) * figureInlineHeight(labelSize: 15, valueSize: 28) + Float(figures.count - 1) * spacing
        let gap = 14 * u
        let bottom = h - pad
        var y = bottom - weekH
        if showWeek {
            week(Rect(x: pad, y: y, width: w - 2 * pad, height: weekH), letterSize: 12, into: &out)
            y -= gap
        }
        y -= figureH
        if content.hint != nil {
            hintBlock(top: y, bottom: y + figureH, x0: pad, x1: w - pad, into: &out)
        } else if inRow {
            figureRow(top: y, x0: pad, x1: w - pad, labels: labels, valueSize: 24, into: &out)
        } else {
            figureColumn(figures, top: y, spacing: spacing, x0: pad, x1: w - pad, labelSize: 15, valueSize: 28, into: &out)
        }
        let side = min(w - 2 * pad, y - gap - headerBottom - gap)
        rings(Rect(x: (w - side) / 2, y: headerBottom + gap + (y - gap - headerBottom - gap - side) / 2, width: side,
                   height: side), into: &out)
    }

    /// Half the width of the panel's circle at height y, less a margin.
    func chord(_ y0: Float, _ y1: Float, radius r: Float, center c: Point, margin: Float) -> Float {
        let dy = max(abs(y0 - c.y), abs(y1 - c.y))
        return max(0, (max(0, r * r - dy * dy)).squareRoot() - margin)
    }

    /// A line centred on the circle's chord at its height: fitted (its shorter wordings, then
    /// smaller down to `minimum`), a name or a day cut with "…" when even that is too wide.
    /// Returns its bottom.
    @discardableResult
    func chordLine(_ line: NumberLine, _ s: TextStyle, minimum: Float, top: Float, r: Float, c: Point, margin: Float,
                   color: Color, element: String, into out: inout RingScreenLayout) -> Float {
        let m = text.measure(line.exact, s)
        let half = chord(top, top + m.height, radius: r, center: c, margin: margin)
        var f = text.fit(line, s, minimum: minimum, width: 2 * half, formsFirst: true)
        if !f.fits {
            f.text = text.truncated(f.text, f.style, width: 2 * half)
            f.width = text.measure(f.text, f.style).width
        }
        let fm = text.measure(f.text, f.style)
        place(f, color: color, baseline: top + fm.ascent, from: c.x - half, to: c.x + half, align: .center,
              element: element, number: false, into: &out)
        return top + fm.height
    }

    func round(_ out: inout RingScreenLayout) {
        let r = min(w, h) / 2
        let c = Point(x: w / 2, y: h / 2)
        let margin = 10 * u
        // Header: the time, then name over day, centred, each fitted to the circle's chord where
        // it sits.
        var y = c.y - (content.clock == nil ? 0.74 : 0.82) * r
        if let clock = clockLine {
            let cs = clockStyle(20)
            y = chordLine(NumberLine(forms: [clock]), cs, minimum: cs.size, top: y, r: r, c: c, margin: margin,
                          color: TextLayout.primary, element: "rings.time", into: &out) + 2 * u
        }
        if !content.name.isEmpty {
            let ns = style(16, .medium)
            y = chordLine(NumberLine(forms: [content.name]), ns, minimum: ns.size, top: y, r: r, c: c, margin: margin,
                          color: TextLayout.secondary, element: "rings.name", into: &out)
        }
        let ds = style(26, .semibold)
        let headerBottom = chordLine(dayLabelLine, ds, minimum: ds.size * 0.7, top: y, r: r, c: c, margin: margin,
                                     color: TextLayout.primary, element: "rings.day", into: &out)
        // Figures: a row of value over unit, under the rings.
        let list = figures
        let vs = valueStyle(22)
        let us = style(11, .semibold, caps: true)
        let vm = text.measure("0", vs), um = text.measure("M", us)
        let rowBottom = c.y + 0.80 * r
        let rowTop = rowBottom - vm.height - um.height
        let rowHalf = chord(rowTop, rowBottom, radius: r, center: c, margin: margin)
        let gap = 8 * u
        let column = (2 * rowHalf - 2 * gap) / 3
        let first = list.count == 1 ? 1 : 0
        let values = text.fitTogether(list.map(\.number.bare), vs, minimum: scale.figure,
                                      widths: list.map { _ in column })
        if content.hint != nil {
            hintBlock(top: rowTop, bottom: rowBottom, x0: 0, x1: w, most: 2, circle: (c, r, margin), into: &out)
        }
        for (i, f) in list.enumerated() where content.hint == nil {
            let x0 = c.x - rowHalf + Float(first + i) * (column + gap)
            place(values[i], color: f.color, baseline: rowTop + vm.ascent, from: x0, to: x0 + column, align: .center,
                  element: f.element(.value), into: &out)
            let fu = text.fitted(f.unit, us, minimum: us.size * 0.7, width: column)
            place(fu.text, fu.style, color: f.color, baseline: rowTop + vm.height + um.ascent, from: x0,
                  to: x0 + column, align: .center, element: f.element(.unit), full: f.unit, into: &out)
        }
        // Rings between, centred on the panel's centre line.
        let top = headerBottom + 12 * u, bottom = rowTop - 12 * u
        let side = min(bottom - top, 2 * r * 0.80)
        rings(Rect(x: c.x - side / 2, y: top + (bottom - top - side) / 2, width: side, height: side), into: &out)
    }

    /// A 240x240 panel: the day (or the time) over the rings, the three figures in a row under
    /// them, value over unit in the ring's colour.
    func tiny(_ out: inout RingScreenLayout) {
        let pad = max(4, 10 * u)
        let base = style(34, .semibold, minimum: 18)
        let line = content.clockOnTiny ? clockLine.map { NumberLine(forms: [$0]) } ?? dayLabelLine : dayLabelLine
        let label = text.fit(line, base, minimum: scale.floor, width: w - 2 * pad, formsFirst: true)
        let dm = text.measure(label.text, label.style)
        place(label, color: TextLayout.primary, baseline: pad + dm.ascent, from: pad, to: w - pad, align: .center,
              element: content.clockOnTiny && content.clock != nil ? "rings.time" : "rings.day", number: false,
              into: &out)
        let valueSize: Float = 36
        let rowH = figureRowHeight(labelSize: nil, valueSize: valueSize)
        let rowTop = h - pad - rowH
        if content.hint != nil {
            hintBlock(top: rowTop, bottom: h - pad, x0: pad, x1: w - pad, most: 2, into: &out)
        } else {
            figureRow(top: rowTop, x0: pad, x1: w - pad, labels: nil, valueSize: valueSize, into: &out)
        }
        let top = pad + dm.height + 4 * u
        let side = max(0, min(w - 2 * pad, rowTop - 6 * u - top))
        rings(Rect(x: (w - side) / 2, y: top, width: side, height: side), into: &out)
    }

    /// A 240 px round panel: the day (or the time) on the chord at the top, the rings, and the
    /// three figures as lines ("375/500 KCAL") on the chords under them.
    func tinyRound(_ out: inout RingScreenLayout) {
        let r = min(w, h) / 2
        let c = Point(x: w / 2, y: h / 2)
        let margin = max(4, 8 * u)
        let base = style(34, .semibold, minimum: 18)
        let line = content.clockOnTiny ? clockLine.map { NumberLine(forms: [$0]) } ?? dayLabelLine : dayLabelLine
        let labelBottom = chordLine(
            line, base, minimum: scale.floor, top: c.y - 0.80 * r, r: r, c: c, margin: margin, color: TextLayout.primary,
            element: content.clockOnTiny && content.clock != nil ? "rings.time" : "rings.day", into: &out)
        // The figures, one to a line, from the bottom of the circle up.
        let list = figures
        let vs = style(30, .semibold, minimum: scale.figure)
        let unit = UnitRun(style: style(24, .semibold, caps: true), minimum: scale.floor, gap: max(3, 5 * u))
        let vm = text.measure("0", vs)
        let bottom = c.y + 0.86 * r
        let top = bottom - 3 * vm.height
        let widths = (0..<list.count).map { i -> Float in
            let y0 = top + Float((3 - list.count + 1) / 2 + i) * vm.height
            return 2 * chord(y0, y0 + vm.height, radius: r, center: c, margin: margin)
        }
        let values = text.fitTogether(list.map(\.number), vs, minimum: scale.figure, widths: widths, unit: unit)
        if content.hint != nil {
            hintBlock(top: top, bottom: bottom, x0: 0, x1: w, circle: (c, r, margin), into: &out)
        }
        for (i, f) in list.enumerated() where content.hint == nil {
            let y0 = top + Float((3 - list.count + 1) / 2 + i) * vm.height
            place(values[i], color: f.color, baseline: y0 + vm.ascent, from: c.x - widths[i] / 2,
                  to: c.x + widths[i] / 2, align: .center, element: f.element(.value), unitElement: f.element(.unit),
                  into: &out)
        }
        let ringsTop = labelBottom + 4 * u, ringsBottom = top - 4 * u
        let side = max(0, ringsBottom - ringsTop)
        rings(Rect(x: c.x - side / 2, y: ringsTop, width: side, height: side), into: &out)
    }
}
