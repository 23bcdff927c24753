import Activity

/// Day summaries: one row per local date, every quantity as given (units kept), goals of 0 kept.
extension Store {
    /// The columns of `day_summaries`, the one list every statement on days is built from, in the
    /// order `dayValues` binds and `summary(from:)` reads them. (Migration 1 in `Schema` created
    /// the table and is never edited; a test checks the two agree.)
    static let dayColumnNames = [
        "date", "active_energy_burned", "active_energy_burned_unit", "active_energy_burned_goal",
        "active_energy_burned_goal_unit", "move_time", "move_time_goal", "exercise_time", "exercise_time_goal",
        "stand_hours", "stand_hours_goal", "move_mode", "steps", "steps_goal",
    ]

    /// `date, active_energy_burned, …` for a SELECT or an INSERT.
    /// (A loop, not `joined(separator:)`: every start reads the day's columns, and the standard
    /// library's `joined` runs unspecialized, its associated types looked up by name first.)
    static let dayColumns: String = {
        var text = ""
        for name in dayColumnNames { text += text.isEmpty ? name : ", " + name }
        return text
    }()

    /// `?1,?2,…`: one parameter per day column.
    static let dayParameters = dayColumnNames.indices.map { "?\($0 + 1)" }.joined(separator: ",")

    /// The parameter of the person (`Store.person`) in a statement on days: after the day's columns.
    static let dayPersonParameter = "?\(dayColumnNames.count + 1)"

    /// A day's figures written over the row's (its `source`, said apart, kept), the person's
    /// (`dayPersonParameter`).
    private static let replaceDaySQL =
        "INSERT INTO day_summaries (\(dayColumns), person) VALUES (\(dayParameters),\(dayPersonParameter)) "
        + "ON CONFLICT (person, date) DO UPDATE SET "
        + dayColumnNames.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")

    /// `Store.person`, to bind.
    var personValue: SQLValue { .integer(Int64(person)) }

    /// The bindings for one day, in `dayColumnNames` order.
    static func dayValues(_ day: CalendarDay, _ s: ActivitySummary) -> [SQLValue?] {
        [
            .text(day.description),
            .optional(s.activeEnergyBurned?.value), .optional(s.activeEnergyBurned?.unit.rawValue),
            .optional(s.activeEnergyBurnedGoal?.value), .optional(s.activeEnergyBurnedGoal?.unit.rawValue),
            .optional(s.moveTime), .optional(s.moveTimeGoal),
            .optional(s.exerciseTime), .optional(s.exerciseTimeGoal),
            .optional(s.standHours), .optional(s.standHoursGoal),
            .text(s.moveMode.rawValue),
            .optional(s.steps), .optional(s.stepsGoal),
        ]
    }

    /// Reads one row selected with `dayColumns`.
    static func summary(from row: Statement) -> (CalendarDay, ActivitySummary)? {
        guard let date = row.text(0), let day = CalendarDay(iso: date) else { return nil }
        func energy(_ value: Int32, _ unit: Int32) -> Energy? {
            guard let v = row.double(value) else { return nil }
            return Energy(v, row.text(unit).flatMap { EnergyUnit(symbol: $0) } ?? .kilocalorie)
        }
        let summary = ActivitySummary(
            activeEnergyBurned: energy(1, 2), activeEnergyBurnedGoal: energy(3, 4),
            moveTime: row.double(5), moveTimeGoal: row.double(6),
            exerciseTime: row.double(7), exerciseTimeGoal: row.double(8),
            standHours: row.double(9), standHoursGoal: row.double(10),
            moveMode: row.text(11).flatMap { MoveMode(rawValue: $0) } ?? .activeEnergy,
            steps: row.double(12), stepsGoal: row.double(13))
        return (day, summary)
    }

    /// Whether the person has any day at all: a summary or a sample (a store just made has none).
    public func hasDays() throws(StoreError) -> Bool {
        let statement = try db.prepare(
            "SELECT EXISTS (SELECT 1 FROM day_summaries WHERE person = ?1) OR EXISTS (SELECT 1 FROM samples WHERE person = ?1)")
        statement.bind(personValue)
        guard try statement.step() else { return false }
        return (statement.int64(0) ?? 0) != 0
    }

    /// The summary for `day`; nil when the store has none (every ring empty).
    public func summary(for day: CalendarDay) throws(StoreError) -> ActivitySummary? {
        let statement = try db.prepare("SELECT \(Self.dayColumns) FROM day_summaries WHERE person = ?2 AND date = ?1")
        statement.bind(.text(day.description), personValue)
        guard try statement.step() else { return nil }
        return Self.summary(from: statement)?.1
    }

    /// A day and its summary. (A struct, not a tuple: an array of tuples brings the runtime's
    /// tuple metadata code into the first frame, docs/speed.md.)
    public struct DaySummary: Sendable, Equatable {
        public let day: CalendarDay
        public let summary: ActivitySummary
        public init(_ day: CalendarDay, _ summary: ActivitySummary) {
            self.day = day
            self.summary = summary
        }
    }

