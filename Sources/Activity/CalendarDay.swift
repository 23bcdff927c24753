/// A local calendar date (proleptic Gregorian), the key of a day's summary.
public struct CalendarDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A valid date, or nil (month 1...12, day within the month, year 1...9999).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...Self.daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD` exactly (as in `dateComponents` of a Health export).
    public init?(iso text: some StringProtocol) { self.init(isoBytes: Array(text.utf8)) }

    /// The same for a string: not generic, so that a caller in another module (the store reading
    /// its dates at every start) does not run the generic body, whose associated types the
    /// runtime looks up by name the first time.
    public init?(iso text: String) { self.init(isoBytes: Array(text.utf8)) }

    /// The same for a part of a string.
    public init?(iso text: Substring) { self.init(isoBytes: Array(text.utf8)) }

    private init?(isoBytes bytes: [UInt8]) {
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var n = 0
            for i in range {
                let d = Int(bytes[i]) - 48
                guard (0...9).contains(d) else { return nil }
                n = n * 10 + d
            }
            return n
        }
        guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// The day `days` after 1970-01-01 (negative: before).
    public init(daysSinceEpoch days: Int) {
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (m <= 2 ? 1 : 0)
        month = m
        day = d
    }

    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// ISO weekday: 1 = Monday … 7 = Sunday.
    public var weekday: Int {
        let d = daysSinceEpoch  // 1970-01-01 was a Thursday (4)
        return ((d % 7 + 7) % 7 + 3) % 7 + 1
    }

    public func adding(days: Int) -> CalendarDay { CalendarDay(daysSinceEpoch: daysSinceEpoch + days) }

    /// The first and last dates a `CalendarDay` holds (years 1 to 9999).
    public static let earliest = CalendarDay(year: 1, month: 1, day: 1)!
    public static let latest = CalendarDay(year: 9999, month: 12, day: 31)!

    /// The day `days` after this one, or nil when that leaves years 1 to 9999 (`adding` would
    /// make a date nothing else accepts, year 0000 say).
    public func shifted(by days: Int) -> CalendarDay? {
        let target = daysSinceEpoch.addingReportingOverflow(days)
        guard !target.overflow, (Self.earliest.daysSinceEpoch...Self.latest.daysSinceEpoch).contains(target.partialValue)
        else { return nil }
        return CalendarDay(daysSinceEpoch: target.partialValue)
    }

    public func days(since other: CalendarDay) -> Int { daysSinceEpoch - other.daysSinceEpoch }

    public static func < (a: CalendarDay, b: CalendarDay) -> Bool { a.daysSinceEpoch < b.daysSinceEpoch }

    /// `YYYY-MM-DD`.
    public var description: String {
        func pad(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    public static func isLeapYear(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// A day as a person gives it: a date, or one counted from today (`today`, `yesterday`), which
/// stays relative until it is resolved against the today in force (a fixed `--today`, or the
/// system's).
public enum DaySpec: Sendable, Hashable, CustomStringConvertible {
    case date(CalendarDay)
    /// Days from today: 0 today, -1 yesterday.
    case fromToday(Int)

    /// `today`, `yesterday` or `YYYY-MM-DD`; nil otherwise.
    public init?(parsing text: some StringProtocol) {
        switch text {
        case "today": self = .fromToday(0)
        case "yesterday": self = .fromToday(-1)
        default:
            guard let day = CalendarDay(iso: text) else { return nil }
            self = .date(day)
        }
    }

    /// The day it names when today is `today`.
    public func day(today: CalendarDay) -> CalendarDay {
        switch self {
        case .date(let d): d
        case .fromToday(let n): today.adding(days: n)
        }
    }

    public var description: String {
        switch self {
        case .date(let d): d.description
        case .fromToday(0): "today"
        case .fromToday(-1): "yesterday"
        case .fromToday(let n): "today\(n < 0 ? "" : "+")\(n)"
        }
    }
}
