import Activity

/// Glance's own bodies: a day (the fields of `glance log`), a metric (`glance metric set`), a
/// task (`glance task`).
public enum Bodies {
    /// `{"move": 420, "moveGoal": 500, "exercise": 25, …}`: move and moveGoal a number of kcal
    /// or a string with its unit ("1460kJ"); null clears a figure; a field left out is kept.
    public static let dayFields: Set<String> = [
        "move", "moveGoal", "moveTime", "moveTimeGoal", "exercise", "exerciseGoal", "stand", "standGoal", "moveMode",
        "steps", "stepsGoal",
    ]

    public static func day(_ body: Located, extra: Set<String> = []) throws(FeedError) -> SummaryChanges {
        try body.only(dayFields.union(extra))
        var c = SummaryChanges()
        if let f = try body.member("move") { c.activeEnergyBurned = FieldChange(try energy(f)) }
        if let f = try body.member("moveGoal") { c.activeEnergyBurnedGoal = FieldChange(try energy(f)) }
        if let f = try body.member("moveTime") { c.moveTime = FieldChange(try amount(f)) }
        if let f = try body.member("moveTimeGoal") { c.moveTimeGoal = FieldChange(try amount(f)) }
        if let f = try body.member("exercise") { c.exerciseTime = FieldChange(try amount(f)) }
        if let f = try body.member("exerciseGoal") { c.exerciseTimeGoal = FieldChange(try amount(f)) }
        if let f = try body.member("stand") { c.standHours = FieldChange(try amount(f)) }
        if let f = try body.member("standGoal") { c.standHoursGoal = FieldChange(try amount(f)) }
        if let f = try body.member("steps") { c.steps = FieldChange(try amount(f)) }
        if let f = try body.member("stepsGoal") { c.stepsGoal = FieldChange(try amount(f)) }
        if let f = try body.member("moveMode") {
            guard let mode = MoveMode(rawValue: try f.string()) else {
                throw FeedError(path: f.path, "expected \"activeEnergy\", \"moveTime\" or \"steps\"")
            }
            c.moveMode = mode
        }
        guard c.changesAnything else { throw FeedError(path: body.path, "no figure given (the fields are \(dayFields.sorted().joined(separator: ", ")))") }
        return c
    }

    /// `{"days": [{"date": "2026-11-30", "move": 420, …}, …]}`.
    public static func days(_ body: Located) throws(FeedError) -> [(day: CalendarDay, changes: SummaryChanges)] {
        try body.only(["days"])
        var result: [(day: CalendarDay, changes: SummaryChanges)] = []
        var seen = Set<CalendarDay>()
        for item in try body.required("days").elements() {
            let field = try item.required("date")
            let day = try date(field)
            guard seen.insert(day).inserted else { throw FeedError(path: field.path, "\(day) is given twice") }
            result.append((day, try Bodies.day(item, extra: ["date"])))
        }
        return result
    }

    /// `{"move": 500, "exercise": 30, "stand": 12, "from": "2026-12-01"}`: standing goals from a
    /// date (nil: today on the board); move as `moveGoal` is. A goal left out stays as it is.
    public static func goals(_ body: Located) throws(FeedError) -> (goals: Goals, from: CalendarDay?) {
        try body.only(["move", "exercise", "stand", "steps", "from"])
        var goals = Goals()
        if let f = try body.member("move") { goals.move = try energy(f) }
        if let f = try body.member("exercise") { goals.exercise = try amount(f) }
        if let f = try body.member("stand") { goals.stand = try amount(f) }
        if let f = try body.member("steps") { goals.steps = try amount(f) }
        guard !goals.isEmpty else { throw FeedError(path: body.path, "no goal given (the fields are move, exercise, stand, steps, from)") }
        return (goals, try body.member("from").map(date))
    }

    public static func date(_ field: Located) throws(FeedError) -> CalendarDay {
        guard let day = CalendarDay(iso: try field.string()) else { throw FeedError(path: field.path, "expected a date as YYYY-MM-DD") }
        return day
    }

    /// A number ≥ 0, or null (clears).
    static func amount(_ f: Located) throws(FeedError) -> Double? {
        if f.isNull { return nil }
        let x = try f.number()
        guard x >= 0 else { throw FeedError(path: f.path, "expected a number of 0 or more") }
        return x
    }

