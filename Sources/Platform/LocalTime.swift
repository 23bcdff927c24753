#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The board's local time (TZ, else /etc/localtime), as `localtime_r` and `mktime` give it: what
/// a feed's `LocalCalendar.system` is made of (Feeds, being pure, calls no C library).
public enum LocalTime {
    /// A moment's local date and time and its offset from UTC (seconds east); nil when the C
    /// library cannot say (a year out of its range).
    public static func parts(_ seconds: Int64)
        -> (year: Int, month: Int, day: Int, minute: Int, second: Int, offset: Int)?
    {
        var t = time_t(seconds)
        var p = tm()
        guard localtime_r(&t, &p) != nil else { return nil }
        return (Int(p.tm_year) + 1900, Int(p.tm_mon) + 1, Int(p.tm_mday), Int(p.tm_min), Int(p.tm_sec), Int(p.tm_gmtoff))
    }

    /// The first second of a local date (its midnight; where a change of clocks skips midnight,
    /// the first moment that exists).
    public static func midnight(year: Int, month: Int, day: Int) -> Int64? {
        var p = tm()
        p.tm_year = Int32(year - 1900)
        p.tm_mon = Int32(month - 1)
        p.tm_mday = Int32(day)
        p.tm_isdst = -1
        let t = mktime(&p)
        return t == -1 ? nil : Int64(t)
    }
}
