import Activity
import Controls
import Raster
import Screens
import Testing

@testable import DeviceLogic

/// The household's screens on the device (issue 39): the family's rings and the competition's
/// standings made from the data's people, their pages turned by the buttons, a person stale
/// after the configured time without a push.
@Suite("Household: the family and competition screens on the device", .timeLimit(.minutes(10)))
struct HouseholdDeviceTests {
    static let today = CalendarDay(year: 2026, month: 12, day: 9)!
    static let start = CalendarDay(year: 2026, month: 12, day: 7)!
    static let t0 = Duration.seconds(500)
    /// The wall clock: 2026-12-09 12:00 UTC.
    static let unixNow = Int64(today.daysSinceEpoch) * 86400 + 12 * 3600

    static func summary(_ move: Double, _ exercise: Double, _ stand: Double) -> ActivitySummary {
        ActivitySummary(
            activeEnergyBurned: .kilocalories(move), activeEnergyBurnedGoal: .kilocalories(500), exerciseTime: exercise,
            exerciseTimeGoal: 30, standHours: stand, standHoursGoal: 12)
    }

    final class Data: ShownData {
        var people: [HouseholdPerson] = []
        /// The days each call asked for.
        var asked: [[CalendarDay]] = []
        func summary(for day: CalendarDay) -> ActivitySummary? { nil }
        func summaries(_ list: [CalendarDay]) -> [CalendarDay: ActivitySummary] { [:] }
        func gauges(now: Duration) -> [Gauge] { [] }
        func task() -> ProgressContent? { nil }
        func cancelTask() {}
        func showGauges(_ shown: Bool, now: Duration) -> Bool { false }
        func household(_ days: [CalendarDay]) -> [HouseholdPerson] {
            asked.append(days)
            return people.map { p in
                var q = p
                q.days = p.days.filter { days.contains($0.key) }
                return q
            }
        }
    }

    struct Clock: LocalClock {
        func today() -> CalendarDay { HouseholdDeviceTests.today }
        func secondsUntilMidnight() -> Double { .infinity }
        func timeOfDay() -> TimeOfDay { TimeOfDay(hour: 12, minute: 0)! }
        func secondsUntilNextMinute() -> Double { 60 }
        func unixTime() -> Duration? { .seconds(HouseholdDeviceTests.unixNow) }
    }

    static func data() -> Data {
        let d = Data()
        d.people = [
            HouseholdPerson(
                id: 1, name: "Me", colour: "#ffb340", lastPush: nil,
                days: [start: summary(500, 30, 12), start.adding(days: 1): summary(1000, 30, 12), today: summary(250, 15, 6)]),
            HouseholdPerson(
                id: 2, name: "Ann", colour: "#5ac8fa", lastPush: unixNow - 13 * 3600,
                days: [start: summary(250, 60, 6), today: summary(400, 30, 12)]),
            HouseholdPerson(id: 3, name: "Bo", colour: "#ff6b9a", lastPush: unixNow - 600, days: [:]),
        ]
        return d
    }

    static func device(_ data: Data, size: Size, screens: [ScreenKind] = [.family, .competition]) -> TestDevice {
        var maker = ScreenMaker(text: PageNavigationTests.Measure(), locale: .english)
        maker.competitionStart = start
        maker.staleAfter = 12 * 3600
        return TestDevice(
            DeviceState(
                screens: screens, maker: maker, data: data,
                router: InputRouter(keyMap: KeyMap(bindings: [105: .previousDay, 28: .select]), touch: TouchSetting(), panel: size, rotation: .none),
                idle: IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 0.3), clock: Clock(), intro: false, now: t0))
    }

    @Test("the family screen: everyone's today from the data's people; stale only past staleAfter since a push")
    func family() throws {
        let data = Self.data()
        let c = Self.device(data, size: Size(width: 800, height: 480))
        let screen = try #require(c.scene(now: Self.t0).frame(at: Self.t0).screen as? FamilyScreen)
        #expect(data.asked.contains([Self.today]))
        #expect(screen.members.map(\.name) == ["Me", "Ann", "Bo"])
        #expect(screen.members.map(\.summary) == [Self.summary(250, 15, 6), Self.summary(400, 30, 12), nil])
        #expect(screen.members.map(\.stale) == [false, true, false], "Ann pushed 13 h ago (12 allowed), Bo 10 min ago, Me never")
        #expect(screen.members[1].lastPush == "13 h ago" && screen.members[0].lastPush == "" && screen.members[2].lastPush == "")
        #expect(screen.members[1].colour == Color(hex: 0x5ac8fa))
        #expect(c.showsTime, "the family screen wakes each minute: people turn stale as the clock goes")
    }

    @Test("on a 240x240 panel the family is one a page: Enter turns them, then the competition")
    func pages() {
        let data = Self.data()
        let c = Self.device(data, size: Size(width: 240, height: 240))
        let pages = c.pageCount(of: .family, now: Self.t0)
        #expect(pages == 3, "one person a page on a 1.3\" panel")
        var now = Self.t0
        var seen: [Int] = []
        for _ in 1..<pages {
            now += .seconds(1)
            #expect(PageNavigationTests.press(28, c, at: now))
            seen.append(PageNavigationTests.shown(c, now).page)
            #expect(c.navigation.screen == .family)
        }
        #expect(seen == [1, 2])
        now += .seconds(1)
        #expect(PageNavigationTests.press(28, c, at: now))
        #expect(c.navigation.screen == .competition)
    }

    @Test("the competition: its days up to today asked for, the standings Apple's way from them")
    func competition() throws {
        let data = Self.data()
        let c = Self.device(data, size: Size(width: 800, height: 480), screens: [.competition])
        let screen = try #require(c.scene(now: Self.t0).frame(at: Self.t0).screen as? CompetitionScreen)
        #expect(data.asked.contains([Self.start, Self.start.adding(days: 1), Self.today]))
        // Me: 300, then 400 (Move at 200 % is 200 points), then 150 today: 850. Ann: 50 + 200
        // (Exercise at 200 %) + 50 on the first day, nothing on the second, 80 + 100 + 100 today:
        // 580. Bo: nothing.
        #expect(screen.content.entries.map(\.name) == ["Me", "Ann", "Bo"])
        #expect(screen.content.entries.map(\.total) == [850, 580, 0])
        #expect(screen.content.entries.map(\.today) == [150, 280, 0])
        #expect(screen.content.entries.map(\.rank) == [1, 2, 3])
        #expect(screen.content.day == 3 && screen.content.days == 7 && !screen.content.finished)
    }

    @Test("the competition's people by name or id; without a competition the screen says there is none")
    func participants() throws {
        let data = Self.data()
        var maker = ScreenMaker(text: PageNavigationTests.Measure(), locale: .english)
        maker.competitionStart = Self.start
        maker.competitionPeople = ["ann", "3"]
        #expect(maker.competition(among: data.people)?.participants == [2, 3])
        maker.competitionStart = nil
        let none = try #require(maker.competitionScreen(data.people, today: Self.today) as? CompetitionScreen)
        #expect(none.content.entries.isEmpty && none.content.notice == "No competition")
        #expect(maker.competitionDays(today: Self.today).isEmpty)
    }
}
