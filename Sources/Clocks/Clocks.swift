import Activity

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The system's clock in the local time zone (TZ).
public struct SystemLocalClock: LocalClock {
    public init() {}

    public func today() -> CalendarDay {
        let (now, parts) = Self.local()
        return CalendarDay(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
            ?? CalendarDay(daysSinceEpoch: Int(now.tv_sec / 86400))
    }

    /// Until tomorrow's 00:00 as the time zone has it (mktime: a day of 23 or 25 hours when
    /// daylight saving time starts or ends).
    public func secondsUntilMidnight() -> Double { secondsUntilMidnight(from: time(nil)) }

    func secondsUntilMidnight(from now: time_t) -> Double {
        var now = now
        var parts = tm()
        localtime_r(&now, &parts)
        parts.tm_mday += 1
        parts.tm_hour = 0
        parts.tm_min = 0
        parts.tm_sec = 0
        parts.tm_isdst = -1
        let midnight = mktime(&parts)
        guard midnight != -1, midnight > now else { return 3600 }
        return Double(midnight - now)
    }

    public func timeOfDay() -> TimeOfDay {
        let (_, parts) = Self.local()
        return TimeOfDay(hour: Int(parts.tm_hour), minute: Int(parts.tm_min)) ?? TimeOfDay(hour: 0, minute: 0)!
    }

    /// Time zones are whole minutes from UTC today, so a local minute ends when a UTC one does.
    public func secondsUntilNextMinute() -> Double {
        let (now, _) = Self.local()
        let into = Double(now.tv_sec % 60) + Double(now.tv_nsec) / 1e9
        return 60 - into
    }

    public func unixTime() -> Duration? {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
    }

    /// The zone's offset at `unix` (TZ, the C library's rules: daylight saving time included).
    public func utcOffset(at unix: Int64) -> Int {
        var t = time_t(unix)
        var parts = tm()
        guard localtime_r(&t, &parts) != nil else { return 0 }
        return Int(parts.tm_gmtoff)
    }

    /// The wall clock and its local calendar fields.
    static func local() -> (timespec, tm) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        localtime_r(&seconds, &parts)
        return (now, parts)
    }
}

/// A day that never ends, a time that never changes, or both (`--today`, `--time`, tests); what
/// is not fixed is the system's.
public struct FixedClock: LocalClock {
    /// nil: the system's today (and its midnight).
    public var day: CalendarDay?
    /// nil: the system's time of day.
    public var time: TimeOfDay?
    private let system = SystemLocalClock()

    public init(_ day: CalendarDay, time: TimeOfDay? = nil) {
        self.day = day
        self.time = time
    }

    public init(day: CalendarDay?, time: TimeOfDay?) {
        self.day = day
        self.time = time
    }

    public func today() -> CalendarDay { day ?? system.today() }
    public func secondsUntilMidnight() -> Double { day == nil ? system.secondsUntilMidnight() : .infinity }
    public func timeOfDay() -> TimeOfDay { time ?? system.timeOfDay() }
    public func secondsUntilNextMinute() -> Double { time == nil ? system.secondsUntilNextMinute() : .infinity }
    /// A fixed time has no schedule; a fixed day keeps the system's wall clock for it.
    public func unixTime() -> Duration? { time == nil ? system.unixTime() : nil }
    public func utcOffset(at unix: Int64) -> Int { system.utcOffset(at: unix) }
}

/// The wall clock, seconds since 1970.
public func wallClockNow() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_REALTIME, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}
