import Activity

/// The board's days and hours, for feeds whose records are intervals of instants (Health
/// Connect, glance-readings): which day a moment is on, where a day starts, where an hour starts.
/// `system` is the board's time zone (TZ); a test may give another.
public struct LocalCalendar: Sendable {
    /// The day of a moment (seconds since 1970); nil outside the years 1 to 9999.
    public var day: @Sendable (Int64) -> CalendarDay?
    /// The first second of a day (its midnight; where a change of clocks skips midnight, the
    /// first moment that exists).
    public var startOfDay: @Sendable (CalendarDay) -> Int64?
    /// The first second of the local clock hour a moment is in.
    public var startOfHour: @Sendable (Int64) -> Int64?
    /// The offset from UTC at a moment, in seconds (east positive).
    public var offset: @Sendable (Int64) -> Int

    public init(
        day: @escaping @Sendable (Int64) -> CalendarDay?, startOfDay: @escaping @Sendable (CalendarDay) -> Int64?,
        startOfHour: @escaping @Sendable (Int64) -> Int64?, offset: @escaping @Sendable (Int64) -> Int
    ) {
        self.day = day
        self.startOfDay = startOfDay
        self.startOfHour = startOfHour
        self.offset = offset
    }

    /// A moment's local date and time, and its offset from UTC (seconds east).
    public typealias LocalParts = (year: Int, month: Int, day: Int, minute: Int, second: Int, offset: Int)

    /// The board's time zone, from the C library's local time (Platform's `LocalTime`:
    /// `LocalCalendar.local(parts: LocalTime.parts, midnight: LocalTime.midnight)`).
    public static func local(
        parts: @escaping @Sendable (Int64) -> LocalParts?, midnight: @escaping @Sendable (Int, Int, Int) -> Int64?
    ) -> LocalCalendar {
        LocalCalendar(
            day: { seconds in parts(seconds).flatMap { CalendarDay(year: $0.year, month: $0.month, day: $0.day) } },
            startOfDay: { day in midnight(day.year, day.month, day.day) },
            startOfHour: { seconds in parts(seconds).map { seconds - Int64($0.minute) * 60 - Int64($0.second) } },
            offset: { seconds in parts(seconds)?.offset ?? 0 })
    }

    /// A fixed offset from UTC (no changes of clocks): for tests and for UTC itself.
    public static func fixed(offset: Int) -> LocalCalendar {
        let floorDiv = HealthConnect.floorDiv
        return LocalCalendar(
            day: { seconds in
                let day = CalendarDay(daysSinceEpoch: Int(floorDiv(seconds + Int64(offset), 86400)))
                return day >= .earliest && day <= .latest ? day : nil
            },
            startOfDay: { day in Int64(day.daysSinceEpoch) * 86400 - Int64(offset) },
            startOfHour: { seconds in floorDiv(seconds + Int64(offset), 3600) * 3600 - Int64(offset) },
            offset: { _ in offset })
    }

    /// The parts of the interval [start, end) on each day it touches, with the share of the
    /// interval each holds (by time): what an amount over the interval gives each day. An interval
    /// of no length is one part, wholly on the day of `start`. Nil when a day is outside the years
    /// 1 to 9999 (or the clock gives no midnight).
    public func parts(start: Int64, end: Int64) -> [(day: CalendarDay, start: Int64, share: Double)]? {
        guard let first = day(start) else { return nil }
        guard end > start else { return [(first, start, 1)] }
        var result: [(day: CalendarDay, start: Int64, share: Double)] = []
        var at = start
        var today = first
        let length = Double(end - start)
        while at < end {
            guard today < .latest, let next = startOfDay(today.adding(days: 1)), next > at else {
                // The last day there is: the rest is on it.
                result.append((today, at, Double(end - at) / length))
                return today == .latest ? result : nil
            }
            let partEnd = min(end, next)
            result.append((today, at, Double(partEnd - at) / length))
            at = partEnd
            guard at < end else { break }
            guard let d = day(at) else { return nil }
            today = d
        }
        // Shares that sum to exactly 1 whatever the rounding: the last takes what is left.
        if result.count > 1 {
            let others = result.dropLast().reduce(0) { $0 + $1.share }
            result[result.count - 1].share = 1 - others
        }
        return result
    }
}

/// A sample as a feed gives it, for the store (`Store.Sample`, field by field): the ring's
/// metric, its start (the key with the source), the quantity as sent and in the ring's unit, and
/// the board's day it counts for; `path` is where in the body it came from, for an error.
public struct FeedSample: Sendable, Equatable {
    public var metric: SampleMetric
    public var start: Int64
    public var source: String
    /// The feed a readings file says it came through (`Readings.feeds`); nil: the route's own.
    public var feed: String?
    public var quantity: Double
    public var unit: String
    public var value: Double
    public var day: CalendarDay
    public var path: String

    public init(
        metric: SampleMetric, start: Int64, source: String, feed: String? = nil, quantity: Double, unit: String, value: Double,
        day: CalendarDay, path: String
    ) {
        self.metric = metric
        self.start = start
        self.source = source
        self.feed = feed
        self.quantity = quantity
        self.unit = unit
        self.value = value
        self.day = day
        self.path = path
    }
}

/// Steps over a part of a day: a sample of steps, its key and day as any sample's.
public struct StepsPart: Sendable, Equatable {
    public var start: Int64
    public var source: String
    /// As `FeedSample.feed`.
    public var feed: String? = nil
    public var count: Double
    public var day: CalendarDay
    public var path: String
}
