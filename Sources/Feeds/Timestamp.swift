import Activity

/// A moment as Health Auto Export writes it: `2026-11-30 10:00:00 +0100` (also with a `T`, a
/// colon in the offset, or `Z`): the local date and time where it was taken, and that place's
/// offset from UTC.
public struct Timestamp: Sendable, Equatable {
    /// The date as written (the phone's day).
    public let day: CalendarDay
    /// Seconds since midnight, as written.
    public let secondOfDay: Int
    /// The offset from UTC, in seconds (east positive).
    public let offset: Int

    /// Seconds since 1970-01-01 UTC.
    public var epochSeconds: Int64 { Int64(day.daysSinceEpoch) * 86400 + Int64(secondOfDay) - Int64(offset) }

    public init?(_ text: String) {
        let b = Array(text.utf8)
        func digits(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= b.count else { return nil }
            var n = 0
            for c in b[at..<(at + count)] {
                guard c >= 48 && c <= 57 else { return nil }
                n = n * 10 + Int(c - 48)
            }
            return n
        }
        guard b.count >= 19, b[4] == 45, b[7] == 45, b[10] == 32 || b[10] == 84, b[13] == 58, b[16] == 58,
            let year = digits(0, 4), let month = digits(5, 2), let dayOfMonth = digits(8, 2),
            let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
            hour < 24, minute < 60, second < 61,
            let day = CalendarDay(year: year, month: month, day: dayOfMonth)
        else { return nil }
        var i = 19
        if i < b.count && b[i] == 46 {  // fractions of a second: ignored
            i += 1
            while i < b.count && b[i] >= 48 && b[i] <= 57 { i += 1 }
        }
        if i < b.count && b[i] == 32 { i += 1 }
        var offset = 0
        if i < b.count && b[i] == 90 {  // Z
            i += 1
        } else if i < b.count && (b[i] == 43 || b[i] == 45) {
            let sign = b[i] == 45 ? -1 : 1
            guard let h = digits(i + 1, 2) else { return nil }
            var j = i + 3
            if j < b.count && b[j] == 58 { j += 1 }
            guard let m = digits(j, 2), h <= 14, m < 60 else { return nil }
            offset = sign * (h * 3600 + m * 60)
            i = j + 2
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        self.day = day
        secondOfDay = hour * 3600 + minute * 60 + min(second, 59)
        self.offset = offset
    }
}
