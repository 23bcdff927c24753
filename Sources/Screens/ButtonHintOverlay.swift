import Raster

/// What each button does, over the screen (darkened under it): a row per button with its
/// symbol, what a press does and what holding it does, and how to bring the hint back. Shown at
/// the first start with buttons and when two buttons are held together; any input closes it.
public struct ButtonHintOverlay: OverlayScreen {
    /// How a button is shown: a direction, the middle button, or a short label ("1", "F5").
    public enum Symbol: Sendable, Equatable {
        case left, right, up, down, select
        case label(String)
    }

    /// What a press or a hold does, as the hint words it (the actions' names).
    public enum Verb: String, Sendable, CaseIterable {
        case nextScreen, previousScreen, previousDay, nextDay, today, select, cancel, refresh, brighter, darker, help
    }

    public struct Row: Sendable, Equatable {
        public var symbol: Symbol
        public var press: Verb
        public var hold: Verb?

        public init(symbol: Symbol, press: Verb, hold: Verb? = nil) {
            self.symbol = symbol
            self.press = press
            self.hold = hold
        }
    }

    public var screen: any Screen
    public var rows: [Row]
    /// Whether two buttons held together bring the hint back (said at the bottom).
    public var chord: Bool
    public var context: ScreenContext
    /// Which part of the rows is shown where the panel cannot hold them all legibly at once
    /// (`parts(for:)`): the device turns the parts while the hint shows.
    public var part: Int

    public init(screen: any Screen, rows: [Row], chord: Bool, context: ScreenContext, part: Int = 0) {
        self.screen = screen
        self.rows = rows
        self.chord = chord
        self.context = context
        self.part = part
    }

    /// How long each part shows before the next, in seconds.
    public static let partSeconds = 4.0

    /// The rows in parts that a picture of `size` holds legibly (every line whole at the floor,
    /// 12′ at the eye): all of them where they fit, else as many a part as fit, else one a part
    /// stacked (its button over what a press and a hold do); the lines at the bottom on the last
    /// part, or on a part of their own (no rows) where they do not fit with its rows.
    public func parts(for size: Size) -> [[Row]] { arrangement(size).parts }

    /// The parts, and whether their rows are stacked.
    func arrangement(_ size: Size) -> (parts: [[Row]], stacked: Bool) {
        let area = self.area(size)
        let scale = TypeScale(size: size, context: context)
        let text = TextLayout(context, scale: scale)
        func fits(_ part: [Row], titled: Bool, notes: [String], stacked: Bool) -> Bool {
            let placed = place(part, base: scale.floor, smallest: scale.floor, area: area, notes: notes, titled: titled,
                               stacked: stacked, text: text)
            return placed.height <= area.height && placed.whole
        }
        var rowParts: [[Row]]?
        var stacked = false
        for k in stride(from: rows.count, through: 1, by: -1) {
            let parts = stride(from: 0, to: rows.count, by: k).map { Array(rows[$0..<min(rows.count, $0 + k)]) }
            if parts.enumerated().allSatisfy({ fits($0.element, titled: $0.offset == 0, notes: [], stacked: false) }) {
                rowParts = parts
                break
            }
        }
        if rowParts == nil {
            rowParts = rows.map { [$0] }
            stacked = true
        }
        var parts = rowParts ?? [rows]
        // The lines at the bottom: with the last rows, else on their own, else (not even alone)
        // left out.
        let notes = noteLines
        if let last = parts.last, !fits(last, titled: parts.count == 1, notes: notes, stacked: stacked),
            fits([], titled: false, notes: notes, stacked: false)
        {
            parts.append([])
        }
        return (parts, stacked)
    }

    /// The rows of the part shown (past the last, the last).
    func shownRows(_ size: Size) -> [Row] {
        let all = parts(for: size)
        return all[min(max(0, part), all.count - 1)]
    }

    public var animates: Bool { screen.animates }

    /// The smallest text drawn on a picture of `size`: the type scale's floor (12′ at the eye).
    public func smallestText(_ size: Size) -> Float { TypeScale(size: size, context: context).floor }

    /// Where everything goes in a picture of `size`.
    public struct Layout: Sendable, Equatable {
        public struct RowPlace: Sendable, Equatable {
            public var badge: Rect
            public var press: (baseline: Float, size: Float)
            /// nil: the button does nothing held.
            public var hold: (baseline: Float, size: Float)?
            public var textX: Float

            public static func == (a: RowPlace, b: RowPlace) -> Bool {
                a.badge == b.badge && a.press == b.press && a.hold?.baseline == b.hold?.baseline
                    && a.hold?.size == b.hold?.size && a.textX == b.textX
            }
        }

