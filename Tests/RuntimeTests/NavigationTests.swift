@testable import DeviceLogic
import Activity
import Configuration
import Controls
import Input
import Raster
import Testing

@testable import Runtime

@Suite("Navigation and idle", .timeLimit(.minutes(10)))
struct NavigationTests {
    static let today = CalendarDay(year: 2026, month: 11, day: 29)!

    @Test("screens cycle in the configured order, skipping those with nothing to show")
    func screens() {
        var n = Navigation(screen: .rings, today: Self.today)
        let changed1 = n.apply(.nextScreen, available: [.rings, .progress])
        #expect(changed1 && n.screen == .progress)
        let changed2 = n.apply(.nextScreen, available: [.rings, .progress])
        #expect(changed2 && n.screen == .rings)
        let changed3 = n.apply(.previousScreen, available: [.rings, .gauges, .progress])
        #expect(changed3 && n.screen == .progress)
        let changed4 = n.apply(.select, available: [.rings, .gauges, .progress])
        #expect(changed4 && n.screen == .rings)
        // The task ended: its screen goes.
        n.screen = .progress
        let changed5 = n.settle(available: [.rings, .gauges])
        #expect(changed5 && n.screen == .rings)
    }

    @Test("days: back without limit, forward a week past today; today jumps back to today's rings")
    func days() {
        var n = Navigation(screen: .rings, today: Self.today)
        for _ in 0..<40 { n.apply(.previousDay, available: [.rings]) }
        #expect(n.day == Self.today.adding(days: -40))
        n.apply(.today, available: [.rings, .gauges])
        #expect(n.day == Self.today)
        for _ in 0..<20 { n.apply(.nextDay, available: [.rings]) }
        #expect(n.day == Self.today.adding(days: Navigation.daysAhead))
        n.screen = .gauges
        let changed6 = n.apply(.previousDay, available: [.rings, .gauges])
        #expect(!changed6, "days change on the ring screen only")
        let changed7 = n.apply(.today, available: [.rings, .gauges])
        #expect(changed7 && n.screen == .rings && n.day == Self.today)
        let changed8 = n.apply(.cancel, available: [.rings])
        #expect(!changed8)
    }

    @Test("midnight: a view of today moves on to the new today; another day stays")
    func midnight() {
        var n = Navigation(screen: .rings, today: Self.today)
        let changed9 = n.newDay(Self.today.adding(days: 1))
        #expect(changed9 && n.day == Self.today.adding(days: 1))
        n.apply(.previousDay, available: [.rings])
        let viewed = n.day
        let changed10 = n.newDay(Self.today.adding(days: 2))
        #expect(changed10 && n.day == viewed)
        let changed11 = n.newDay(Self.today.adding(days: 2))
        #expect(!changed11)
    }

    @Test("idle: awake, dimmed after N seconds, blank after M, and when next to wake up")
    func idle() {
        let s = IdleSchedule(dimAfter: 60, blankAfter: 300, dimLevel: 0.3)
        #expect(s.level(idleFor: 10) == .awake && s.level(idleFor: 60) == .dimmed(0.3) && s.level(idleFor: 300) == .blank)
        #expect(s.nextChange(idleFor: 10) == 60 && s.nextChange(idleFor: 100) == 300 && s.nextChange(idleFor: 400) == nil)
        let never = IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 0.3)
        #expect(never.level(idleFor: 1e9) == .awake && never.nextChange(idleFor: 0) == nil)
    }
}
