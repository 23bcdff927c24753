import Activity

/// Gathers the days an import reads into a TEMP table, so the store itself is untouched (and its
/// write lock free for `glance log` and task updates) until one short transaction merges them.
package final class DayCollector {
    let db: Connection
    let skipInvalid: Bool
    let dateShift: Int
    /// Whose days they are (`Store.person`).
    let person: Int
    private(set) var skipped = 0
    private(set) var skippedExamples: [String] = []
    private let insert: Statement
    /// Where the days come from, for days whose row does not say (`Store.setSource`).
    var source = "Apple Health export"

    static let maxExamples = 5

    init(db: Connection, person: Int = 1, skipInvalid: Bool, dateShift: Int = 0) throws(StoreError) {
        self.db = db
        self.person = person
        self.skipInvalid = skipInvalid
        self.dateShift = dateShift
        try db.execute(Self.createSQL)
        insert = try db.prepare(Self.insertSQL, persistent: true)
    }

    /// The days read, keyed by date, in the store's columns (types as bound: the checks ran already).
    private static let createSQL = """
        CREATE TEMP TABLE IF NOT EXISTS import_days (
            date TEXT PRIMARY KEY NOT NULL, \(Store.dayColumnNames.dropFirst().joined(separator: ", ")), source
        ) WITHOUT ROWID;
        DELETE FROM temp.import_days;
        """

    private static let insertSQL =
        "INSERT OR REPLACE INTO temp.import_days (\(Store.dayColumns), source) VALUES (\(Store.dayParameters),?\(Store.dayColumnNames.count + 1))"

    /// Days read, new ones, unchanged ones (every column the same), first and last date: one pass
    /// (the person's days: ?1).
    private static let countSQL: String = {
        let same = Store.dayColumnNames.dropFirst().map { "d.\($0) IS s.\($0)" }.joined(separator: " AND ")
        return """
            SELECT count(*), count(*) - count(d.date), coalesce(sum(d.date IS NOT NULL AND \(same)), 0),
                min(s.date), max(s.date)
            FROM temp.import_days s LEFT JOIN main.day_summaries d ON d.person = ?1 AND d.date = s.date
            """
    }()

    /// The days into the store, the person's (?1): new dates inserted, existing ones take the file's values.
    private static let mergeSQL: String = {
        let updates = (Store.dayColumnNames.dropFirst() + ["source"]).map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        return """
            INSERT INTO main.day_summaries (person, \(Store.dayColumns), source)
            SELECT ?1, \(Store.dayColumns), source FROM temp.import_days
            WHERE true ON CONFLICT (person, date) DO UPDATE SET \(updates)
            """
    }()

    /// Adds one day read at `location` (`file:line:column`); a later row for the same date wins.
    package func add(_ fields: ExportDayFields, at location: @autoclosure () -> String) throws(StoreError) {
        guard let date = fields.date else {
            try reject("ActivitySummary without dateComponents (the date of the day)", at: location())
            return
        }
        guard let day = date.shifted(by: dateShift) else {
            try reject("\(date) moved by \(dateShift) days leaves the years 0001 to 9999", at: location())
            return
        }
        let summary = fields.summary()
        try insert.bind(Store.dayValues(day, summary) + [.text(fields.source ?? source)]).run()
    }

    /// A row that cannot be read: skipped and counted with --skip-invalid, else the import fails.
    package func reject(_ message: String, at location: String) throws(StoreError) {
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
        let count = try db.prepare(Self.countSQL)
        if try count.bind(.integer(Int64(person))).step() {
            counts.days = Int(count.int64(0) ?? 0)
            counts.new = Int(count.int64(1) ?? 0)
            counts.unchanged = Int(count.int64(2) ?? 0)
            counts.first = count.text(3).flatMap { CalendarDay(iso: $0) }
            counts.last = count.text(4).flatMap { CalendarDay(iso: $0) }
            count.reset()
        }
        counts.changed = counts.days - counts.new - counts.unchanged
        try db.prepare(Self.mergeSQL).bind(.integer(Int64(person))).run()
        return counts
    }

    /// Forgets the gathered days.
    func discard() {
        try? db.execute("DELETE FROM temp.import_days")
    }
}
