import Activity
import Controls
import DeviceLogic
import Testing

/// A time zone made up for the tests: `base` seconds east of UTC, then each change's offset from
/// its instant on.
struct MadeUpZone: UTCOffsets {
    var base: Int
    var changes: [(at: Int64, offset: Int)] = []
    func utcOffset(at unix: Int64) -> Int { changes.last { $0.at <= unix }?.offset ?? base }
}

/// The schedule's decisions against a made-up clock: windows, overlaps, midnight, the days of the
/// week, both changes of daylight saving time, overrides.
@Suite("Schedule: windows of the local clock", .timeLimit(.minutes(10)))
struct ScheduleTests {
    /// Monday 30 November 2026.
    static let monday = CalendarDay(year: 2026, month: 11, day: 30)!
    static let utc = MadeUpZone(base: 0)
    static let off = ScheduledState(brightness: 0)
    static let clockOnly = ScheduledState(brightness: 0.3, screens: [.clock], cycle: .clear)

    /// Seconds since the epoch of `time` ("HH:MM") on `day` as a clock `offset` seconds east of UTC
    /// reads it.
    static func at(_ day: CalendarDay, _ time: String, offset: Int = 0) -> Int64 {
        let t = TimeOfDay(parsing: time)!
        return Int64(day.daysSinceEpoch) * 86400 + Int64(t.minutes) * 60 - Int64(offset)
    }

    static func minutes(_ time: String) -> Int { time == "24:00" ? 1440 : TimeOfDay(parsing: time)!.minutes }

    static func window(_ from: String, _ to: String, days: Set<Int> = [], _ state: ScheduledState) -> ScheduleWindow {
        ScheduleWindow(from: minutes(from), to: minutes(to), days: days, state: state)
    }

    /// Off 23:00–06:30, the clock alone 21:00–23:00, the configuration's otherwise.
    static let night = Schedule([window("23:00", "06:30", off), window("21:00", "23:00", clockOnly)])

    @Test("the window in force, and the next boundary: the next instant another one is")
    func windows() {
        let s = Self.night, d = Self.monday
        #expect(s.state(at: Self.at(d, "12:00"), zone: Self.utc) == ScheduledState(), "outside every window: the configuration's")
        #expect(s.nextBoundary(after: Self.at(d, "12:00"), zone: Self.utc) == Self.at(d, "21:00"))
        #expect(s.state(at: Self.at(d, "21:00"), zone: Self.utc) == Self.clockOnly, "a window starts at its from")
        #expect(s.state(at: Self.at(d, "20:59") + 59, zone: Self.utc) == ScheduledState())
        #expect(s.nextBoundary(after: Self.at(d, "21:00"), zone: Self.utc) == Self.at(d, "23:00"))
        #expect(s.state(at: Self.at(d, "23:00"), zone: Self.utc) == Self.off, "and ends at its to")
    }

    @Test("a window that ends at or before it starts crosses midnight; 24:00 ends a day")
    func midnight() {
        let s = Self.night, d = Self.monday, tuesday = d.adding(days: 1)
        #expect(s.state(at: Self.at(d, "23:59"), zone: Self.utc).off)
        #expect(s.state(at: Self.at(tuesday, "00:00"), zone: Self.utc).off)
        #expect(s.state(at: Self.at(tuesday, "06:29"), zone: Self.utc).off)
        #expect(!s.state(at: Self.at(tuesday, "06:30"), zone: Self.utc).off)
        #expect(s.nextBoundary(after: Self.at(d, "23:30"), zone: Self.utc) == Self.at(tuesday, "06:30"))
        #expect(s.nextBoundary(after: Self.at(tuesday, "03:00"), zone: Self.utc) == Self.at(tuesday, "06:30"))
        // Evening to the end of the day, then the morning: two windows, a boundary at midnight.
        let split = Schedule([Self.window("20:00", "24:00", Self.off), Self.window("00:00", "06:00", Self.off)])
        #expect(split.window(at: Self.at(d, "23:59"), zone: Self.utc) == 0)
        #expect(split.window(at: Self.at(tuesday, "00:00"), zone: Self.utc) == 1)
        #expect(split.nextBoundary(after: Self.at(d, "21:00"), zone: Self.utc) == Self.at(tuesday, "00:00"))
        // The whole day, every day: no boundary ever.
        #expect(Schedule([Self.window("00:00", "24:00", Self.off)]).nextBoundary(after: Self.at(d, "12:00"), zone: Self.utc) == nil)
        #expect(Schedule().nextBoundary(after: Self.at(d, "12:00"), zone: Self.utc) == nil)
    }

