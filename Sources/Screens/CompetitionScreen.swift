import Activity
import Raster

/// One line of the standings: a person, their place, their points.
public struct CompetitionEntry: Sendable, Equatable {
    public var name: String
    /// Their colour: their name is written in it (lightened where it would be too dark on black).
    public var colour: Color
    /// 1 for the most points; a tie shares its rank (1, 1, 3).
    public var rank: Int
    /// Points over the days so far.
    public var total: Int
    /// Points today.
    public var today: Int

    public init(name: String, colour: Color, rank: Int, total: Int, today: Int) {
        self.name = name
        self.colour = colour
        self.rank = rank
        self.total = total
        self.today = today
    }
}

/// What the competition screen shows: the standings, best first, and where the competition is.
public struct CompetitionContent: Sendable, Equatable {
    public var entries: [CompetitionEntry]
    /// Which of its days today is (1…`days`); nil before it starts and once it is over.
    public var day: Int?
    public var days: Int
    /// Over: the ranks are final, the winners said.
    public var finished: Bool
    /// Days until it starts (nil once it has).
    public var startsIn: Int?
    /// Said instead of where it is (no competition configured: `Strings.competitionNone`).
    public var notice: String?

    public init(entries: [CompetitionEntry], day: Int?, days: Int, finished: Bool, startsIn: Int? = nil) {
        self.entries = entries
        self.day = day
        self.days = days
        self.finished = finished
        self.startsIn = startsIn
    }

    /// The standings of a competition (`Competition.standings`) with each person's name and
    /// colour (`person` gives them for a participant's id).
    public init(standings: CompetitionStandings, person: (Int) -> (name: String, colour: Color)) {
        let entries = standings.rows.map { row -> CompetitionEntry in
            let p = person(row.person)
            return CompetitionEntry(name: p.name, colour: p.colour, rank: row.rank, total: row.total, today: row.today)
        }
        self.init(entries: entries, day: standings.day, days: standings.days, finished: standings.finished,
                  startsIn: standings.startsIn)
    }

    /// The winners once it is over (everyone ranked first).
    public var winners: [CompetitionEntry] { finished ? entries.filter { $0.rank == 1 } : [] }
}

/// The competition's standings: where it is ("Day 3 of 7"; "Final" and the winner once over),
/// then a line for each person: their rank, their name in their colour, their total points (a
/// figure: 20′ at the eye, `Legibility`) and, while it runs, today's points. A row is one line
/// where its parts fit side by side at their sizes (with the columns' names over them), else two
/// (the name, then the points). As many rows a page as the panel holds so (on a round panel
/// each line within the circle where it sits), the rest on the next pages, with page dots at the
/// right edge. A number is never rounded into another ("1050", never "1.1k").
public struct CompetitionScreen: ContextScreen {
    public let content: CompetitionContent
    public var context: ScreenContext
    /// The page shown (0-based; past the last, the last).
    public let page: Int
    let memo = HouseholdMemo()

    public init(content: CompetitionContent, context: ScreenContext, page: Int = 0) {
        self.content = content
        self.context = context
        self.page = page
    }

    public func draw(into buffer: PixelBuffer, at time: Double) {
        buffer.fill(.black)
        layout(buffer.size).draw(into: buffer, context: context)
    }

    public func pageCount(for size: Size) -> Int { layout(size).pageCount }

    public func showing(page: Int) -> CompetitionScreen {
        page == self.page ? self : CompetitionScreen(content: content, context: context, page: page)
    }

    /// The same standings drawn alike: nothing. Else each line drawn otherwise (nil where the
    /// layout moved).
    public func changes(since previous: any Screen, at previousTime: Double, now time: Double, size: Size) -> Damage? {
        guard let before = previous as? CompetitionScreen, context.drawsLike(before.context) else { return nil }
        if before.content == content && before.page == page { return Damage() }
        return layout(size).changes(since: before.layout(size))
    }

    func layout(_ size: Size) -> HouseholdLayout {
        memo.layout(size, context) {
            CompetitionLayouter(content: content, context: context, size: size, page: page).layout()
        }
    }
}

/// Lays the competition screen out (`HouseholdLayout`), measured with the context's fonts.
struct CompetitionLayouter {
    let content: CompetitionContent
    let context: ScreenContext
    let size: Size
    let page: Int
    let scale: TypeScale
    let text: TextLayout
    let strings: Strings
    let w: Float, h: Float, u: Float