        /// The area everything stays in (the inscribed square of a round panel).
        public var area: Rect
        public var title: (baseline: Float, size: Float)
        public var rows: [RowPlace]
        /// The lines at the bottom that fit: the chord's, then the progress screen's.
        public var notes: [(text: String, baseline: Float, size: Float)]

        public static func == (a: Layout, b: Layout) -> Bool {
            a.area == b.area && a.title == b.title && a.rows == b.rows
                && a.notes.map(\.text) == b.notes.map(\.text) && a.notes.map(\.baseline) == b.notes.map(\.baseline)
        }
    }

    /// The lines at the bottom: how to bring the hint back (with `chord`), and what a hold does
    /// on the progress screen.
    var noteLines: [String] {
        let s = context.strings
        return (chord ? [s.hintChord] : []) + [s.hintCancel]
    }

    /// The area everything stays in: the picture less a margin, or the square inscribed in a
    /// round panel's circle.
    func area(_ size: Size) -> Rect {
        let w = Float(size.width), h = Float(size.height)
        let short = min(w, h)
        if context.shape == .round {
            let side = short * 0.707
            return Rect(x: (w - side) / 2, y: (h - side) / 2, width: side, height: side)
        }
        let m = max(8, short * 0.05)
        return Rect(x: m, y: m, width: w - 2 * m, height: h - 2 * m)
    }

    public func layout(for size: Size) -> Layout {
        let short = Float(min(size.width, size.height))
        let area = self.area(size)
        let smallest = smallestText(size)
        let text = TextLayout(context, scale: TypeScale(size: size, context: context))
        var base = max(smallest, min(30, short * 0.065))
        let (all, stacked) = arrangement(size)
        let shown = min(max(0, part), all.count - 1)
        let rows = all[shown]
        // The notes on the last part; the title on the first.
        var notes = shown == all.count - 1 ? noteLines : []
        var titled = shown == 0
        // Smaller until it fits the height (never under the floor), then without the progress
        // screen's note, then without the title, then without how to bring the hint back: what
        // each button does is the hint, and stays whole.
        while true {
            let candidate = place(rows, base: base, smallest: smallest, area: area, notes: notes, titled: titled,
                                  stacked: stacked, text: text)
            if candidate.height <= area.height { return candidate.layout }
            if base > smallest {
                base = max(smallest, base * 0.92)
            } else if notes.count > 1 {
                notes.removeLast()
            } else if titled {
                titled = false
            } else if !notes.isEmpty {
                notes.removeLast()
            } else {
                return candidate.layout
            }
        }
    }

