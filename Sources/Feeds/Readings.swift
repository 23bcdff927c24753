import Activity
import JSON

/// Glance's open readings format, "glance-readings" version 1 (docs/data.md): what a small app,
/// a script or `glance export --readings` writes, and `POST /v1/readings` and `glance import`
/// take.
///
/// ```
/// {"format": "glance-readings", "version": 1, "source": "my-watch",
///  "readings": [{"start": "2026-11-30T10:00:00+01:00", "end": "2026-11-30T10:01:00+01:00",
///                "steps": 112, "active_energy": 4.5, "exercise_minutes": 1, "stand_hours": 0}]}
/// ```
///
/// Strict: an unknown field anywhere is refused (a misspelt name must not pass silently; what a
/// later version adds comes with its version number), and so is a version other than 1.
public struct Readings: Sendable, Equatable {
    public static let format = "glance-readings"
    public static let version = 1
    public static let topFields: Set<String> = ["format", "version", "source", "readings"]
    public static let readingFields: Set<String> = [
        "start", "end", "day", "source", "feed", "steps", "active_energy", "exercise_minutes", "stand_hours",
    ]
    /// The feeds a reading may say it came through (`glance export --readings` writes the
    /// store's, so a day of two feeds reads back as it was); none: readings.
    public static let feeds: Set<String> = ["health-auto-export", "health-connect", "gadgetbridge", "readings"]

    public struct Reading: Sendable, Equatable {
        public var start: Int64
        /// Nil: the reading is of the moment (or minute) at `start`, wholly on its day.
        public var end: Int64?
        /// The board's day it counts for, instead of the day of `start` (without `end` only).
        public var day: CalendarDay?
        public var source: String
        /// The feed it came through (one of `feeds`), nil: readings.
        public var feed: String?
        public var steps: Double?
        public var activeEnergy: Energy?
        public var exerciseMinutes: Double?
        public var standHours: Double?
        /// Where it is in the body (`$.readings[3]`).
        public var path: String

        public init(
            start: Int64, end: Int64? = nil, day: CalendarDay? = nil, source: String, steps: Double? = nil,
            activeEnergy: Energy? = nil, exerciseMinutes: Double? = nil, standHours: Double? = nil, path: String = "$"
        ) {
            self.start = start
            self.end = end
            self.day = day
            self.source = source
            self.steps = steps
            self.activeEnergy = activeEnergy
            self.exerciseMinutes = exerciseMinutes
            self.standHours = standHours
            self.path = path
        }
    }

    public var source: String
    public var readings: [Reading]

    public init(source: String, readings: [Reading]) {
        self.source = source
        self.readings = readings
    }

    public static func decode(_ body: Located) throws(FeedError) -> Readings {
        let formatField = try body.required("format")
        guard try formatField.string() == format else {
            throw FeedError(path: formatField.path, "expected \"\(format)\"")
        }
        let versionField = try body.required("version")
        let given = try versionField.number()
        guard given == Double(version) else {
            throw FeedError(
                path: versionField.path,
                "version \(NumberText.plain(given)) is not one this Glance reads (it reads \(format) version \(version)); update Glance")
        }
        try body.only(topFields)
        let source = try body.required("source").text(bytes: 200)
        var readings: [Reading] = []
        for item in try body.required("readings").elements() {
            try item.only(readingFields)
            var reading = Reading(start: 0, source: source, path: item.path)
            if try item.member("end") != nil {
                (reading.start, reading.end) = try HealthConnect.interval(item, from: "start", to: "end")
            } else {
                reading.start = try HealthConnect.instant(try item.required("start"))
            }
            if let field = try item.member("day") {
                guard reading.end == nil else { throw FeedError(path: field.path, "day goes with a reading without end") }
                reading.day = try Bodies.date(field)
            }
            if let field = try item.member("source") { reading.source = try field.text(bytes: 200) }
            if let field = try item.member("feed") {
                let feed = try field.string()
                guard Self.feeds.contains(feed) else {
                    throw FeedError(path: field.path, "expected one of \(Self.feeds.sorted().joined(separator: ", "))")
                }
                reading.feed = feed
            }
            func amount(_ key: String) throws(FeedError) -> Double? {
                guard let field = try item.member(key) else { return nil }
                let x = try field.number()
                guard x >= 0 else { throw FeedError(path: field.path, "expected a number of 0 or more") }
                return x
            }
            reading.steps = try amount("steps")
            reading.exerciseMinutes = try amount("exercise_minutes")
            reading.standHours = try amount("stand_hours")
            if let field = try item.member("active_energy") {
                guard !field.isNull, let energy = try Bodies.energy(field) else {
                    throw FeedError(path: field.path, "expected kcal as a number, or a number and its unit: \"1460kJ\"")
                }
                reading.activeEnergy = energy
            }
            guard reading.steps != nil || reading.activeEnergy != nil || reading.exerciseMinutes != nil || reading.standHours != nil
            else {
                throw FeedError(path: item.path, "no figure given (steps, active_energy, exercise_minutes, stand_hours)")
            }
            readings.append(reading)
        }
        return Readings(source: source, readings: readings)
    }

    /// A reading's parts on the board's days: without `end`, wholly on `day` or the day of
    /// `start`; with it, split over the days it spans in proportion to time.
    static func parts(_ r: Reading, calendar: LocalCalendar) throws(FeedError) -> [(day: CalendarDay, start: Int64, share: Double)] {
        if let end = r.end {
            guard let parts = calendar.parts(start: r.start, end: end) else { throw HealthConnect.outsideYears(r.path + ".end") }
            return parts
        }
        if let day = r.day { return [(day, r.start, 1)] }
        guard let day = calendar.day(r.start) else { throw HealthConnect.outsideYears(r.path + ".start") }
        return [(day, r.start, 1)]
    }

