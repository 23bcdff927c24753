import Activity

/// Gathers the days an import reads into a TEMP table, so the store itself is untouched (and its
/// write lock free for `glance log` and task updates) until one short transaction merges them.
final class DayCollector {
    let db: Connection
    let skipInvalid: Bool
    let dateShift: Int
    private(set) var count = 0
    private(set) var skipped = 0
    private(set) var skippedExamples: [String] = []
    private let insert: Statement

    static let maxExamples = 5

    init(db: Connection, skipInvalid: Bool, dateShift: Int = 0) throws(StoreError) {
        self.db = db
        self.skipInvalid = skipInvalid
        self.dateShift = dateShift
        try db.execute(
            """
            CREATE TEMP TABLE IF NOT EXISTS import_days (
                date TEXT PRIMARY KEY NOT NULL, active_energy_burned REAL, active_energy_burned_unit TEXT,
                active_energy_burned_goal REAL, active_energy_burned_goal_unit TEXT, move_time REAL,
                move_time_goal REAL, exercise_time REAL, exercise_time_goal REAL, stand_hours REAL,
                stand_hours_goal REAL, move_mode TEXT NOT NULL
            ) WITHOUT ROWID;
            DELETE FROM temp.import_days;
            """)
        insert = try db.prepare(
            "INSERT OR REPLACE INTO temp.import_days (\(Store.dayColumns)) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)",
            persistent: true)
    }

    /// Adds one day read at `location` (`file:line:column`); a later row for the same date wins.
    func add(_ fields: ExportDayFields, at location: @autoclosure () -> String) throws(StoreError) {
        guard let date = fields.date else {
            try reject("ActivitySummary without dateComponents (the date of the day)", at: location())
            return
        }
        let summary = fields.summary()
        try insert.bind(Store.dayValues(date.adding(days: dateShift), summary)).run()
        count += 1
    }

    /// A row that cannot be read: skipped and counted with --skip-invalid, else the import fails.
    func reject(_ message: String, at location: String) throws(StoreError) {
        let text = "\(location): \(message)"
        guard skipInvalid else { throw StoreError(.badData, text, isSkippableRow: true) }
        skipped += 1
        if skippedExamples.count < Self.maxExamples { skippedExamples.append(text) }
    }

    struct MergeCounts {
        var days = 0, new = 0, changed = 0, unchanged = 0
        var first: CalendarDay?, last: CalendarDay?
    }

    /// Writes the gathered days into the store (call inside the import's transaction).
    func merge() throws(StoreError) -> MergeCounts {
        var counts = MergeCounts()
        let range = try db.prepare("SELECT count(*), min(date), max(date) FROM temp.import_days")
        if try range.step() {
            counts.days = Int(range.int64(0) ?? 0)
            counts.first = range.text(1).flatMap { CalendarDay(iso: $0) }
            counts.last = range.text(2).flatMap { CalendarDay(iso: $0) }
            range.reset()
        }
        let same = Store.dayColumns.split(separator: ",").dropFirst()
            .map { "d.\($0.trimmingWhitespace) IS s.\($0.trimmingWhitespace)" }.joined(separator: " AND ")
        counts.new = Int(
            try db.integer(
                """
                SELECT count(*) FROM temp.import_days s
                WHERE NOT EXISTS (SELECT 1 FROM main.day_summaries d WHERE d.date = s.date)
                """) ?? 0)
        counts.unchanged = Int(
            try db.integer(
                """
                SELECT count(*) FROM temp.import_days s
                WHERE EXISTS (SELECT 1 FROM main.day_summaries d WHERE d.date = s.date AND \(same))
                """) ?? 0)
        counts.changed = counts.days - counts.new - counts.unchanged
        let updates = Store.dayColumns.split(separator: ",").dropFirst()
            .map { "\($0.trimmingWhitespace) = excluded.\($0.trimmingWhitespace)" }.joined(separator: ", ")
        try db.execute(
            """
            INSERT INTO main.day_summaries (\(Store.dayColumns)) SELECT \(Store.dayColumns) FROM temp.import_days
            WHERE true ON CONFLICT (date) DO UPDATE SET \(updates)
            """)
        return counts
    }

    /// Forgets the gathered days.
    func discard() {
        try? db.execute("DELETE FROM temp.import_days")
    }
}
