import Activity
import Controls
import Testing

@testable import DeviceLogic

/// The next boundary found by one sweep over the windows' edges gives what asking every window at
/// every edge gave (the earlier search, kept here as the reference), on random schedules with days
/// of the week, overlaps and both changes of daylight saving time; and its work grows with the
/// windows, not with windows × edges (issue 37: a valid 1.3 MB file blocked the loop 3.3 s).
@Suite("Schedule: the next boundary in one sweep", .timeLimit(.minutes(10)))
struct ScheduleSweepTests {
    /// The search before the sweep: every window's edges on three days around each step, and
    /// every window asked at each candidate.
    static func reference(_ s: Schedule, after unix: Int64, zone: some UTCOffsets) -> Int64? {
        guard !s.windows.isEmpty else { return nil }
        func nextEdge(_ local: Int64) -> Int64? {
            let days = local.floorDivided(by: 86400)
            var best: Int64?
            for window in s.windows {
                for day in (days - 1)...(days + 1) {
                    for minute in [window.from, window.from + window.length] {
                        let edge = day * 86400 + Int64(minute) * 60
                        if edge > local, best.map({ edge < $0 }) ?? true { best = edge }
                    }
                }
            }
            return best
        }
        let start = s.window(at: unix, zone: zone)
        let end = unix + Schedule.horizon
        var t = unix
        while t < end {
            let offset = Int64(zone.utcOffset(at: t))
            guard let edge = nextEdge(t + offset) else { return nil }
            var candidate = edge - offset
            if Int64(zone.utcOffset(at: candidate)) != offset {
                candidate = Schedule.change(after: t, before: candidate, from: offset, zone)
            }
            if s.window(at: candidate, zone: zone) != start { return candidate }
            t = candidate
        }
        return nil
    }

    /// A small deterministic generator (the same cases every run).
    struct Generator {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
    }

    @Test("the same boundary as the reference on 400 random schedules, at random instants, with and without daylight saving time")
    func sameAsReference() {
        var g = Generator(state: 37)
        let monday = Int64(CalendarDay(year: 2026, month: 3, day: 23)!.daysSinceEpoch) * 86400
        // Spring forward on the Sunday at 01:00 UTC (+1 h → +2 h), back a week later.
        let dst = MadeUpZone(base: 3600, changes: [(monday + 6 * 86400 + 3600, 7200), (monday + 13 * 86400 + 3600, 3600)])
        let zones: [MadeUpZone] = [MadeUpZone(base: 0), MadeUpZone(base: -5 * 3600), dst]
        var compared = 0
        for _ in 0..<400 {
            var windows: [ScheduleWindow] = []
            for _ in 0..<(1 + g.next(6)) {
                // Whole quarter hours, so edges meet and overlap often.
                let from = g.next(96) * 15
                var to = (1 + g.next(96)) * 15
                if to == from { to = from == 1440 ? 15 : (from + 15) }
                var days: Set<Int> = []
                if g.next(2) == 0 { for _ in 0..<(1 + g.next(3)) { days.insert(1 + g.next(7)) } }
                windows.append(ScheduleWindow(from: from, to: min(to, 1440), days: days, state: ScheduledState(brightness: Double(g.next(5)) / 4)))
            }
            let schedule = Schedule(windows)
            for zone in zones {
                let at = monday + Int64(g.next(14 * 86400))
                let got = schedule.nextBoundary(after: at, zone: zone)
                let want = Self.reference(schedule, after: at, zone: zone)
                #expect(got == want, "windows \(windows.map { ($0.from, $0.to, $0.days.sorted()) }) after \(at): \(String(describing: got)) ≠ \(String(describing: want))")
                compared += 1
            }
        }
        #expect(compared == 1200)
    }

    /// A zone that counts how often it is asked.
    final class CountingZone: UTCOffsets {
        var asked = 0
        func utcOffset(at unix: Int64) -> Int {
            asked += 1
            return 0
        }
    }

    @Test("the work: the zone asked a number of times that does not grow with the windows (the reference: with windows × edges)")
    func workLinear() {
        // Windows on Sundays only, asked on a Monday: every other day's edges change nothing.
        func schedule(_ n: Int) -> Schedule {
            Schedule((0..<n).map { i in ScheduleWindow(from: i % 1400, to: i % 1400 + 30, days: [7], state: ScheduledState(brightness: 0.5)) })
        }
        let monday = Int64(CalendarDay(year: 2026, month: 11, day: 30)!.daysSinceEpoch) * 86400 + 3600
        var asked: [Int] = []
        var referenceAsked: [Int] = []
        for n in [10, 400] {
            let zone = CountingZone()
            let boundary = schedule(n).nextBoundary(after: monday, zone: zone)
            let reference = CountingZone()
            #expect(boundary == Self.reference(schedule(n), after: monday, zone: reference))
            asked.append(zone.asked)
            referenceAsked.append(reference.asked)
        }
        // 40 times the windows: the sweep asks the zone as often (each window it asks costs one
        // pass over the windows); the reference asked about 40 times as often.
        #expect(asked[1] <= asked[0] + 2, "the zone asked \(asked) times for 10 and 400 windows")
        #expect(referenceAsked[1] > 10 * referenceAsked[0], "the reference: \(referenceAsked)")
    }
}
