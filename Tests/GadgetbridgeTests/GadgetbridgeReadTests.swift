import Activity
import Foundation
import Gadgetbridge
import TestSupport
import Testing

/// Gadgetbridge's export read into minutes and the rings' figures, from databases the tests make
/// (`GB`): every day against a hand-computed table, the timestamp units, and the files refused.
@Suite(.timeLimit(.minutes(10))) struct GadgetbridgeReadTests {
    let scratch = ScratchFolder("gadgetbridge")

    func made(_ family: GB.Family, wal: Bool = false) throws -> String {
        let path = scratch.file("Gadgetbridge-\(family.name.prefix(6).filter(\.isLetter)).db")
        try GB.make(path, family.sql, wal: wal)
        return path
    }

    @Test(arguments: GB.families) func everyDayEqualsTheHandComputedTable(_ family: GB.Family) throws {
        let export = try Export.read(try made(family))
        #expect(export.devices.count == 1)
        let rings = Rings.figures(export, zone: GB.Zone())
        #expect(rings.days == family.days)
        // The samples are on local hours and sum to the days' figures.
        for sample in rings.samples {
            #expect((sample.start + Int64(GB.offset)) % 3600 == 0, "\(sample)")
            #expect(Rings.localDay(sample.start, GB.Zone()) == sample.day)
        }
        for day in family.days {
            let on = rings.samples.filter { $0.day == day.day }
            func sum(_ metric: HourSample.Metric) -> Double { on.filter { $0.metric == metric }.reduce(0) { $0 + $1.value } }
            #expect(sum(.steps) == Double(day.steps))
            #expect(sum(.exerciseMinutes) == Double(day.exerciseMinutes))
            #expect(sum(.standHours) == Double(day.standHours))
            #expect(sum(.activeEnergy) == (day.activeEnergy ?? 0))
        }
    }

    @Test func theTablesAreChosenByTypeName() throws {
        #expect(Tables.table(forType: "MIBAND6") == "MI_BAND_ACTIVITY_SAMPLE")
        #expect(Tables.table(forType: "AMAZFITGTR4") == "HUAMI_EXTENDED_ACTIVITY_SAMPLE")
        #expect(Tables.table(forType: "MIBAND8") == "XIAOMI_ACTIVITY_SAMPLE")
        #expect(Tables.table(forType: "GARMIN_FENIX_8") == "GARMIN_ACTIVITY_SAMPLE")
        #expect(Tables.table(forType: "SONY_WH_1000XM4") == nil)
        #expect(Tables.timestampUnit(of: "MI_BAND_ACTIVITY_SAMPLE") == .seconds)
        #expect(Tables.timestampUnit(of: "XIAOMI_DAILY_SUMMARY_SAMPLE") == .milliseconds)
    }

    /// A device of a type the table does not list, in a table of an unknown family that has the
    /// columns; a known device whose rows are elsewhere than its family's table; headphones with
    /// no rows at all (left out).
    @Test func aTypeNotListedTakesTheActivityTableHoldingItsRows() throws {
        let path = scratch.file("fallback.db")
        try GB.make(
            path,
            [
                GB.device, GB.miBand,
                "CREATE TABLE \"FUTURE_WATCH_ACTIVITY_SAMPLE\" (\"TIMESTAMP\" INTEGER NOT NULL, \"DEVICE_ID\" INTEGER NOT NULL, "
                    + "\"USER_ID\" INTEGER NOT NULL, \"STEPS\" INTEGER NOT NULL, PRIMARY KEY (\"TIMESTAMP\", \"DEVICE_ID\")) WITHOUT ROWID;",
                GB.deviceRow(1, "Future Watch", "FUTUREWATCH"), GB.deviceRow(2, "Buds", "GALAXY_BUDS"),
                GB.deviceRow(3, "Old Band", "MIBAND6"),
                "INSERT INTO FUTURE_WATCH_ACTIVITY_SAMPLE VALUES (\(GB.at(0, 9)), 1, 1, 120), (\(GB.at(0, 9, 1)), 1, 1, 80);",
                "INSERT INTO FUTURE_WATCH_ACTIVITY_SAMPLE VALUES (\(GB.at(1, 9)), 3, 1, 50);",
            ])
        let export = try Export.read(path)
        #expect(export.devices.map(\.device.name) == ["Future Watch", "Old Band"])
        #expect(export.devices.map(\.table) == ["FUTURE_WATCH_ACTIVITY_SAMPLE", "FUTURE_WATCH_ACTIVITY_SAMPLE"])
        #expect(export.stepGoal == nil)
        let rings = Rings.figures(export, zone: GB.Zone())
        #expect(
            rings.days == [
                DayFigures(
                    day: GB.day0, source: "Gadgetbridge: Future Watch", activeEnergy: nil, steps: 200, stepGoal: 10_000,
                    stepGoalIsDefault: true, exerciseMinutes: 1, standHours: 1),
                DayFigures(
                    day: GB.day1, source: "Gadgetbridge: Old Band", activeEnergy: nil, steps: 50, stepGoal: 10_000,
                    stepGoalIsDefault: true, exerciseMinutes: 0, standHours: 1),
            ])
        #expect(export.devices[0].minutes == [Minute(start: GB.at(0, 9), steps: 120), Minute(start: GB.at(0, 9, 1), steps: 80)])
    }

    @Test func heartRateOfMinusOneZeroOr255IsNoReading() throws {
        let export = try Export.read(try made(GB.miBandFamily))
        let minutes = export.devices[0].minutes
        #expect(minutes.first { $0.start == GB.at(0, 7) }?.heartRate == 95)
        #expect(minutes.first { $0.start == GB.at(0, 12, 10) }?.heartRate == nil)  // −1
        #expect(minutes.first { $0.start == GB.at(0, 23, 59) }?.heartRate == nil)  // 0
        #expect(minutes.first { $0.start == GB.at(1, 0, 30) }?.heartRate == nil)  // 255
        #expect(minutes.allSatisfy { $0.activeCalories == nil })
        let garmin = try Export.read(try made(GB.garminFamily)).devices[0]
        #expect(garmin.hasActiveEnergy)
        #expect(garmin.minutes.first { $0.start == GB.at(0, 14, 1) }?.activeCalories == 0)  // −1 is none
    }

    /// The file is read, never written: a database left in WAL mode (as Android keeps it) is read
    /// without a -wal, -shm or -journal appearing beside it, and its bytes stay as they were.
    @Test func theFileIsReadOnlyAndNothingAppearsBesideIt() throws {
        let path = try made(GB.garminFamily, wal: true)
        for suffix in ["-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(before[18] == 2 && before[19] == 2, "the fixture is in WAL mode")
        let rings = Rings.figures(try Export.read(path), zone: GB.Zone())
        #expect(rings.days == GB.garminFamily.days)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        for suffix in ["-wal", "-shm", "-journal"] {
            #expect(!FileManager.default.fileExists(atPath: path + suffix), "\(suffix) appeared")
        }
    }

    // MARK: The unit of TIMESTAMP

    /// The 1000× mistake: the daily summary (milliseconds) read as seconds fails, naming the table;
    /// read in its own unit it passes.
    @Test func aMillisecondTableReadAsSecondsFails() throws {
        let path = try made(GB.xiaomiFamily)
        let error = thrown {
            try Export.checkTimestamps(path, table: "XIAOMI_DAILY_SUMMARY_SAMPLE", unit: .seconds)
        }
        #expect(error?.kind == .badTimestamps)
        #expect(error?.description.hasPrefix(path + ": table XIAOMI_DAILY_SUMMARY_SAMPLE: TIMESTAMP \(GB.at(0, 0) * 1000)") == true)
        #expect(error?.description.contains("only read as milliseconds") == true)
        try Export.checkTimestamps(path, table: "XIAOMI_DAILY_SUMMARY_SAMPLE", unit: .milliseconds)
        try Export.checkTimestamps(path, table: "XIAOMI_ACTIVITY_SAMPLE", unit: .seconds)
        #expect(thrown { try Export.checkTimestamps(path, table: "XIAOMI_ACTIVITY_SAMPLE", unit: .milliseconds) }?.kind == .badTimestamps)
    }

    /// An activity table holding milliseconds, or a daily summary holding seconds: the read fails,
    /// naming the table, instead of putting the days 1000× away.
    @Test func aTableInTheOtherUnitIsRefusedByTheRead() throws {
        let ms = scratch.file("ms.db")
        try GB.make(
            ms,
            [GB.device, GB.miBand, GB.deviceRow(1, "Mi Band 6", "MIBAND6"),
             "INSERT INTO MI_BAND_ACTIVITY_SAMPLE VALUES (\(GB.at(0, 7) * 1000), 1, 1, 10, 100, 1, 80);"])
        let error = thrown { try Export.read(ms) }
        #expect(error?.kind == .badTimestamps)
        #expect(error?.description.contains("table MI_BAND_ACTIVITY_SAMPLE") == true)

        let seconds = scratch.file("seconds.db")
        try GB.make(
            seconds,
            [GB.device, GB.xiaomi, GB.xiaomiDaily, GB.deviceRow(1, "Band 8", "MIBAND8"),
             "INSERT INTO XIAOMI_DAILY_SUMMARY_SAMPLE (TIMESTAMP, DEVICE_ID, USER_ID, STANDING) VALUES (\(GB.at(0, 0)), 1, 1, 3);"])
        let other = thrown { try Export.read(seconds) }
        #expect(other?.kind == .badTimestamps)
        #expect(other?.description.contains("table XIAOMI_DAILY_SUMMARY_SAMPLE") == true)
        #expect(other?.description.contains("only read as seconds") == true)
    }

    // MARK: Files refused

    func refused(_ path: String, _ kind: GadgetbridgeError.Kind, _ words: String) {
        let error = thrown { try Export.read(path) }
        #expect(error?.kind == kind, "\(String(describing: error))")
        #expect(error?.description.hasPrefix(path + ": ") == true, "\(String(describing: error))")
        #expect(error?.description.contains(words) == true, "\(String(describing: error))")
    }

    @Test func aFileThatIsNotSQLiteIsRefused() throws {
        refused(scratch.write("export.xml", "<?xml version=\"1.0\"?>\n<HealthData/>\n"), .notSQLite, "not an SQLite database")
        refused(scratch.write("empty.db", ""), .notSQLite, "empty")
        refused(scratch.file("missing.db"), .missing, "no such file")
        refused(scratch.write("head.db", "SQLite format 3\u{0}abc"), .damaged, "cut short")
    }

    @Test func aFileCutShortIsRefused() throws {
        let path = try made(GB.miBandFamily)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        let pageSize = Int(whole[16]) << 8 | Int(whole[17])
        #expect(whole.count >= 3 * pageSize)
        // Mid-page: a copy still being written.
        let mid = scratch.file("mid.db")
        try whole.prefix(whole.count - pageSize / 2).write(to: URL(fileURLWithPath: mid))
        refused(mid, .damaged, "cut short")
        // At a page's end: the header still counts the page that is missing.
        let page = scratch.file("page.db")
        try whole.prefix(whole.count - pageSize).write(to: URL(fileURLWithPath: page))
        refused(page, .damaged, "cut short")
    }

    @Test func aDamagedFileIsRefused() throws {
        let path = try made(GB.miBandFamily)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        // The last page (a b-tree page of rows): its header and cells overwritten.
        let last = bytes.count - pageSize
        for i in 0..<pageSize { bytes[last + i] = UInt8(truncatingIfNeeded: i * 7 + 13) }
        let damaged = scratch.file("damaged.db")
        try bytes.write(to: URL(fileURLWithPath: damaged))
        refused(damaged, .damaged, "damaged")
    }

    @Test func anotherDatabaseIsRefused() throws {
        let other = scratch.file("other.db")
        try GB.make(other, ["CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT);", "INSERT INTO notes VALUES (1, 'x');"])
        refused(other, .notGadgetbridge, "DEVICE")
        let noActivity = scratch.file("headphones.db")
        try GB.make(noActivity, [GB.device, GB.userAttributes, GB.deviceRow(1, "Buds", "GALAXY_BUDS")])
        refused(noActivity, .notGadgetbridge, "no activity table")
    }

    @Test func falseFromProgressStopsTheRead() throws {
        let path = try made(GB.garminFamily)
        var calls = 0
        let error = thrown {
            try Export.read(path) { _ in
                calls += 1
                return calls < 2
            }
        }
        #expect(error?.kind == .stopped)
    }
}

/// The error `body` throws (an issue is recorded when it throws none, or another kind of error).
/// (Not `#expect(throws:)`'s result: Swift 6.0's swift-testing returns none.)
func thrown(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) -> GadgetbridgeError? {
    do {
        try body()
    } catch let error as GadgetbridgeError {
        return error
    } catch {
        Issue.record("another error than GadgetbridgeError: \(error)", sourceLocation: sourceLocation)
        return nil
    }
    Issue.record("no error was thrown", sourceLocation: sourceLocation)
    return nil
}