    /// The samples for the rings: each figure of each reading's part on a day is one sample,
    /// keyed by the part's start and the reading's source (a reading sent again replaces itself).
    /// Two readings of one source giving one figure at the same start (or overlapping across a
    /// midnight) are refused: which one is meant cannot be told.
    public func samples(calendar: LocalCalendar) throws(FeedError) -> [FeedSample] {
        var result: [FeedSample] = []
        var seen: [String: String] = [:]
        for r in readings {
            for part in try Self.parts(r, calendar: calendar) {
                let path = r.path + (r.day != nil ? ".day" : part.start == r.start ? ".start" : ".end")
                func add(_ metric: SampleMetric, _ quantity: Double, _ unit: String, _ value: Double) throws(FeedError) {
                    let key = "\(metric.rawValue) \(part.start) \(r.source)"
                    if let other = seen[key] {
                        throw FeedError(path: r.path, "the same source, start and figure as \(other) (one reading per start and source)")
                    }
                    seen[key] = r.path
                    result.append(
                        FeedSample(
                            metric: metric, start: part.start, source: r.source, feed: r.feed, quantity: quantity, unit: unit, value: value,
                            day: part.day, path: path))
                }
                if let e = r.activeEnergy {
                    // Kilocalories from the quantity, as an energy given whole makes them: a part
                    // written out and read back is the same sample to the last bit.
                    let quantity = e.value * part.share
                    try add(.activeEnergy, quantity, e.unit.rawValue, quantity * e.unit.kilocalories)
                }
                if let x = r.exerciseMinutes { try add(.exerciseTime, x * part.share, "min", x * part.share) }
                if let x = r.standHours { try add(.standHours, x * part.share, "hr", x * part.share) }
            }
        }
        return result
    }

    /// The steps of the readings over the board's days (samples of the store's steps metric).
    public func stepsParts(calendar: LocalCalendar) throws(FeedError) -> [StepsPart] {
        var result: [StepsPart] = []
        for r in readings {
            guard let steps = r.steps else { continue }
            for part in try Self.parts(r, calendar: calendar) {
                result.append(
                    StepsPart(
                        start: part.start, source: r.source, feed: r.feed, count: steps * part.share, day: part.day,
                        path: r.path + (part.start == r.start ? ".start" : ".end")))
            }
        }
        return result
    }

    // MARK: Writing

    /// Samples as a readings file, line by line (a reading a line): consecutive samples of one
    /// start, source and day are one reading; `start` in the board's local time with its offset;
    /// `day` only where a sample counts for another day than its start's (a daily sample of
    /// Health Auto Export's, dated by the phone); `source` where it differs from the file's (the
    /// first sample's). Energy in kcal as a number, in another unit as a string ("1460kJ");
    /// exercise in minutes, stand in hours, steps.
    public static func write<E: Error>(
        _ samples: some Sequence<FeedSample>, calendar: LocalCalendar, write: (String) throws(E) -> Void
    ) throws(E) {
        var iterator = samples.makeIterator()
        var pending = iterator.next()
        let source = pending?.source ?? ""
        try write("{\"format\":\"\(format)\",\"version\":\(version),\"source\":\(JSON.string(source).text),\"readings\":[")
        var first = true
        while let head = pending {
            var members: [(key: String, value: JSON)] = [("start", .string(Self.localTime(head.start, calendar: calendar)))]
            if calendar.day(head.start) != head.day { members.append(("day", .string(head.day.description))) }
            if head.source != source { members.append(("source", .string(head.source))) }
            if let feed = head.feed, feed != "readings" { members.append(("feed", .string(feed))) }
            var sample: FeedSample? = head
            // (a metric twice at one moment, two feeds' samples under one source name: two readings)
            var seen = Set<SampleMetric>()
            while let s = sample, s.start == head.start, s.source == head.source, s.feed == head.feed, s.day == head.day, seen.insert(s.metric).inserted {
                switch s.metric {
                case .activeEnergy:
                    // A number the energy's text takes back exactly (no exponent), else kcal.
                    if let unit = EnergyUnit(symbol: s.unit), unit != .kilocalorie, !NumberText.plain(s.quantity).contains("e") {
                        members.append(("active_energy", .string(NumberText.plain(s.quantity) + unit.rawValue)))
                    } else {
                        members.append(("active_energy", .number(s.value)))
                    }
                case .exerciseTime: members.append(("exercise_minutes", .number(s.value)))
                case .standHours: members.append(("stand_hours", .number(s.value)))
                case .steps: members.append(("steps", .number(s.value)))
                }
                sample = iterator.next()
            }
            pending = sample
            try write((first ? "\n" : ",\n") + JSON.object(members).text)
            first = false
        }
        try write("\n]}\n")
    }

    /// `2026-11-30T10:00:00+01:00` (`Z` at UTC): the moment in the board's local time.
    public static func localTime(_ seconds: Int64, calendar: LocalCalendar) -> String {
        let offset = Int64(calendar.offset(seconds))
        let local = seconds + offset
        let days = HealthConnect.floorDiv(local, 86400)
        let second = local - days * 86400
        let day = CalendarDay(daysSinceEpoch: Int(days))
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var zone = "Z"
        if offset != 0 {
            let a = abs(offset)
            zone = (offset < 0 ? "-" : "+") + two(a / 3600) + ":" + two(a / 60 % 60)
        }
        return "\(day)T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))\(zone)"
    }
}