    /// Every day from `first` through `last` that has a summary, in date order.
    public func summaries(from first: CalendarDay, through last: CalendarDay) throws(StoreError)
        -> [DaySummary]
    {
        let statement = try db.prepare(
            "SELECT \(Self.dayColumns) FROM day_summaries WHERE person = ?3 AND date BETWEEN ?1 AND ?2 ORDER BY date")
        statement.bind(.text(first.description), .text(last.description), personValue)
        var result: [DaySummary] = []
        while try statement.step() {
            if let row = Self.summary(from: statement) { result.append(DaySummary(row.0, row.1)) }
        }
        return result
    }

    /// Calls `body` for every day in date order (streams; the store may be large). A row with a
    /// date no Glance command writes (changed by something else) is an error naming it, not
    /// silently left out of an export.
    public func forEachSummary(_ body: (CalendarDay, ActivitySummary) throws(StoreError) -> Void) throws(StoreError) {
        let statement = try db.prepare("SELECT \(Self.dayColumns) FROM day_summaries WHERE person = ?1 ORDER BY date")
        statement.bind(personValue)
        while try statement.step() {
            guard let row = Self.summary(from: statement) else {
                let date = Quote.clip(statement.text(0) ?? "")
                statement.reset()
                throw StoreError(
                    .badData,
                    "store \(path): a day dated '\(date)' is no date (something else than Glance wrote it); remove it "
                        + "with: sqlite3 \(path) \"DELETE FROM day_summaries WHERE person = \(person) AND date = '\(date)'\"")
            }
            try body(row.0, row.1)
        }
    }

    /// How many of the person's days have a summary.
    public func dayCount() throws(StoreError) -> Int {
        let statement = try db.prepare("SELECT count(*) FROM day_summaries WHERE person = ?1")
        guard try statement.bind(personValue).step() else { return 0 }
        return Int(statement.int64(0) ?? 0)
    }

    /// Replaces the summary of `day` (nil removes it).
    public func setSummary(_ summary: ActivitySummary?, for day: CalendarDay) throws(StoreError) {
        guard let summary else {
            try db.prepare("DELETE FROM day_summaries WHERE person = ?2 AND date = ?1").bind(.text(day.description), personValue).run()
            return
        }
        try Self.check(summary, day: day)
        try db.prepare(Self.replaceDaySQL).bind(Self.dayValues(day, summary) + [personValue]).run()
    }

    /// Where `day`'s own figures came from (`Store.DaySource`), said by what wrote them; nothing
    /// when the day has no row.
    public func setSource(_ source: String, for day: CalendarDay) throws(StoreError) {
        try db.prepare("UPDATE day_summaries SET source = ?2 WHERE person = ?3 AND date = ?1")
            .bind(.text(day.description), .text(String(source.prefix(200))), personValue).run()
    }

    /// Where each day's own figures from `first` through `last` came from (days whose row says).
    public func sources(from first: CalendarDay, through last: CalendarDay) throws(StoreError) -> [CalendarDay: String] {
        let statement = try db.prepare(
            "SELECT date, source FROM day_summaries WHERE person = ?3 AND date BETWEEN ?1 AND ?2 AND source != ''")
        statement.bind(.text(first.description), .text(last.description), personValue)
        var found: [CalendarDay: String] = [:]
        while try statement.step() {
            if let day = statement.text(0).flatMap(CalendarDay.init(iso:)), let source = statement.text(1) { found[day] = source }
        }
        return found
    }

    /// Where each day from `first` through `last` came from, in words: its own row's source
    /// (an export, a CSV file, by hand) and the feeds whose samples count on it, by name.
    public func dayOrigins(from first: CalendarDay, through last: CalendarDay) throws(StoreError) -> [CalendarDay: String] {
        var names: [CalendarDay: Set<String>] = [:]
        for (day, source) in try sources(from: first, through: last) { names[day, default: []].insert(source) }
        for (day, metrics) in try sampleFeeds(from: first, through: last) {
            for feed in metrics.values { names[day, default: []].insert(feed.name) }
        }
        return names.mapValues { $0.sorted().joined(separator: ", ") }
    }

    /// Changes the summary of `day` in one transaction (read, change, write): concurrent writers
    /// of other fields are not lost. `change` gets the current summary or an empty one.
    @discardableResult
    public func updateSummary(for day: CalendarDay, _ change: (inout ActivitySummary) throws(StoreError) -> Void)
        throws(StoreError) -> ActivitySummary
    {
        try transaction { () throws(StoreError) -> ActivitySummary in
            var summary = try self.summary(for: day) ?? ActivitySummary()
            try change(&summary)
            try setSummary(summary, for: day)
            return summary
        }
    }

    /// Rejects values that must never reach the renderer: outside their `FigureRange` (negative,
    /// NaN, infinite, too large, a goal between 0 and 1).
    static func check(_ summary: ActivitySummary, day: CalendarDay) throws(StoreError) {
        guard let first = summary.problems.first else { return }
        let value = first.value.isFinite ? NumberText.plain(first.value) : "\(first.value)"
        throw StoreError(.badData, "\(day): \(first.name) \(value) \(first.problem)")
    }
}