    @Test("where windows overlap the first listed wins, whole")
    func overlaps() {
        let d = Self.monday
        let dim = ScheduledState(brightness: 0.5)
        let first = Schedule([Self.window("22:00", "23:00", Self.off), Self.window("21:00", "24:00", dim)])
        #expect(first.state(at: Self.at(d, "21:30"), zone: Self.utc) == dim)
        #expect(first.state(at: Self.at(d, "22:30"), zone: Self.utc) == Self.off)
        #expect(first.state(at: Self.at(d, "23:30"), zone: Self.utc) == dim)
        #expect(first.nextBoundary(after: Self.at(d, "21:30"), zone: Self.utc) == Self.at(d, "22:00"))
        #expect(first.nextBoundary(after: Self.at(d, "22:30"), zone: Self.utc) == Self.at(d, "23:00"))
        // The wide one first: the narrow one never holds, and its edges are no boundaries.
        let wide = Schedule([Self.window("21:00", "24:00", dim), Self.window("22:00", "23:00", Self.off)])
        #expect(wide.state(at: Self.at(d, "22:30"), zone: Self.utc) == dim)
        #expect(wide.nextBoundary(after: Self.at(d, "21:30"), zone: Self.utc) == Self.at(d.adding(days: 1), "00:00"))
    }

    @Test("days of the week: a window belongs to the day it starts on, and ends the next morning")
    func daysOfTheWeek() {
        let d = Self.monday
        #expect(d.weekday == 1)
        let friday = d.adding(days: 4), saturday = d.adding(days: 5), sunday = d.adding(days: 6)
        let late = Schedule([Self.window("23:00", "02:00", days: [5, 6], Self.off)])
        #expect(!late.state(at: Self.at(d.adding(days: 3), "23:30"), zone: Self.utc).off, "Thursday")
        #expect(late.state(at: Self.at(friday, "23:30"), zone: Self.utc).off)
        #expect(late.state(at: Self.at(saturday, "01:00"), zone: Self.utc).off, "Friday's window, on Saturday morning")
        #expect(late.state(at: Self.at(sunday, "01:59"), zone: Self.utc).off, "Saturday's")
        #expect(!late.state(at: Self.at(sunday, "23:30"), zone: Self.utc).off, "Sunday")
        #expect(!late.state(at: Self.at(d.adding(days: 7), "01:00"), zone: Self.utc).off, "Monday morning")
        // From Sunday morning the next boundary is next Friday's start, five days on.
        #expect(late.nextBoundary(after: Self.at(sunday, "03:00"), zone: Self.utc) == Self.at(d.adding(days: 11), "23:00"))
        // Friday night into Saturday night: the windows join, Saturday's end is the boundary.
        #expect(late.nextBoundary(after: Self.at(saturday, "01:00"), zone: Self.utc) == Self.at(saturday, "02:00"))
    }

    @Test("daylight saving time starts: a boundary in the skipped hour comes at the change, later ones on the new offset")
    func springForward() {
        // A zone an hour east of UTC going to two at 02:00 local (01:00 UTC) on Sunday 29 March 2026.
        let day = CalendarDay(year: 2026, month: 3, day: 29)!
        let change = Self.at(day, "01:00")
        let zone = MadeUpZone(base: 3600, changes: [(change, 7200)])
        // Off from 02:30, a time that day does not have: off from the change (03:00 local).
        let skipped = Schedule([Self.window("02:30", "05:00", Self.off)])
        #expect(skipped.nextBoundary(after: Self.at(day, "01:00", offset: 3600), zone: zone) == change)
        #expect(skipped.state(at: change, zone: zone).off)
        #expect(!skipped.state(at: change - 1, zone: zone).off)
        // Its end, 05:00, on the new offset.
        #expect(skipped.nextBoundary(after: change, zone: zone) == Self.at(day, "05:00", offset: 7200))
        // A window ending in the skipped hour ends at the change.
        let ending = Schedule([Self.window("01:30", "02:30", Self.off)])
        #expect(ending.nextBoundary(after: Self.at(day, "01:45", offset: 3600), zone: zone) == change)
        #expect(!ending.state(at: change, zone: zone).off)
        // The morning's 06:30 is 04:30 UTC, not 05:30.
        #expect(Self.night.nextBoundary(after: change, zone: zone) == Self.at(day, "06:30", offset: 7200))
    }