    init(content: CompetitionContent, context: ScreenContext, size: Size, page: Int) {
        self.content = content
        self.context = context
        self.size = size
        self.page = page
        scale = TypeScale(size: size, context: context)
        text = TextLayout(context, scale: scale)
        strings = context.strings
        w = Float(size.width)
        h = Float(size.height)
        u = scale.u
    }

    /// Today's points are shown while the competition runs.
    var showsToday: Bool { content.day != nil && !content.finished }

    struct Styles {
        var title: TextStyle
        var winner: TextStyle
        var rank: TextStyle
        var name: TextStyle
        var total: TextStyle
        var today: TextStyle
        var column: TextStyle
    }

    /// The styles at `factor` times their design sizes (larger on a panel with room to spare).
    func styles(_ factor: Float) -> Styles {
        func s(_ design: Float, _ weight: FontWeight, caps: Bool = false) -> TextStyle {
            scale.style(design * factor, weight, caps: caps)
        }
        return Styles(title: s(26, .semibold), winner: s(30, .bold), rank: s(26, .semibold), name: s(26, .semibold),
                      total: scale.figureStyle(38 * factor, .semibold), today: s(24, .medium), column: s(14, .semibold, caps: true))
    }

    /// A row on one line (rank, name, total, today's points in columns), on two (the name, then
    /// the total and today's points), or on three (today's points under the total).
    enum RowForm: CaseIterable { case oneLine, twoLines, threeLines }

    /// A number of points as written: whole, grouped from five digits ("1050", "12,845"), or
    /// without its commas; never shorter.
    func points(_ p: Int) -> NumberLine {
        let grouped = NumberText.grouped(Double(p), decimals: 0)
        return NumberLine(forms: grouped.contains(",") ? [grouped, String(p)] : [grouped])
    }

    /// Today's points on a row's second line, and in a column (its name over it).
    func todayInline(_ p: Int) -> String { strings.competitionTodayPoints(NumberText.grouped(Double(p), decimals: 0)) }
    func todayColumn(_ p: Int) -> String { NumberText.grouped(Double(p), decimals: 0) }

    /// The room a name needs at the least: all of it, or four ems (then cut).
    func nameRoom(_ name: String, _ style: TextStyle) -> Float { min(text.measure(name, style).width, 4 * style.size) }

    var titleLine: NumberLine {
        if let notice = content.notice { return NumberLine(forms: [notice]) }
        if content.finished { return NumberLine(forms: [strings.competitionFinal]) }
        if let day = content.day {
            return NumberLine(forms: [strings.competitionDay(day, of: content.days),
                                      strings.competitionDayShort(day, of: content.days)])
        }
        return NumberLine(forms: [strings.competitionStartsIn(days: content.startsIn ?? 1)])
    }

    var winnerLine: String? {
        let winners = content.winners
        guard !winners.isEmpty else { return nil }
        return strings.competitionWinners(winners.map(\.name))
    }

    /// The winners' line in `width`: whole where it fits (made smaller down to the floor); else
    /// one winner's name cut before " wins", or a tie said without the names ("Tie for first":
    /// the rows say whose), cut as a last resort.
    func winnerShown(_ line: String, _ style: TextStyle, width: Float) -> (text: String, style: TextStyle) {
        let s = text.fitting(line, style, minimum: scale.floor, width: width)
        if text.measure(line, s).width <= width { return (line, s) }
        let winners = content.winners
        if winners.count == 1 {
            // What the line adds to a name (a space included, as a Latin name has one).
            let rest = text.measure(strings.competitionWinners(["M"]), s).width - text.measure("M", s).width
            let name = Household.cutName(winners[0].name, s, width: width - rest, text: text)
            if !name.isEmpty { return (strings.competitionWinners([name]), s) }
        } else {
            let tie = strings.competitionTie
            let t = text.fitting(tie, style, minimum: scale.floor, width: width)
            return (text.truncated(tie, t, width: width), t)
        }
        return (text.truncated(line, s, width: width), s)
    }