    /// kcal as a number, or a number with its unit as a string ("1460kJ", "350kcal"), or null.
    static func energy(_ f: Located) throws(FeedError) -> Energy? {
        if f.isNull { return nil }
        if case .number = f.value { return try amount(f).map(Energy.kilocalories) }
        let text = try f.string()
        let digits = text.prefix { "0123456789.".contains($0) }
        guard !digits.isEmpty, let value = Double(digits), value.isFinite,
            let unit = EnergyUnit(symbol: String(text.dropFirst(digits.count)))
        else { throw FeedError(path: f.path, "expected kcal as a number, or a number and its unit: \"1460kJ\"") }
        return Energy(value, unit)
    }

    /// `{"value": 47.5, "min": 20, "max": 90, "unit": "°C"}`: value a number or null (unknown);
    /// min, max and unit changed when given (null clears them).
    public struct Metric: Sendable, Equatable {
        public var value: Double?
        public var minimum: FieldChange<Double> = .keep
        public var maximum: FieldChange<Double> = .keep
        public var unit: FieldChange<String> = .keep
    }

    public static func metric(_ body: Located) throws(FeedError) -> Metric {
        try body.only(["value", "min", "max", "unit"])
        let value = try body.required("value")
        var m = Metric(value: value.isNull ? nil : try value.number())
        if let f = try body.member("min") { m.minimum = f.isNull ? .clear : .set(try f.number()) }
        if let f = try body.member("max") { m.maximum = f.isNull ? .clear : .set(try f.number()) }
        if let f = try body.member("unit") {
            if f.isNull {
                m.unit = .clear
            } else {
                let unit = try f.text(bytes: TextLimit.unit)
                m.unit = unit.isEmpty ? .clear : .set(unit)
            }
        }
        return m
    }

    /// A task to start (POST /v1/tasks).
    public struct TaskStart: Sendable, Equatable {
        public var name: String
        public var total: Double?
        public var description: String?
        public var cancellable: Bool

        public init(name: String, total: Double?, description: String?, cancellable: Bool) {
            self.name = name
            self.total = total
            self.description = description
            self.cancellable = cancellable
        }
    }

    /// A change to a running task (PATCH /v1/tasks/NAME): progress, or its end.
    public enum TaskChange: Sendable, Equatable {
        case update(done: Double?, total: FieldChange<Double>, description: FieldChange<String>)
        case finish(failed: Bool, description: FieldChange<String>)
    }

    /// POST /v1/tasks: `{"name": "sync", "total": 200, "description": "Syncing", "cancellable": true}`.
    public static func startTask(_ body: Located) throws(FeedError) -> TaskStart {
        try body.only(["name", "total", "description", "cancellable"])
        let name = try body.required("name").text(bytes: TextLimit.name)
        let total = try body.member("total").flatMap { f throws(FeedError) in try amount(f) }
        let description = try body.member("description").flatMap { f throws(FeedError) in
            f.isNull ? nil : try f.text(characters: TextLimit.description)
        }
        let cancellable = try body.member("cancellable")?.bool() ?? false
        return TaskStart(name: name, total: total, description: description, cancellable: cancellable)
    }

    /// PATCH /v1/tasks/NAME: `{"done": 82}`, `{"total": null}` (unknown), `{"state": "done"}` or
    /// `{"state": "failed"}` to finish; `description` with either.
    public static func changeTask(_ body: Located) throws(FeedError) -> TaskChange {
        try body.only(["done", "total", "description", "state"])
        var description = FieldChange<String>.keep
        if let f = try body.member("description") {
            description = f.isNull ? .clear : .set(try f.text(characters: TextLimit.description))
        }
        if let state = try body.member("state") {
            let text = try state.string()
            guard text == "done" || text == "failed" else { throw FeedError(path: state.path, "expected \"done\" or \"failed\"") }
            var extra = try body.member("done")
            if extra == nil { extra = try body.member("total") }
            if let extra {
                throw FeedError(path: extra.path, "progress does not go with state (finish, or update)")
            }
            return .finish(failed: text == "failed", description: description)
        }
        let done = try body.member("done").flatMap { f throws(FeedError) in try amount(f) }
        var total = FieldChange<Double>.keep
        if let f = try body.member("total") { total = try amount(f).map { .set($0) } ?? .clear }
        return .update(done: done, total: total, description: description)
    }
}
