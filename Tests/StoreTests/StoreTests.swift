import Activity
import Foundation
import Testing

@testable import Store

@Suite(.timeLimit(.minutes(10))) struct StoreTests {
    @Test func newStoreHasTheCurrentSchemaAndWAL() throws {
        let scratch = Scratch()
        let store = try Store(path: scratch.file("sub/folder/glance.db"))
        #expect(try store.schemaVersion() == Schema.currentVersion)
        let mode = try store.db.prepare("PRAGMA journal_mode")
        #expect(try mode.step())
        #expect(mode.text(0) == "wal")
        #expect(try store.integrityCheck() == "ok")
    }

    @Test func theDayColumnListMatchesTheTableMigration1Made() throws {
        let scratch = Scratch()
        let store = try Store(path: scratch.db)
        let info = try store.db.prepare("PRAGMA table_info(day_summaries)")
        var names: [String] = []
        while try info.step() { names.append(info.text(1) ?? "") }
        // Whose day (schema 5), every figure's column, then the day's source (said apart: `Store.setSource`).
        #expect(names == ["person"] + Store.dayColumnNames + ["source"])
    }

    @Test func reopeningDoesNotMigrateAgainAndANewerSchemaIsRefused() throws {
        let scratch = Scratch()
        do {
            let store = try Store(path: scratch.db)
            try store.setSummary(ActivitySummary(exerciseTime: 5), for: .init(iso: "2024-03-01")!)
        }
        let again = try Store(path: scratch.db)
        #expect(try again.dayCount() == 1)
        try again.db.execute("PRAGMA user_version = \(Schema.currentVersion + 1)")
        for access in [Store.Access.read, .write, .create] {
            let error = thrownStoreError { _ = try Store(path: scratch.db, access: access) }
            #expect(error != nil, "no error")
            // 65 as for any store this build cannot use (issue 16, 13: it was 74, an I/O error).
            #expect(error?.kind == .badData && error?.message.contains("update Glance") == true)
        }
    }

    @Test func aMissingStoreIsNotCreatedWhenReading() throws {
        let scratch = Scratch()
        for access in [Store.Access.read, .write] {
            let error = thrownStoreError { _ = try Store(path: scratch.db, access: access) }
            #expect(error != nil, "no error")
            #expect(error?.kind == .missing)
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.db))
    }

    /// Someone else's SQLite database (tables, no Glance schema version), in rollback-journal mode.
    static func foreignDatabase(_ path: String) throws {
        let db = try Connection(path: path, mode: .readWrite(create: true))
        try db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes VALUES (1, 'mine')")
    }

    static func bytes(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    @Test(arguments: [Store.Access.read, .write, .create])
    func someoneElsesDatabaseIsRefusedAndNotWrittenTo(access: Store.Access) throws {
        let scratch = Scratch()
        let path = scratch.file("notes.sqlite")
        try Self.foreignDatabase(path)
        let before = try #require(Self.bytes(path))
        let error = thrownStoreError { _ = try Store(path: path, access: access) }
            #expect(error != nil, "no error")
        #expect(error?.kind == .badData)
        #expect(error?.message == "not a Glance store: \(path) (give the Glance store with --db)")
        let unchanged = Self.bytes(path) == before
        #expect(unchanged, "the file's bytes changed")  // still a rollback journal, no Glance tables
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func readingACurrentStoreWritesNothingAndAnEmptyFileBecomesAStoreOnlyWhenCreating() throws {
        let scratch = Scratch()
        do { try Store(path: scratch.db).setMetric("cpu", value: 40) }
        let before = try #require(Self.bytes(scratch.db))
        do {
            let reader = try Store(path: scratch.db, access: .read)
            #expect(try reader.metric(named: "cpu")?.value == 40)
            #expect(try reader.schemaVersion() == Schema.currentVersion)
            #expect(throws: StoreError.self) { try reader.setMetric("cpu", value: 41) }
        }
        let unchanged = Self.bytes(scratch.db) == before
        #expect(unchanged, "reading changed the store file's bytes")

        // An empty file (no tables, version 0) is left as it is unless a store is to be made
        // (issue 16, 9: export, metric list, task list and render --db turned it into a store).
        let empty = scratch.write("empty.db", "")
        for access in [Store.Access.read, .write] {
            let error = thrownStoreError { _ = try Store(path: empty, access: access) }
            #expect(error != nil, "no error")
            #expect(error?.kind == .badData && error?.message.contains("empty database") == true)
            #expect(Self.bytes(empty) == [], "the empty file was written to")
        }
        let created = try Store(path: empty, access: .create).schemaVersion()
        #expect(created == Schema.currentVersion)
    }

    @Test func defaultPathFollowsRootAndXDG() {
        #expect(StoreLocation.defaultPath(isRoot: true) { _ in "/x" } == "/var/lib/glance/glance.db")
        #expect(
            StoreLocation.defaultPath(isRoot: false) { $0 == "XDG_DATA_HOME" ? "/data/" : "/home/a" }
                == "/data/glance/glance.db")
        #expect(
            StoreLocation.defaultPath(isRoot: false) { $0 == "HOME" ? "/home/a" : nil }
                == "/home/a/.local/share/glance/glance.db")
        // A relative XDG_DATA_HOME is ignored, as the spec says.
        #expect(
            StoreLocation.defaultPath(isRoot: false) { $0 == "XDG_DATA_HOME" ? "rel" : "/home/a" }
                == "/home/a/.local/share/glance/glance.db")
        #expect(StoreLocation.defaultPath(isRoot: false) { _ in nil } == nil)
    }

    static let days: [ActivitySummary] = [
        ActivitySummary(),
        ActivitySummary(
            activeEnergyBurned: Energy(1460, .kilojoule), activeEnergyBurnedGoal: .kilocalories(500),
            exerciseTime: 0, exerciseTimeGoal: 0, standHours: 0, standHoursGoal: 0),
        ActivitySummary(
            activeEnergyBurned: Energy(547.163, .largeCalorie), activeEnergyBurnedGoal: Energy(680, .largeCalorie),
            moveTime: 0, moveTimeGoal: 0, exerciseTime: 44, exerciseTimeGoal: 30, standHours: 10, standHoursGoal: 12),
        ActivitySummary(moveTime: 42, moveTimeGoal: 60, exerciseTime: 10, moveMode: .moveTime),
    ]

    @Test(arguments: days)
    func daySummariesRoundTripExactly(summary: ActivitySummary) throws {
        let scratch = Scratch()
        let store = try Store(path: scratch.db)
        let day = CalendarDay(iso: "2025-01-31")!
        try store.setSummary(summary, for: day)
        #expect(try store.summary(for: day) == summary)
        #expect(try store.summary(for: day.adding(days: 1)) == nil)
    }

    @Test func invalidValuesNeverReachTheStore() throws {
        let scratch = Scratch()
        let store = try Store(path: scratch.db)
        let day = CalendarDay(iso: "2025-01-31")!
        #expect(throws: StoreError.self) { try store.setSummary(ActivitySummary(exerciseTime: -1), for: day) }
        #expect(throws: StoreError.self) { try store.setSummary(ActivitySummary(standHours: .nan), for: day) }
        #expect(try store.dayCount() == 0)
    }

    @Test func updateSummaryKeepsTheOtherFields() throws {
        let scratch = Scratch()
        let store = try Store(path: scratch.db)
        let day = CalendarDay(iso: "2025-02-01")!
        try store.updateSummary(for: day) { $0.exerciseTime = 12 }
        try store.updateSummary(for: day) { $0.standHours = 3 }
        #expect(try store.summary(for: day) == ActivitySummary(exerciseTime: 12, standHours: 3))
        let range = try store.summaries(from: day.adding(days: -1), through: day.adding(days: 1))
        #expect(range.map(\.day) == [day])
    }

    @Test func metricsKeepRangeAndUnitUnlessChanged() throws {
        let scratch = Scratch()
        let store = try Store(path: scratch.db)
        try store.setMetric("cpu", value: 40, minimum: .set(20), maximum: .set(90), unit: .set("°C"))
        let m = try store.setMetric("cpu", value: 55)
        #expect(m.value == 55 && m.minimum == 20 && m.maximum == 90 && m.unit == "°C")
        try store.setMetric("cpu", value: nil, unit: .clear)
        #expect(try store.metric(named: "cpu")?.value == nil)
        #expect(try store.metric(named: "cpu")?.unit == nil)
        #expect(throws: StoreError.self) { try store.setMetric("cpu", value: 1, minimum: .set(95)) }
        #expect(throws: StoreError.self) { try store.setMetric("", value: 1) }
        #expect(throws: StoreError.self) { try store.setMetric("x", value: .infinity) }
        #expect(try store.removeMetric(named: "cpu"))
        #expect(try store.metrics().isEmpty)
    }

    @Test func taskLifecycleAndCancelRequests() throws {
        let scratch = Scratch()
        let store = try Store(path: scratch.db)
        try store.startTask("copy", total: nil, description: "Copying", cancellable: true)
        #expect(try store.task(named: "copy")?.fraction == nil)  // indeterminate until the total is known
        var t = try store.updateTask("copy", done: 25, total: .set(100))
        #expect(t.fraction == 0.25 && !t.cancelRequested)
        // Another connection (the app's Cancel button) asks it to stop.
        try Store(path: scratch.db).requestCancel("copy")
        t = try store.updateTask("copy", done: 30)
        #expect(t.cancelRequested)
        try store.finishTask("copy", state: .cancelled)
        #expect(try store.runningTasks().isEmpty)
        #expect(throws: StoreError.self) { try store.requestCancel("copy") }

        try store.startTask("fixed", total: 3, description: nil, cancellable: false)
        #expect(throws: StoreError.self) { try store.requestCancel("fixed") }
        #expect(throws: StoreError.self) {
            try store.startTask("fixed", total: 3, description: nil, cancellable: false)
        }
        #expect(try store.finishTask("fixed", state: .done).done == 3)

        // Ended as done after a cancel was asked (its owner stopped, as asked): cancelled, with
        // what it did, for every writer (the command line, glance serve's PATCH).
        try store.startTask("sync", total: 10, description: nil, cancellable: true)
        try store.updateTask("sync", done: 4)
        try Store(path: scratch.db).requestCancel("sync")
        let ended = try store.finishTask("sync", state: .done)
        #expect(ended.state == .cancelled && ended.done == 4)
        #expect(try store.task(named: "sync")?.state == .cancelled)
        // Failed after a cancel stays failed.
        try store.startTask("sync", total: 10, description: nil, cancellable: true)
        try Store(path: scratch.db).requestCancel("sync")
        #expect(try store.finishTask("sync", state: .failed).state == .failed)
    }

    @Test func aRunningTaskWhoseProcessDiedCountsAsFailed() throws {
        let scratch = Scratch()
        let store = try Store(path: scratch.db)
        // pid 2^22+1 is above the kernel's pid limit, so no process has it.
        try store.startTask("ghost", total: 10, description: nil, cancellable: true, pid: 4_194_305)
        #expect(try store.task(named: "ghost")?.state == .failed)
        // …and it can be started again.
        try store.startTask("ghost", total: 10, description: nil, cancellable: true, pid: getpid())
        #expect(try store.task(named: "ghost")?.state == .running)
    }

    @Test func exportWritesNumbersThatReadBackExactly() {
        #expect(Store.csvNumber(300) == "300")
        #expect(Store.csvNumber(590.252) == "590.252")
        #expect(Store.csvNumber(0.1 + 0.2) == "0.30000000000000004")
        #expect(Store.csvNumber(nil) == "")
        #expect(Store.csvText("a,b") == "\"a,b\"")
        #expect(Store.csvText("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(Store.isoTime(0) == "1970-01-01T00:00:00Z")
        #expect(Store.isoTime(1_700_000_000) == "2023-11-14T22:13:20Z")
        #expect(Store.isoTime(951_782_400) == "2000-02-29T00:00:00Z")
        #expect(Store.isoTime(-1) == "1969-12-31T23:59:59Z")
        // Any Int64 a store may hold (issue 16, 3: gmtime's tm_year + 1900 overflowed and crashed).
        #expect(Store.isoTime(67_768_036_191_676_799) == "2147485547-12-31T23:59:59Z")
        #expect(Store.isoTime(Int64.max) == "292277026596-12-04T15:30:07Z")
        #expect(Store.isoTime(Int64.min) == "-292277022657-01-27T08:29:52Z")
        #expect(Store.isoTime(-62_135_596_800) == "0001-01-01T00:00:00Z")
    }

    @Test(
        arguments: [
            ("12", true), ("590.252", true), ("-3", true), ("+.5", true), ("5.", true), ("1e3", true),
            ("1E-3", true), ("0x1p3", false), ("0x10", false), ("nan", false), ("inf", false), ("", false),
            (".", false), ("1e", false), (" 1", false), ("1 ", false), ("1_000", false), ("--1", false),
        ] as [(String, Bool)])
    func oneDecimalCheckForEveryNumberReadAsText(text: String, isDecimal: Bool) {
        #expect(DecimalText.isDecimal(text) == isDecimal)
        #expect(DecimalText.isDecimal(text[...]) == isDecimal)
    }

    @Test func whitespaceIsTrimmedOneWay() {
        #expect(" \t12.5\r\n".trimmingWhitespace == "12.5")
        #expect("a b".trimmingWhitespace == "a b")
        #expect(" \n ".trimmingWhitespace == "")
        #expect("".trimmingWhitespace == "")
        #expect("x"[...].trimmingWhitespace == "x")
    }

    @Test(
        arguments: [
            (energyGoal: 500.0, moveTimeGoal: nil, expected: MoveMode.activeEnergy),
            (energyGoal: nil, moveTimeGoal: 60.0, expected: .moveTime),
            (energyGoal: 0.0, moveTimeGoal: 60.0, expected: .moveTime),
            (energyGoal: 680.0, moveTimeGoal: 0.0, expected: .activeEnergy),
            (energyGoal: 500.0, moveTimeGoal: 60.0, expected: .activeEnergy),
            (energyGoal: nil, moveTimeGoal: nil, expected: .activeEnergy),
        ] as [(energyGoal: Double?, moveTimeGoal: Double?, expected: MoveMode)])
    func moveModeIsInferredFromGoals(energyGoal: Double?, moveTimeGoal: Double?, expected: MoveMode) {
        #expect(MoveMode.inferred(energyGoal: energyGoal, moveTimeGoal: moveTimeGoal) == expected)
    }
}

#if canImport(Glibc)
    import Glibc
#endif

/// The StoreError `body` throws, or nil (Swift 6.0's Testing has no value-returning #expect(throws:)).
func thrownStoreError(_ body: () throws -> Void) -> StoreError? {
    do {
        try body()
        return nil
    } catch let error as StoreError {
        return error
    } catch {
        return nil
    }
}
