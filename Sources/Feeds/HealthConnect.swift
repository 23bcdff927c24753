import Activity

/// A Health Connect webhook body, as mcnaveen/health-connect-webhook's payload builder
/// (`SyncManager.buildJsonPayload`) writes it: `{"timestamp", "app_version", "steps": [{"count",
/// "start_time", "end_time", "metadata"?}], "active_calories": [{"calories", …}], "exercise":
/// [{"type", "start_time", "end_time", "duration_seconds", …}], "heart_rate": […], …}`, times
/// ISO-8601 instants (`Instant.toString()`: `2026-05-09T12:34:56.789Z`; an offset is taken too).
/// Steps, active calories and exercise sessions are read; every other array is listed as
/// ignored. The mapping to the rings is docs/data.md's "Health Connect".
public struct HealthConnect: Sendable, Equatable {
    /// One interval record: steps (a count), active calories (kcal) or an exercise session
    /// (its seconds, end − start).
    public struct Record: Sendable, Equatable {
        public var amount: Double
        public var start: Int64
        public var end: Int64
        /// The app that wrote it to Health Connect (`metadata.data_origin`), "" when not named.
        public var origin: String
        /// Where it is in the body (`$.steps[3]`).
        public var path: String
    }

    public var steps: [Record]
    public var activeCalories: [Record]
    public var exercise: [Record]
    /// The names of the arrays not read for the rings (heart_rate, sleep, …), sorted.
    public var ignored: [String]

    /// The source of samples whose record names no app, and of the derived Exercise and Stand.
    public static let source = "Health Connect"
    /// The longest record taken: a week (the app's daily totals are a day; sessions hours).
    public static let longest: Int64 = 7 * 86400
    /// The most exercise minutes one push may give (69 days of them): a bound on what one body
    /// makes of its sessions.
    public static let mostExerciseMinutes = 100_000

    public static func decode(_ body: Located) throws(FeedError) -> HealthConnect {
        var result = HealthConnect(steps: [], activeCalories: [], exercise: [], ignored: [])
        var ignored = Set<String>()
        for (key, field) in try body.members() {
            switch key {
            case "timestamp": _ = try instant(field)
            case "app_version": _ = try field.string()
            case "steps": result.steps = try records(field, amount: "count")
            case "active_calories": result.activeCalories = try records(field, amount: "calories")
            case "exercise": result.exercise = try records(field, amount: nil)
            default:
                // Listed in the reply: bounded, like any text a client sends back to itself.
                if ignored.count < 64 { ignored.insert(Quote.clip(key)) }
            }
        }
        result.ignored = ignored.sorted()
        return result
    }

    /// An array's records, each an object with `start_time`, `end_time` and (unless nil) the
    /// number `amount`; an exercise session's amount is its seconds, end − start
    /// (`duration_seconds`, when given, must be a number of 0 or more: the app writes end − start).
    static func records(_ array: Located, amount: String?) throws(FeedError) -> [Record] {
        var records: [Record] = []
        for item in try array.elements() {
            let (start, end) = try interval(item, from: "start_time", to: "end_time")
            var value = Double(end - start)
            if let amount {
                let field = try item.required(amount)
                value = try field.number()
                guard value >= 0 else { throw FeedError(path: field.path, "expected a number of 0 or more") }
            } else if let duration = try item.member("duration_seconds") {
                guard try duration.number() >= 0 else { throw FeedError(path: duration.path, "expected a number of 0 or more") }
            }
            var origin = ""
            if let metadata = try item.member("metadata"), !metadata.isNull,
                let field = try metadata.member("data_origin"), !field.isNull
            {
                origin = try field.text(bytes: 200)
            }
            records.append(Record(amount: value, start: start, end: end, origin: origin, path: item.path))
        }
        return records
    }

    /// An instant with its zone: `2026-11-30T09:00:00Z`, `2026-11-30T10:00:00.250+01:00`
    /// (fractions of a second are dropped).
    public static func instant(_ field: Located) throws(FeedError) -> Int64 {
        guard let time = Timestamp(try field.string()) else {
            throw FeedError(
                path: field.path, "expected an ISO-8601 time with its zone: 2026-11-30T09:00:00Z or 2026-11-30T10:00:00+01:00")
        }
        return time.epochSeconds
    }

    /// `from` and `to` of an object: instants, the second not before the first, at most a week apart.
    public static func interval(_ item: Located, from: String, to: String) throws(FeedError) -> (Int64, Int64) {
        let startField = try item.required(from)
        let start = try instant(startField)
        let endField = try item.required(to)
        let end = try instant(endField)
        guard end >= start else { throw FeedError(path: endField.path, "ends before it starts (\(from) is later)") }
        guard end - start <= longest else { throw FeedError(path: endField.path, "more than a week after \(from)") }
        return (start, end)
    }

    static func outsideYears(_ path: String) -> FeedError {
        FeedError(path: path, "the time falls outside the years 1 to 9999 where the board is")
    }

