import Activity
import App

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The local calendar and the environment's language, read from the system (TZ, LANG).
enum SystemClock {
    /// Today in the local time zone.
    static func today() -> CalendarDay { SystemLocalClock().today() }

    /// The first set of LC_ALL, LC_MESSAGES, LANG.
    static func languageVariable() -> String? {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = getenv(name), value.pointee != 0 { return String(cString: value) }
        }
        return nil
    }
}
