import Activity
import Raster
import Screens
import Testing
import Text

/// The competitions the tests draw: the household of `FamilyCase` on the fourth day of seven
/// (two of them tied for third), and the same week over.
enum CompetitionCase {
    static func people(_ locale: AppLocale, longNames: Bool = false) -> [(name: String, colour: Color)] {
        FamilyCase.members(locale, count: 4, longNames: longNames).map { ($0.name, $0.colour) }
    }

    /// Day 4 of 7: totals, today's points, ranks (a tie for third).
    static func running(_ locale: AppLocale, count: Int, longNames: Bool = false) -> CompetitionContent {
        let p = people(locale, longNames: longNames)
        let rows: [(Int, Int, Int)] = [(1, 1650, 600), (2, 1548, 133), (3, 1348, 600), (3, 1348, 300)]
        let entries = (0..<count).map { i in
            CompetitionEntry(name: p[i].name, colour: p[i].colour, rank: rows[i].0, total: rows[i].1, today: rows[i].2)
        }
        return CompetitionContent(entries: CompetitionCase.reranked(entries), day: 4, days: 7, finished: false)
    }

    /// The week over: the first two tied for the win where there are four.
    static func finished(_ locale: AppLocale, count: Int, longNames: Bool = false) -> CompetitionContent {
        let p = people(locale, longNames: longNames)
        let totals = count == 4 ? [2004, 2004, 1862, 1799] : [2004, 1862, 1799, 1050]
        let entries = (0..<count).map { i in
            CompetitionEntry(name: p[i].name, colour: p[i].colour, rank: 0, total: totals[i], today: 0)
        }
        return CompetitionContent(entries: reranked(entries), day: nil, days: 7, finished: true)
    }

    /// The ranks of entries best first (a tie shares one).
    static func reranked(_ entries: [CompetitionEntry]) -> [CompetitionEntry] {
        var out = entries
        for i in out.indices { out[i].rank = i > 0 && out[i].total == out[i - 1].total ? out[i - 1].rank : i + 1 }
        return out
    }
}

@Suite("Competition screen: standings, day k of N, the winners; paged where rows do not fit legibly", .timeLimit(.minutes(20)))
struct CompetitionScreenTests {
    static var panels: [(Size, PanelShape)] { FamilyScreenTests.panels }

