import Activity
import Foundation
import Gadgetbridge
import Store
import TestSupport
import Testing

/// `glance import Gadgetbridge.db`: told by content, kept as hourly samples all or nothing, in the
/// board's zone (TZ); a refused file leaves the store exactly as it was.
@Suite(.timeLimit(.minutes(10))) struct GadgetbridgeImportTests {
    let scratch = ScratchFolder("gadgetbridge-import")
    var store: String { scratch.file("glance.db") }

    /// glance with TZ set to the fixtures' zone (UTC+2, no daylight saving time).
    func glance(_ arguments: [String]) throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = GB.tz
        return try runGlance(arguments, environment: environment)
    }

    func made(_ family: GB.Family, _ name: String) throws -> String {
        let path = scratch.file(name)
        try GB.make(path, family.sql)
        return path
    }

    /// Every row of the store's days and samples (and, with `tasks`, its tasks), to compare.
    func dump(tasks: Bool = false) throws -> [String] {
        var rows = try GB.rows(store, "SELECT * FROM samples ORDER BY metric, start, source")
        rows += try GB.rows(store, "SELECT * FROM day_summaries ORDER BY date")
        rows += try GB.rows(store, "SELECT * FROM metrics ORDER BY name")
        if tasks { rows += try GB.rows(store, "SELECT * FROM tasks ORDER BY name") }
        return rows
    }

    @Test(arguments: GB.families) func theDaysInTheStoreEqualTheHandComputedTable(_ family: GB.Family) throws {
        // Named without .db: the file is told by its content.
        let file = try made(family, "export")
        let result = try glance(["import", file, "--db", store, "--quiet"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout.hasPrefix("imported 2 days (2024-03-04 to 2024-03-05) from \(file) (Gadgetbridge: "), "\(result.output)")
        let moveInSteps = family.days[0].moveIsSteps
        #expect(result.stdout.contains("Move is steps for Gadgetbridge: ") == moveInSteps, "\(result.stdout)")

        let opened = try Store(path: store, access: .read)
        let figures = try opened.sampleFigures(from: GB.day0, through: GB.day1)
        for day in family.days {
            let changes = try #require(figures[day.day])
            var summary = ActivitySummary()
            changes.apply(to: &summary)
            #expect(summary.exerciseTime == (day.exerciseMinutes > 0 ? Double(day.exerciseMinutes) : nil), "\(day.day)")
            #expect(summary.standHours == (day.standHours > 0 ? Double(day.standHours) : nil), "\(day.day)")
            #expect(summary.activeEnergyBurned == day.activeEnergy.map { .kilocalories($0) }, "\(day.day)")
        }
        let sources = try GB.rows(store, "SELECT DISTINCT source FROM samples")
        #expect(sources == [family.days[0].source])

        // Again: nothing changes.
        let before = try dump()
        let again = try glance(["import", file, "--db", store, "--quiet"])
        #expect(again.status == 0, "\(again.output)")
        #expect(again.stdout.contains(", 0 new, 0 changed, "), "\(again.stdout)")
        #expect(try dump() == before)
    }

    /// A file refused (cut mid-page, damaged, another database, the 1000× mistake) changes no
    /// row of the store; without a task, not even the task table.
    @Test func aRefusedFileLeavesTheStoreAsItWas() throws {
        let good = try made(GB.garminFamily, "garmin.db")
        let first = try glance(["import", good, "--db", store, "--quiet"])
        #expect(first.status == 0, "\(first.output)")
        #expect(try dump().count > 0)

        let whole = try Data(contentsOf: URL(fileURLWithPath: try made(GB.miBandFamily, "miband.db")))
        let cut = scratch.file("cut.db")
        try whole.prefix(whole.count - 1000).write(to: URL(fileURLWithPath: cut))
        let other = scratch.file("other.db")
        try GB.make(other, ["CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT);"])
        let ms = scratch.file("ms.db")
        try GB.make(
            ms,
            [GB.device, GB.miBand, GB.deviceRow(1, "Mi Band 6", "MIBAND6"),
             "INSERT INTO MI_BAND_ACTIVITY_SAMPLE VALUES (\(GB.at(0, 7) * 1000), 1, 1, 10, 100, 1, 80);"])

        for (file, words) in [(cut, "cut short"), (other, "DEVICE"), (ms, "MI_BAND_ACTIVITY_SAMPLE")] {
            let before = try dump()
            let refused = try glance(["import", file, "--db", store, "--quiet"])
            #expect(refused.status == 65, "\(refused.output)")
            #expect(refused.stderr.contains("glance: \(file): "), "\(refused.stderr)")
            #expect(refused.stderr.contains(words), "\(refused.stderr)")
            #expect(refused.stderr.contains("nothing was imported; the store is unchanged"), "\(refused.stderr)")
            #expect(try dump() == before, "\(file)")

            let whole = try dump(tasks: true)
            let quiet = try glance(["import", file, "--db", store, "--quiet", "--no-task"])
            #expect(quiet.status == 65, "\(quiet.output)")
            #expect(try dump(tasks: true) == whole, "\(file)")
        }
        // The import's task says it failed.
        #expect(try GB.rows(store, "SELECT state FROM tasks WHERE name = 'import'") == ["failed"])
    }

    /// A refused file leaves no store behind where there was none.
    @Test func aRefusedFileMakesNoStore() throws {
        let cut = scratch.file("cut.db")
        let whole = try Data(contentsOf: URL(fileURLWithPath: try made(GB.xiaomiFamily, "xiaomi.db")))
        try whole.prefix(whole.count / 2 + 17).write(to: URL(fileURLWithPath: cut))
        let result = try glance(["import", cut, "--db", store, "--quiet"])
        #expect(result.status == 65, "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    /// From standard input an SQLite file cannot be read: said so.
    @Test func anSQLiteFileOnStandardInputIsExplained() throws {
        let file = try made(GB.miBandFamily, "miband.db")
        let words = GlanceExecutable.words(["import", "-", "--db", store, "--quiet"]).map { "'\($0)'" }.joined(separator: " ")
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = GB.tz
        let result = try runProcess("/bin/sh", ["-c", "exec \(words) < '\(file)'"], environment: environment)
        #expect(result.status == 65, "\(result.output)")
        #expect(result.stderr.contains("an SQLite database (Gadgetbridge's export?)"), "\(result.stderr)")
    }
}
