import Activity

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The local calendar and the environment's language, read from the system (TZ, LANG).
enum SystemClock {
    /// Today in the local time zone.
    static func today() -> CalendarDay {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return CalendarDay(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
            ?? CalendarDay(daysSinceEpoch: Int(now / 86400))
    }

    /// The first set of LC_ALL, LC_MESSAGES, LANG.
    static func languageVariable() -> String? {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = getenv(name), value.pointee != 0 { return String(cString: value) }
        }
        return nil
    }
}