    @Test("daylight saving time ends: the repeated hour brings a window back, later boundaries on the new offset")
    func fallBack() {
        // Two hours east of UTC going to one at 03:00 local (01:00 UTC) on Sunday 25 October 2026.
        let day = CalendarDay(year: 2026, month: 10, day: 25)!
        let change = Self.at(day, "01:00")
        let zone = MadeUpZone(base: 7200, changes: [(change, 3600)])
        let s = Schedule([Self.window("02:30", "04:00", Self.off)])
        let first = Self.at(day, "02:30", offset: 7200)
        #expect(s.nextBoundary(after: Self.at(day, "02:00", offset: 7200), zone: zone) == first, "the first 02:30")
        #expect(s.state(at: first, zone: zone).off)
        // At the change the clock reads 02:00 again: out of the window, and in it again at the second 02:30.
        #expect(s.nextBoundary(after: first, zone: zone) == change)
        #expect(!s.state(at: change, zone: zone).off)
        let second = Self.at(day, "02:30", offset: 3600)
        #expect(s.nextBoundary(after: change, zone: zone) == second)
        #expect(s.nextBoundary(after: second, zone: zone) == Self.at(day, "04:00", offset: 3600))
        // A change inside a window is no boundary: the night's window, from 01:00 (before the
        // change), ends at 06:30 on the new offset.
        #expect(Self.night.nextBoundary(after: Self.at(day, "01:00", offset: 7200), zone: zone) == Self.at(day, "06:30", offset: 3600))
        // And the evening's 21:00 too.
        #expect(Self.night.nextBoundary(after: Self.at(day, "12:00", offset: 3600), zone: zone) == Self.at(day, "21:00", offset: 3600))
    }

    @Test("an override holds until the schedule's next boundary, then the windows do")
    func overrides() {
        let d = Self.monday, tuesday = d.adding(days: 1)
        let s = Self.night
        // A touch at half past eleven wakes the panel in the night's window: lit until 06:30.
        var lit = s.state(at: Self.at(d, "23:30"), zone: Self.utc)
        lit.brightness = nil
        let override = s.override(lit, at: Self.at(d, "23:30"), zone: Self.utc)
        #expect(override.until == Self.at(tuesday, "06:30"))
        let night = s.decide(at: Self.at(tuesday, "02:00"), zone: Self.utc, override: override)
        #expect(night.overridden && night.state == ScheduledState() && night.window == 0 && night.next == Self.at(tuesday, "06:30"))
        let morning = s.decide(at: Self.at(tuesday, "06:30"), zone: Self.utc, override: override)
        #expect(!morning.overridden && morning.state == ScheduledState() && morning.next == Self.at(tuesday, "21:00"))
        // In the evening's window: the override ends at 23:00, and the night's window holds.
        let evening = s.override(Self.off, at: Self.at(tuesday, "21:10"), zone: Self.utc)
        #expect(evening.until == Self.at(tuesday, "23:00"))
        #expect(s.decide(at: Self.at(tuesday, "22:59") + 59, zone: Self.utc, override: evening).overridden)
        let after = s.decide(at: Self.at(tuesday, "23:00"), zone: Self.utc, override: evening)
        #expect(!after.overridden && after.state == Self.off && after.window == 0 && after.next == Self.at(d.adding(days: 2), "06:30"))
        // Without windows an override has no end.
        #expect(Schedule().override(Self.off, at: 0, zone: Self.utc).until == nil)
        #expect(Schedule().decide(at: 1_000_000, zone: Self.utc, override: ScheduleOverride(state: Self.off, until: nil)).state.off)
    }
}