    @Test("every page at every size: the layout check, every total at 20′, every row drawn once, nothing outside a round panel",
          arguments: AppLocale.allCases, [1, 2, 3, 4])
    func layouts(locale: AppLocale, count: Int) throws {
        let text = try LayoutCheck.renderer(locale)
        let contents: [(String, CompetitionContent)] = [false, true].flatMap { long in
            [("running", CompetitionCase.running(locale, count: count, longNames: long)),
             ("finished", CompetitionCase.finished(locale, count: count, longNames: long)),
             ("before", CompetitionContent(entries: CompetitionCase.running(locale, count: count, longNames: long).entries.map {
                 var e = $0
                 e.total = 0
                 e.today = 0
                 e.rank = 1
                 return e
             }, day: nil, days: 7, finished: false, startsIn: 2))].map { ($0.0 + (long ? " long names" : ""), $0.1) }
        }
        for (name, content) in contents {
            for (size, shape) in Self.panels {
                let screen = CompetitionScreen(content: content, context: ScreenContext(text: text, locale: locale, shape: shape))
                let pages = screen.pageCount(for: size)
                var seen: [Int: Int] = [:]
                for page in 0..<pages {
                    let e = Explanation(of: screen.showing(page: page), size: size, shape: shape, capRatio: text.capRatio)
                    let what = "competition \(name) of \(count) page \(page + 1)/\(pages) \(size) \(shape) \(locale)"
                    LayoutCheck.check(e, what)
                    #expect(e.omitted.isEmpty, "\(what): left out \(e.omitted)")
                    #expect(e.texts.contains { $0.element == "competition.title" }, "\(what): no title")
                    #expect(e.texts.contains { $0.element == "competition.winner" } == content.finished, "\(what): winner line")
                    for i in content.entries.indices {
                        let total = e.texts.filter { $0.element == "competition.\(i + 1).total" }
                        guard let run = total.first else { continue }
                        seen[i, default: 0] += 1
                        #expect(e.capHeight(run).arcMinutes >= Legibility.figureArcMinutes - 0.05,
                                "\(what): total of \(i + 1) '\(run.text)' makes \(e.capHeight(run).arcMinutes)′")
                        // Whole: the number as written ("1650", "2004"), never shorter.
                        #expect(run.text == String(content.entries[i].total), "\(what): total '\(run.text)'")
                        #expect(e.texts.contains { $0.element == "competition.\(i + 1).name" }, "\(what): no name for \(i + 1)")
                        #expect(e.texts.contains { $0.element == "competition.\(i + 1).rank" }, "\(what): no rank for \(i + 1)")
                        let today = e.texts.first { $0.element == "competition.\(i + 1).today" }
                        if content.day != nil {
                            #expect(today?.text.contains(String(content.entries[i].today)) == true, "\(what): today of \(i + 1)")
                        } else {
                            #expect(today == nil, "\(what): today's points when it is not running")
                        }
                    }
                    if shape == .round {
                        let frame = FrameComposer(panel: size).render(screen.showing(page: page))
                        #expect(LayoutCheck.litOutsideCircle(frame) == 0, "\(what): lit outside the circle")
                    }
                }
                // Every row on exactly one page.
                #expect(seen.count == content.entries.count && seen.values.allSatisfy { $0 == 1 },
                        "competition \(name) of \(count) \(size) \(shape) \(locale): rows drawn \(seen)")
            }
        }
    }

    @Test("a household of eight (the most a store keeps): every row on one page, every page checked", arguments: AppLocale.allCases)
    func eight(locale: AppLocale) throws {
        let text = try LayoutCheck.renderer(locale)
        let names = locale == .english
            ? ["Karan", "Maximilian Alexander", "Ann", "Bo", "Christopher", "Dee", "Evangeline Rose", "Fu"]
            : ["小林", "欧阳娜娜", "安", "博", "司马相如", "迪", "诸葛明月", "福"]
        let entries = CompetitionCase.reranked(names.enumerated().map { i, name in
            CompetitionEntry(name: name, colour: Color(hex: [0xFF9F0A, 0x0A84FF, 0xBF5AF2, 0x1A237E][i % 4]), rank: 0,
                             total: 4200 - 300 * i - (i == 5 ? 300 : 0), today: 600 - 50 * i)
        })
        let content = CompetitionContent(entries: entries, day: 7, days: 7, finished: false)
        for (size, shape) in Self.panels {
            let screen = CompetitionScreen(content: content, context: ScreenContext(text: text, locale: locale, shape: shape))
            var seen: [String: Int] = [:]
            for page in 0..<screen.pageCount(for: size) {
                let e = Explanation(of: screen.showing(page: page), size: size, shape: shape, capRatio: text.capRatio)
                LayoutCheck.check(e, "eight page \(page + 1) \(size) \(shape) \(locale)")
                for run in e.texts where run.element.hasSuffix(".total") { seen[run.element, default: 0] += 1 }
            }
            #expect(seen.count == 8 && seen.values.allSatisfy { $0 == 1 }, "eight \(size) \(shape) \(locale): \(seen)")
        }
    }

    @Test("one page on a large panel, pages on the small and round ones")
    func pages() throws {
        let text = try LayoutCheck.renderer(.english)
        let content = CompetitionCase.running(.english, count: 4)
        func pages(_ size: Size, _ shape: PanelShape = .rectangle) -> Int {
            CompetitionScreen(content: content, context: ScreenContext(text: text, shape: shape)).pageCount(for: size)
        }
        #expect(pages(Size(width: 800, height: 480)) == 1)
        #expect(pages(Size(width: 720, height: 1280)) == 1)
        #expect(pages(Size(width: 240, height: 240)) > 1)
        #expect(pages(Size(width: 240, height: 240), .round) > 1)
    }

    @Test("the standings of a competition, with names and colours, as the screen's content")
    func fromStandings() {
        let start = CalendarDay(year: 2026, month: 11, day: 23)!
        let c = Competition(start: start, participants: [1, 2])!
        let day = ActivitySummary(activeEnergyBurned: .kilocalories(750), activeEnergyBurnedGoal: .kilocalories(500),
                                  exerciseTime: 30, exerciseTimeGoal: 30, standHours: 6, standHoursGoal: 12)
        let s = c.standings(days: [2: [start: day]], today: start)
        let content = CompetitionContent(standings: s) { id in
            id == 1 ? ("Ann", Color(hex: 0xFF0000)) : ("Bo", Color(hex: 0x00FF00))
        }
        #expect(content.entries.map(\.name) == ["Bo", "Ann"])
        #expect(content.entries.map(\.total) == [300, 0])
        #expect(content.entries.map(\.today) == [300, 0])
        #expect(content.entries.map(\.rank) == [1, 2])
        #expect(content.day == 1 && content.days == 7 && !content.finished)
        #expect(content.winners.isEmpty)
    }

    @Test("labels in both languages")
    func labels() {
        let en = AppLocale.english.strings, zh = AppLocale.simplifiedChinese.strings
        #expect(en.competitionDay(3, of: 7) == "Day 3 of 7")
        #expect(zh.competitionDay(3, of: 7) == "第 3 天，共 7 天")
        #expect(en.competitionWinners(["Ann"]) == "Ann wins")
        #expect(en.competitionWinners(["Ann", "Bo"]) == "Ann and Bo tie")
        #expect(en.competitionWinners(["Ann", "Bo", "Cy"]) == "Ann, Bo and Cy tie")
        #expect(zh.competitionWinners(["安"]) == "安获胜")
        #expect(zh.competitionWinners(["安", "博"]) == "安和博并列第一")
        #expect(zh.competitionWinners(["小林", "Ann", "博"]) == "小林、Ann 和博并列第一")
        #expect(zh.competitionWinners(["Ann"]) == "Ann 获胜")
        #expect(en.competitionStartsIn(days: 1) == "Starts tomorrow")
        #expect(zh.competitionStartsIn(days: 3) == "3 天后开始")
        #expect(en.competitionFinal == "Final" && zh.competitionFinal == "最终结果")
        #expect(en.competitionTodayPoints("320") == "today 320" && zh.competitionTodayPoints("320") == "今天 320")
    }
}