    func layout() -> HouseholdLayout {
        var out = HouseholdLayout()
        let n = content.entries.count
        let round = context.shape == .round
        let margin = max(4, 8 * u)
        // Everyone on one page, as large as fits: every name whole where that can be, else cut.
        for wholeNames in [true, false] {
            for factor: Float in [1.5, 1.25, 1] {
                for form in RowForm.allCases {
                    var o = HouseholdLayout()
                    if lay(rows: 0..<n, frame: frame(dots: nil, round: round, margin: margin), factor: factor, form: form,
                           wholeNames: wholeNames, into: &o) {
                        out.items = o.items
                        out.omitted = o.omitted
                        return out
                    }
                }
            }
        }
        // In pages: as many rows a page as every page holds.
        for perPage in stride(from: max(1, n - 1), through: 1, by: -1) {
            let count = (n + perPage - 1) / perPage
            let dots = PageDots(count: count, page: min(max(0, page), count - 1), scale: scale)
            let f = frame(dots: dots, round: round, margin: margin)
            for form in RowForm.allCases {
                var all = true
                var shown = HouseholdLayout()
                for p in 0..<count {
                    var o = HouseholdLayout()
                    let rows = (p * perPage)..<min(n, (p + 1) * perPage)
                    guard lay(rows: rows, frame: f, factor: 1, form: form, into: &o) else {
                        all = false
                        break
                    }
                    if p == dots.page { shown = o }
                }
                if all {
                    out.pageCount = count
                    out.page = dots.page
                    out.dots(dots, w: w, h: h, round: round, margin: margin)
                    out.items += shown.items
                    out.omitted += shown.omitted
                    return out
                }
            }
        }
        // Not even one row a page holds at its sizes: one a page, on three lines, the name cut as
        // it must.
        let count = max(1, n)
        let dots = PageDots(count: count, page: min(max(0, page), count - 1), scale: scale)
        out.pageCount = count
        out.page = dots.page
        if count > 1 { out.dots(dots, w: w, h: h, round: round, margin: margin) }
        var o = HouseholdLayout()
        _ = lay(rows: dots.page..<min(n, dots.page + 1), frame: frame(dots: count > 1 ? dots : nil, round: round, margin: margin),
                factor: 1, form: .threeLines, force: true, into: &o)
        out.items += o.items
        out.omitted += o.omitted
        return out
    }

    func frame(dots: PageDots?, round: Bool, margin: Float) -> RingScreenLayouter.PageFrame {
        RingScreenLayouter.PageFrame(w: w, h: h, round: round, margin: max(margin, 12 * u), right: dots?.room(margin: margin) ?? 0)
    }