    /// The samples for the rings, in the board's days (`calendar`):
    /// - Move: each active_calories record, split over the days it spans in proportion to time;
    ///   keyed by its start (a later day's part by that day's midnight) and its app.
    /// - Exercise: the minutes the sessions cover, each once however many sessions cover it
    ///   (a minute partly covered counts the part), one sample per minute of source
    ///   "Health Connect".
    /// - Stand: each local clock hour that a steps record of at least 1 step and at most an hour
    ///   long touches, one sample of 1 hour per hour of source "Health Connect".
    /// Records of one app with the same key in one body are summed into one sample.
    public func samples(calendar: LocalCalendar) throws(FeedError) -> [FeedSample] {
        var result: [FeedSample] = []
        var seen: [String: Int] = [:]
        for record in activeCalories {
            guard let parts = calendar.parts(start: record.start, end: record.end) else {
                throw Self.outsideYears(record.path + ".end_time")
            }
            let source = record.origin.isEmpty ? Self.source : record.origin
            for part in parts {
                let kcal = record.amount * part.share
                let key = "\(part.start) \(source)"
                if let i = seen[key] {
                    result[i].quantity += kcal
                    result[i].value += kcal
                    continue
                }
                seen[key] = result.count
                result.append(
                    FeedSample(
                        metric: .activeEnergy, start: part.start, source: source, quantity: kcal, unit: "kcal", value: kcal,
                        day: part.day, path: record.path + (part.start == record.start ? ".start_time" : ".end_time")))
            }
        }
        result += try exerciseMinutes(calendar: calendar)
        result += try standHours(calendar: calendar)
        return result
    }

    /// Exercise: the union of the sessions, minute by minute (minutes since 1970: a local day
    /// starts on one, in every zone whose offset is whole minutes).
    func exerciseMinutes(calendar: LocalCalendar) throws(FeedError) -> [FeedSample] {
        let sessions = exercise.sorted { $0.start < $1.start }
        var merged: [(start: Int64, end: Int64, path: String)] = []
        for s in sessions where s.end > s.start {
            if let last = merged.last, s.start <= last.end {
                merged[merged.count - 1].end = max(last.end, s.end)
            } else {
                merged.append((s.start, s.end, s.path))
            }
        }
        var seconds: [Int64: Int64] = [:]
        var order: [(minute: Int64, path: String)] = []
        for span in merged {
            var minute = Self.floorDiv(span.start, 60)
            while minute * 60 < span.end {
                let covered = min(span.end, minute * 60 + 60) - max(span.start, minute * 60)
                if seconds[minute] == nil {
                    order.append((minute, span.path))
                    guard order.count <= Self.mostExerciseMinutes else {
                        throw FeedError(path: "$.exercise", "the sessions cover more than \(Self.mostExerciseMinutes) minutes")
                    }
                }
                seconds[minute, default: 0] += covered
                minute += 1
            }
        }
        var result: [FeedSample] = []
        result.reserveCapacity(order.count)
        for (minute, path) in order {
            guard let day = calendar.day(minute * 60) else { throw Self.outsideYears(path + ".start_time") }
            let minutes = Double(seconds[minute]!) / 60
            result.append(
                FeedSample(
                    metric: .exerciseTime, start: minute * 60, source: Self.source, quantity: minutes, unit: "min", value: minutes,
                    day: day, path: path + ".start_time"))
        }
        return result
    }

    /// Stand: the local hours with steps in them (records of at most an hour: a day's total says
    /// nothing of its hours).
    func standHours(calendar: LocalCalendar) throws(FeedError) -> [FeedSample] {
        var seen = Set<Int64>()
        var result: [FeedSample] = []
        for record in steps where record.amount >= 1 && record.end - record.start <= 3600 {
            guard var hour = calendar.startOfHour(record.start) else { throw Self.outsideYears(record.path + ".start_time") }
            repeat {
                if seen.insert(hour).inserted {
                    guard let day = calendar.day(hour) else { throw Self.outsideYears(record.path + ".start_time") }
                    result.append(
                        FeedSample(
                            metric: .standHours, start: hour, source: Self.source, quantity: 1, unit: "hr", value: 1, day: day,
                            path: record.path + (hour <= record.start ? ".start_time" : ".end_time")))
                }
                guard let next = calendar.startOfHour(hour + 3600), next > hour else { break }
                hour = next
            } while hour < record.end
        }
        return result
    }

    /// The steps records over the board's days (split in proportion to time, as active calories):
    /// samples of the store's steps metric.
    public func stepsParts(calendar: LocalCalendar) throws(FeedError) -> [StepsPart] {
        var result: [StepsPart] = []
        for record in steps {
            guard let parts = calendar.parts(start: record.start, end: record.end) else {
                throw Self.outsideYears(record.path + ".end_time")
            }
            for part in parts {
                result.append(
                    StepsPart(
                        start: part.start, source: record.origin.isEmpty ? Self.source : record.origin, count: record.amount * part.share,
                        day: part.day, path: record.path + (part.start == record.start ? ".start_time" : ".end_time")))
            }
        }
        return result
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
}
