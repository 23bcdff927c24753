// The clock as the device's logic and the helpers ask it: protocols only, the C library's
// calendar is Clocks' (and a test's made-up one its own).

/// The local time zone's offset from UTC, at an instant: the C library's (`tm_gmtoff`), or a
/// test's made-up zone.
public protocol UTCOffsets {
    /// Seconds east of UTC at `unix` (seconds since the Unix epoch).
    func utcOffset(at unix: Int64) -> Int
}

/// The local calendar and wall clock: what today is, what time it is, and how long until the
/// next day and the next minute.
public protocol LocalClock: UTCOffsets {
    func today() -> CalendarDay
    /// Seconds until the next local midnight (∞: a day that never ends).
    func secondsUntilMidnight() -> Double
    /// The time of day now, to the minute.
    func timeOfDay() -> TimeOfDay
    /// Seconds until the next minute begins (∞: a time that never changes).
    func secondsUntilNextMinute() -> Double
    /// The wall clock now, since the Unix epoch (nil: a time that never changes, and no schedule
    /// follows it).
    func unixTime() -> Duration?
}

extension LocalClock {
    public func unixTime() -> Duration? { nil }
    public func utcOffset(at unix: Int64) -> Int { 0 }
}