    /// The standings' lines of `rows` on `frame`: the title (and the winners), the columns'
    /// names over one-line rows, the rows; centred. Returns false, leaving `out` as it was,
    /// where something does not fit at its size or a name not in four ems (`wholeNames`: not
    /// whole); but with `force` what does not fit is cut, a name to its room.
    func lay(rows: Range<Int>, frame: RingScreenLayouter.PageFrame, factor: Float, form: RowForm, force: Bool = false,
             wholeNames: Bool = false, into out: inout HouseholdLayout) -> Bool {
        let st = styles(factor)
        /// The room a name needs: all of it (`wholeNames`), or four ems.
        func nameRoom(_ name: String, _ style: TextStyle) -> Float {
            wholeNames ? text.measure(name, style).width : self.nameRoom(name, style)
        }
        let entries = content.entries
        let tm = text.lineMetrics(titleLine.exact, st.title)
        let winner = winnerLine
        let wm = text.lineMetrics(winner ?? "", st.winner)
        let nm = text.lineMetrics(entries.map(\.name).joined() + "Mg", st.name)
        let fm = text.lineMetrics("0", st.total)
        let cm = text.lineMetrics(strings.competitionTotal + strings.competitionToday, st.column)
        let gap = max(2, 6 * u * factor)
        let rowGap = max(3, 10 * u * factor)
        // The columns: every row's rank, total and today's points as wide as the widest of all
        // the rows (on every page), so the pages' columns line up.
        let rankW = entries.map { text.measure(strings.competitionRank($0.rank), st.rank).width }.max() ?? 0
        var totals: [FittedNumber] = []
        let lineH: Float
        let columns = form == .oneLine && showsToday
        switch form {
        case .oneLine:
            lineH = max(nm.ascent, fm.ascent) + max(nm.descent, fm.descent)
        case .twoLines:
            lineH = nm.height + fm.height
        case .threeLines:
            lineH = nm.height + fm.height + (showsToday ? text.lineMetrics(todayInline(0), st.today).height : 0)
        }
        let todayW = showsToday
            ? entries.map { text.measure(form == .oneLine ? todayColumn($0.today) : todayInline($0.today), st.today).width }.max() ?? 0
            : 0
        let headH = tm.height + (winner != nil ? wm.height : 0) + gap + (columns ? cm.height : 0)
        let total = headH + Float(rows.count) * lineH + Float(max(0, rows.count - 1)) * rowGap
        let frameH = frame.bottom - frame.top - (frame.round ? 2 * frame.margin : 0)
        guard total <= frameH || force else { return false }
        var y = frame.round ? frame.c.y - total / 2 : frame.top + (frameH - total) / 2
        // The title.
        let (tx0, tx1) = frame.span(y, y + tm.height)
        var title = text.fit(titleLine, st.title, minimum: scale.floor, width: tx1 - tx0, formsFirst: true)
        if !title.fits {
            guard force else { return false }
            title.text = text.truncated(title.text, title.style, width: tx1 - tx0)
        }
        var placed: [HouseholdLayout.Item] = []
        let (tv, _) = text.place(title, color: TextLayout.primary, baseline: y + tm.ascent, from: tx0, to: tx1, align: .center,
                                 number: false)
        placed.append(.text(tv, element: "competition.title"))
        y += tm.height
        if let winner {
            let (x0, x1) = frame.span(y, y + wm.height)
            let fitted = winnerShown(winner, st.winner, width: x1 - x0)
            let colour = content.winners.count == 1 ? Household.readable(content.winners[0].colour) : TextLayout.primary
            placed.append(.text(text.place(fitted.text, fitted.style, color: colour, baseline: y + wm.ascent, from: x0, to: x1,
                                           align: .center, full: winner), element: "competition.winner"))
            y += wm.height
        }
        y += gap
        // Each row's room, and the totals fitted to it (never shorter than a whole number).
        let columnGap = max(6, 14 * u * factor)
        var rowsTop = y + (columns ? cm.height : 0)
        var spans: [(Float, Float)] = []
        for k in 0..<rows.count {
            let top = rowsTop + Float(k) * (lineH + rowGap)
            spans.append(frame.span(top, top + lineH))
        }
        // The narrowest room any row (or the columns' names) has: every row laid out in it.
        var x0 = spans.map(\.0).max() ?? 0, x1 = spans.map(\.1).min() ?? w
        if columns {
            let (c0, c1) = frame.span(y, y + cm.height)
            x0 = max(x0, c0)
            x1 = min(x1, c1)
        }
        let totalW: Float
        switch form {
        case .oneLine:
            // rank, name, total, today: the name takes what is left.
            for e in entries {
                let f = text.fit(points(e.total), st.total, minimum: scale.figure, width: x1 - x0, faithfulOnly: true)
                totals.append(f)
            }
            let size = totals.map(\.style.size).min() ?? st.total.size
            totals = entries.map { e in
                var s = st.total
                s.size = size
                return text.fit(points(e.total), s, minimum: size, width: x1 - x0, faithfulOnly: true)
            }
            totalW = max(totals.map(\.width).max() ?? 0, columns ? text.measure(strings.competitionTotal, st.column).width : 0)
            let todayColumnW = columns ? max(todayW, text.measure(strings.competitionToday, st.column).width) : 0
            var nameW = x1 - x0 - rankW - columnGap - totalW - (columns ? columnGap + todayColumnW : 0) - columnGap
            guard totals.allSatisfy(\.fits) || force else { return false }
            guard rows.allSatisfy({ nameW >= nameRoom(entries[$0].name, st.name) }) || force else { return false }
            // Short names leave the table narrower than its room: then it is centred (the names'
            // column as wide as the widest on any page, and three ems).
            let widestName = entries.map { text.measure($0.name, st.name).width }.max() ?? 0
            let spare = nameW - min(nameW, widestName + 3 * st.name.size)
            nameW -= spare
            x0 += spare / 2
            x1 -= spare / 2
            let nameX = x0 + rankW + columnGap
            let totalX1 = x1 - (columns ? columnGap + todayColumnW : 0)
            if columns {
                let baseline = y + cm.ascent
                placed.append(.text(text.place(strings.competitionTotal, st.column, color: TextLayout.secondary, baseline: baseline,
                                               from: totalX1 - totalW, to: totalX1, align: .trailing), element: "competition.columns.points"))
                placed.append(.text(text.place(strings.competitionToday, st.column, color: TextLayout.secondary, baseline: baseline,
                                               from: x1 - todayColumnW, to: x1, align: .trailing), element: "competition.columns.today"))
            }
            for (k, index) in rows.enumerated() {
                let e = entries[index]
                let top = rowsTop + Float(k) * (lineH + rowGap)
                let baseline = top + max(nm.ascent, fm.ascent)
                let n = index + 1
                placed.append(.text(text.place(strings.competitionRank(e.rank), st.rank, color: TextLayout.secondary,
                                               baseline: baseline, from: x0, to: x0 + rankW, align: .trailing),
                                    element: "competition.\(n).rank"))
                let shown = Household.cutName(e.name, st.name, width: max(0, nameW), text: text)
                if !shown.isEmpty {
                    placed.append(.text(text.place(shown, st.name, color: Household.readable(e.colour), baseline: baseline,
                                                   from: nameX, to: nameX + nameW, align: .leading, full: e.name),
                                        element: "competition.\(n).name"))
                }
                let (tv, _) = text.place(totals[index], color: TextLayout.primary, baseline: baseline, from: totalX1 - totalW,
                                         to: totalX1, align: .trailing)
                placed.append(.text(tv, element: "competition.\(n).total"))
                if columns {
                    placed.append(.text(text.place(todayColumn(e.today), st.today, color: TextLayout.secondary, baseline: baseline,
                                                   from: x1 - todayColumnW, to: x1, align: .trailing, number: true),
                                        element: "competition.\(n).today"))
                }
            }
        case .twoLines, .threeLines:
            // rank and name; under the name, the total and today's points (beside it, or under it).
            rowsTop = y
            let room = x1 - x0 - rankW - columnGap
            let beside = form == .twoLines && showsToday
            let totalRoom = room - (beside ? columnGap + todayW : 0)
            if form == .threeLines && showsToday && todayW > room && !force { return false }
            for e in entries {
                totals.append(text.fit(points(e.total), st.total, minimum: scale.figure, width: totalRoom, faithfulOnly: true))
            }
            let size = totals.map(\.style.size).min() ?? st.total.size
            totals = entries.map { e in
                var s = st.total
                s.size = size
                return text.fit(points(e.total), s, minimum: size, width: totalRoom, faithfulOnly: true)
            }
            guard totals.allSatisfy(\.fits) || force else { return false }
            guard rows.allSatisfy({ room >= nameRoom(entries[$0].name, st.name) }) || force else { return false }
            // The rows as one block, centred in their room.
            let widest = rows.map { index -> Float in
                let e = entries[index]
                let name = text.measure(Household.cutName(e.name, st.name, width: max(0, room), text: text), st.name).width
                let points = totals[index].width + (beside ? columnGap + todayW : 0)
                let today = showsToday && !beside ? min(room, text.measure(todayInline(e.today), st.today).width) : 0
                return max(name, points, today)
            }.max() ?? room
            let shift = max(0, (room - widest) / 2)
            x0 += shift
            x1 -= shift
            let nameX = x0 + rankW + columnGap
            for (k, index) in rows.enumerated() {
                let e = entries[index]
                let top = rowsTop + Float(k) * (lineH + rowGap)
                let n = index + 1
                placed.append(.text(text.place(strings.competitionRank(e.rank), st.rank, color: TextLayout.secondary,
                                               baseline: top + nm.ascent, from: x0, to: x0 + rankW, align: .trailing),
                                    element: "competition.\(n).rank"))
                let shown = Household.cutName(e.name, st.name, width: max(0, room), text: text)
                if !shown.isEmpty {
                    placed.append(.text(text.place(shown, st.name, color: Household.readable(e.colour), baseline: top + nm.ascent,
                                                   from: nameX, to: x1, align: .leading, full: e.name),
                                        element: "competition.\(n).name"))
                }
                let baseline = top + nm.height + fm.ascent
                let (tv, _) = text.place(totals[index], color: TextLayout.primary, baseline: baseline, from: nameX, to: x1,
                                         align: .leading)
                placed.append(.text(tv, element: "competition.\(n).total"))
                if beside {
                    placed.append(.text(text.place(todayInline(e.today), st.today, color: TextLayout.secondary, baseline: baseline,
                                                   from: nameX, to: x1, align: .trailing),
                                        element: "competition.\(n).today"))
                } else if showsToday {
                    let line = todayInline(e.today)
                    let tm = text.lineMetrics(line, st.today)
                    placed.append(.text(text.place(text.truncated(line, st.today, width: room), st.today, color: TextLayout.secondary,
                                                   baseline: baseline + fm.descent + tm.ascent, from: nameX, to: x1, align: .leading,
                                                   full: line),
                                        element: "competition.\(n).today"))
                }
            }
        }
        out.items += placed
        return true
    }
}