    /// The layout of `rows` at `base` (the press lines' size), centred in `area`, its height,
    /// and whether every line is whole there (none shortened, none under the floor). `stacked`:
    /// a row's badge over its lines, each centred (a panel too narrow for them side by side).
    private func place(
        _ rows: [Row], base: Float, smallest: Float, area: Rect, notes: [String], titled: Bool, stacked: Bool,
        text: TextLayout
    ) -> (layout: Layout, height: Float, whole: Bool) {
        let titleSize = base * 1.1
        let holdSize = max(smallest, base * 0.8)
        let noteSize = max(smallest, base * 0.8)
        let badge = base * 2
        let rowGap = base * 0.55
        func lineHeight(_ size: Float) -> Float { size * 1.4 }
        let rowHeights = rows.map { row in
            stacked
                ? badge + base * 0.3 + lineHeight(base) + (row.hold == nil ? 0 : lineHeight(holdSize))
                : max(badge, lineHeight(base) + (row.hold == nil ? 0 : lineHeight(holdSize)))
        }
        // A note too long for a line at the floor goes on two or three (never cut while they
        // hold it).
        let noteStyle = TextStyle(size: noteSize)
        let wrappedNotes = notes.map { text.wrapped($0, noteStyle, widths: [area.width, area.width, area.width]) }
        let noteLines = wrappedNotes.flatMap { $0 }
        let notesWhole = zip(notes, wrappedNotes).allSatisfy { note, lines in
            !(lines.last?.hasSuffix("…") ?? false) || note.hasSuffix("…")
        }
        var height = titled ? lineHeight(titleSize) + base * 0.5 : 0
        height += rowHeights.reduce(0, +) + rowGap * Float(max(0, rows.count - 1))
        if !noteLines.isEmpty { height += base * 0.6 + lineHeight(noteSize) * Float(noteLines.count) }
        // The rows' column: as wide as its longest text, centred.
        let s = context.strings
        let widest = rows.map { row -> Float in
            let press = text.measure(s.hintVerb(row.press), TextStyle(size: base, weight: .medium)).width
            let hold = row.hold.map { text.measure(s.hintHold($0), TextStyle(size: holdSize)).width } ?? 0
            return max(press, hold)
        }.max() ?? 0
        let column = stacked ? area.width : min(area.width, badge + base * 0.6 + widest)
        let x0 = area.x + (area.width - column) / 2
        let whole = (stacked ? widest <= area.width : badge + base * 0.6 + widest <= area.width) && notesWhole
        var y = area.y + max(0, (area.height - height) / 2)
        let title = (baseline: titled ? y + titleSize * 1.05 : -1, size: titled ? titleSize : 0)
        if titled { y += lineHeight(titleSize) + base * 0.5 }
        var places: [Layout.RowPlace] = []
        for (row, rowHeight) in zip(rows, rowHeights) {
            let textHeight = lineHeight(base) + (row.hold == nil ? 0 : lineHeight(holdSize))
            if stacked {
                // The badge centred over its lines (textX NaN: the lines centred in the area).
                let box = Rect(x: area.center.x - badge / 2, y: y, width: badge, height: badge)
                let top = y + badge + base * 0.3
                let press = (baseline: top + base * 1.05, size: base)
                let hold = row.hold.map { _ in (baseline: top + lineHeight(base) + holdSize * 1.05, size: holdSize) }
                places.append(Layout.RowPlace(badge: box, press: press, hold: hold, textX: .nan))
            } else {
                let box = Rect(x: x0, y: y + (rowHeight - badge) / 2, width: badge, height: badge)
                let top = y + (rowHeight - textHeight) / 2
                let press = (baseline: top + base * 1.05, size: base)
                let hold = row.hold.map { _ in (baseline: top + lineHeight(base) + holdSize * 1.05, size: holdSize) }
                places.append(Layout.RowPlace(badge: box, press: press, hold: hold, textX: x0 + badge + base * 0.6))
            }
            y += rowHeight + rowGap
        }
        y += base * 0.6 - rowGap
        var placedNotes: [(text: String, baseline: Float, size: Float)] = []
        for note in noteLines {
            placedNotes.append((note, y + noteSize * 1.05, noteSize))
            y += lineHeight(noteSize)
        }
        return (Layout(area: area, title: title, rows: places, notes: placedNotes), height, whole)
    }

    static let badgeColor = Color(hex: 0x3A3A3C)
    /// How much of the screen shows under the hint.
    static let dimming: Float = 0.08

    public func draw(into buffer: PixelBuffer, at time: Double) {
        screen.draw(into: buffer, at: time)
        buffer.scaleBrightness(Self.dimming)
        let size = Size(width: buffer.width, height: buffer.height)
        let layout = layout(for: size)
        let smallest = smallestText(size)
        let text = TextLayout(context, scale: TypeScale(size: size, context: context))
        let s = context.strings
        let area = layout.area
        func line(_ string: String, _ style: TextStyle, color: Color, baseline: Float, from x0: Float, align: TextAlignment) {
            // Words may be made smaller (not under the smallest text), then shortened; no
            // number is drawn here.
            let width = area.maxX - x0
            guard width > 0 else { return }
            var fitted = text.fitting(string, style, width: width)
            fitted.size = max(smallest, fitted.size)
            text.draw(
                text.truncated(string, fitted, width: width), fitted, color: color, baseline: baseline, from: x0,
                to: area.maxX, align: align, element: "hint.line", full: string, into: buffer)
        }
        if layout.title.size > 0 {
            line(
                s.hintTitle, TextStyle(size: layout.title.size, weight: .semibold), color: TextLayout.primary,
                baseline: layout.title.baseline, from: area.x, align: .center)
        }
        for (row, place) in zip(shownRows(size), layout.rows) {
            drawBadge(row.symbol, in: place.badge, smallest: smallest, into: buffer, text: text)
            context.probe?.shape("button-\(row.press.rawValue)", place.badge)
            // Stacked (no column beside the badge): the lines centred under it.
            let x0 = place.textX.isNaN ? area.x : place.textX
            let align: TextAlignment = place.textX.isNaN ? .center : .leading
            line(
                s.hintVerb(row.press), TextStyle(size: place.press.size, weight: .medium), color: TextLayout.primary,
                baseline: place.press.baseline, from: x0, align: align)
            if let hold = row.hold, let at = place.hold {
                line(
                    s.hintHold(hold), TextStyle(size: at.size), color: TextLayout.secondary, baseline: at.baseline,
                    from: x0, align: align)
            }
        }
        // The parts' dots where the rows are in parts.
        let parts = parts(for: size).count
        if parts > 1 {
            let dots = PageDots(count: parts, page: min(max(0, part), parts - 1), scale: TypeScale(size: size, context: context))
            for d in dots.discs(w: Float(buffer.width), h: Float(buffer.height), round: context.shape == .round,
                                margin: max(4, Float(min(buffer.width, buffer.height)) * 0.02)) {
                buffer.fillDisc(center: d.center, radius: d.radius, color: d.color)
            }
        }
        for note in layout.notes {
            line(
                note.text, TextStyle(size: note.size), color: TextLayout.secondary, baseline: note.baseline,
                from: area.x, align: .center)
        }
    }

    /// The button's badge: a dark disc with its direction, its dot or its label.
    private func drawBadge(_ symbol: Symbol, in box: Rect, smallest: Float, into buffer: PixelBuffer, text: TextLayout) {
        let c = Point(x: box.x + box.width / 2, y: box.y + box.height / 2)
        let d = box.width
        buffer.fillDisc(center: c, radius: d / 2, color: Self.badgeColor)
        let stroke = max(1.2, d * 0.065)
        let arm = d * 0.2
        func chevron(_ tip: Point, _ a: Point, _ b: Point) {
            buffer.fillCapsule(from: a, to: tip, radius: stroke, color: TextLayout.primary)
            buffer.fillCapsule(from: tip, to: b, radius: stroke, color: TextLayout.primary)
        }
        switch symbol {
        case .left:
            chevron(
                Point(x: c.x - arm * 0.55, y: c.y), Point(x: c.x + arm * 0.45, y: c.y - arm),
                Point(x: c.x + arm * 0.45, y: c.y + arm))
        case .right:
            chevron(
                Point(x: c.x + arm * 0.55, y: c.y), Point(x: c.x - arm * 0.45, y: c.y - arm),
                Point(x: c.x - arm * 0.45, y: c.y + arm))
        case .up:
            chevron(
                Point(x: c.x, y: c.y - arm * 0.55), Point(x: c.x - arm, y: c.y + arm * 0.45),
                Point(x: c.x + arm, y: c.y + arm * 0.45))
        case .down:
            chevron(
                Point(x: c.x, y: c.y + arm * 0.55), Point(x: c.x - arm, y: c.y - arm * 0.45),
                Point(x: c.x + arm, y: c.y - arm * 0.45))
        case .select:
            buffer.fillDisc(center: c, radius: d * 0.17, color: TextLayout.primary)
        case .label(let label):
            let style = TextStyle(size: max(smallest, d * 0.42), weight: .semibold)
            let m = text.measure(label, style)
            text.draw(
                label, style, color: TextLayout.primary, baseline: c.y + (m.ascent - m.descent) / 2, from: box.x,
                to: box.maxX, align: .center, element: "hint.button", into: buffer)
        }
    }

    /// The screen's changes underneath (the hint over them stays as it was); another hint or
    /// context: nil.
    public func changes(since previous: any Screen, at previousTime: Double, now time: Double, size: Size) -> Damage? {
        guard let before = previous as? ButtonHintOverlay, before.rows == rows, before.chord == chord, before.part == part,
            context.drawsLike(before.context)
        else { return nil }
        return screen.changes(since: before.screen, at: previousTime, now: time, size: size)
    }
}

extension Strings {
    private func say(_ english: String, _ chinese: String) -> String { locale == .english ? english : chinese }

    /// The hint's title.
    public var hintTitle: String { say("Buttons", "按键") }

    /// What a press does.
    public func hintVerb(_ verb: ButtonHintOverlay.Verb) -> String {
        switch verb {
        case .nextScreen, .select: say("Next screen", "下一屏")
        case .previousScreen: say("Previous screen", "上一屏")
        case .previousDay: say("Day before", "前一天")
        case .nextDay: say("Day after", "后一天")
        case .today: say("Today", "今天")
        case .cancel: say("Cancel", "取消")
        case .refresh: say("Refresh", "刷新")
        case .brighter: say("Brighter", "调亮")
        case .darker: say("Darker", "调暗")
        case .help: say("These hints", "按键说明")
        }
    }

    /// What holding does: "Hold: Refresh".
    public func hintHold(_ verb: ButtonHintOverlay.Verb) -> String {
        say("Hold: ", "按住：") + hintVerb(verb)
    }

    /// How to bring the hint back.
    public var hintChord: String { say("Hold two together: these hints", "同时按住两个键：按键说明") }
    /// What holding a button does on the progress screen.
    public var hintCancel: String { say("Progress screen: hold to cancel", "进度界面：按住即取消") }
}
