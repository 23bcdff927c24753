import Activity
import Foundation
import TestSupport
import Testing

@testable import Store

/// A scratch folder for one test, removed when released (TestSupport's), with the store's file.
typealias Scratch = ScratchFolder

extension ScratchFolder {
    convenience init() { self.init("store-test") }

    var db: String { file("glance.db") }
}

/// The real Apple Health files in ../shared/data/apple-health (beside the repository).
enum Fixtures {
    static let repository = Repository.root

    static let folder = repository + "/../shared/data/apple-health"

    /// Whether the real files are there; a test that reads them is enabled by it (and reported
    /// as skipped, with `absent`, where they are not). The synthetic set runs everywhere.
    static let available = FileManager.default.fileExists(atPath: folder + "/README.md")
    static let absent: Comment = "../shared/data/apple-health is absent (the real exports live beside the repository); the synthetic set ran instead"

    static func path(_ name: String) -> String { "\(folder)/\(name)" }
}

/// The files the import tests read and what is known of them: the real exports, and synthetic
/// ones of the same shapes committed in Tests/Fixtures/apple-health (written for the tests).
struct FixtureSet: Sendable, CustomTestStringConvertible {
    let name: String
    let folder: String
    /// An export without a DTD: Records with MetadataEntry children, a Workout, 2 days in kcal.
    let plainXML: String
    let plainDays: [(day: String, summary: ActivitySummary)]
    /// An export of version 14: an inline DTD, comments, 3 days in Cal with move time 0.
    let dtdXML: String
    let dtdDays: [(day: String, energy: Double, exercise: Double, stand: Double)]
    let dtdEnergyGoal: Double
    /// An iPhone-only user's CSV: Move only, exercise and stand values and goals 0.
    let csv: String
    let csvDays: Int
    let csvFirst: String, csvLast: String
    let csvEnergy: Double
    let csvGoal: Double
    /// The last day's energy.
    let csvLastEnergy: Double

    var testDescription: String { name }
    func path(_ file: String) -> String { folder + "/" + file }

    static let real = FixtureSet(
        name: "real exports", folder: Fixtures.folder, plainXML: "dogsheep-export.xml",
        plainDays: [
            ("2016-11-15", ActivitySummary(
                activeEnergyBurned: .kilocalories(590.252), activeEnergyBurnedGoal: .kilocalories(630),
                exerciseTime: 68, exerciseTimeGoal: 30, standHours: 13, standHoursGoal: 12)),
            ("2016-11-16", ActivitySummary(
                activeEnergyBurned: .kilocalories(323.513), activeEnergyBurnedGoal: .kilocalories(630),
                exerciseTime: 39, exerciseTimeGoal: 30, standHours: 9, standHoursGoal: 12)),
        ],
        dtdXML: "grll-export-v14.xml",
        dtdDays: [("2025-05-08", 547.163, 44, 10), ("2025-05-09", 732.037, 55, 14), ("2025-05-10", 824.261, 53, 15)],
        dtdEnergyGoal: 680, csv: "karanjain-activitysummary.csv", csvDays: 194, csvFirst: "2022-09-13", csvLast: "2023-03-25",
        csvEnergy: 50855, csvGoal: 300, csvLastEnergy: 253)

    static let synthetic = FixtureSet(
        name: "synthetic exports", folder: Repository.root + "/Tests/Fixtures/apple-health", plainXML: "synthetic-export.xml",
        plainDays: [
            ("2021-03-01", ActivitySummary(
                activeEnergyBurned: .kilocalories(512.125), activeEnergyBurnedGoal: .kilocalories(550),
                exerciseTime: 47, exerciseTimeGoal: 30, standHours: 11, standHoursGoal: 12)),
            ("2021-03-02", ActivitySummary(
                activeEnergyBurned: .kilocalories(287.75), activeEnergyBurnedGoal: .kilocalories(550),
                exerciseTime: 21, exerciseTimeGoal: 30, standHours: 8, standHoursGoal: 12)),
        ],
        dtdXML: "synthetic-export-v14.xml",
        dtdDays: [("2024-07-02", 611.25, 36, 9), ("2024-07-03", 805.5, 62, 13), ("2024-07-04", 402.75, 18, 7)],
        dtdEnergyGoal: 720, csv: "synthetic-activitysummary.csv", csvDays: 12, csvFirst: "2023-01-28", csvLast: "2023-02-08",
        csvEnergy: 3282, csvGoal: 250, csvLastEnergy: 367)
}

/// The error of type `E` that `body` throws, recorded as an issue when it throws none or another
/// (what a value-returning `#expect(throws:)` does from Swift 6.1 on; Debian 13 has 6.0).
func expectError<E: Error, R>(
    _ type: E.Type, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> R
) -> E? {
    do {
        _ = try body()
        Issue.record("expected an error of type \(E.self); none was thrown", sourceLocation: sourceLocation)
    } catch let error as E {
        return error
    } catch {
        Issue.record("expected an error of type \(E.self), got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// Everything the store holds, as text (every person, their days, goals and samples; the metric
/// table, and tasks without times), for "the store is unchanged" checks; with `person`, that
/// person's days, goals and samples only (not the metrics and tasks: they are everyone's).
func snapshot(_ path: String, person: Int? = nil) throws -> String {
    let store = try Store(path: path)
    var text = ""
    let people = try store.people().filter { person == nil || $0.id == person }
    for p in people {
        text += "person \(p.id) \(p.name) \(p.colour) \(String(describing: p.lastPush))\n"
        store.person = p.id
        try store.exportCSV(.days) { text += $0 }
        for g in try store.goalHistory() { text += "goals \(g.start) \(g.goals)\n" }
    }
    if person == nil {
        for m in try store.metrics() { text += "metric \(m.name) \(String(describing: m.value)) \(m.updated)\n" }
        for t in try store.tasks() { text += "task \(t.name) \(t.state) \(t.done) \(String(describing: t.total))\n" }
    }
    let samples = try store.db.prepare(
        "SELECT metric, start, source, quantity, unit, value, day, feed, person FROM samples WHERE ?1 IS NULL OR person = ?1 "
            + "ORDER BY person, metric, start, feed, source")
    samples.bind(person.map { .integer(Int64($0)) })
    while try samples.step() {
        // The quantities exactly (Swift's description reads back the same double).
        let cells: [String] = (0..<9).map { (i: Int32) -> String in
            i == 3 || i == 5 ? samples.double(i).map { "\($0)" } ?? "NULL" : samples.text(i) ?? "NULL"
        }
        text += "sample " + cells.joined(separator: " ") + "\n"
    }
    return text
}

/// Writes a synthetic export.xml of about `megabytes` MB: `days` summaries at the start (so a
/// kill mid-file comes after them) and then watch Records.
func writeLargeExport(to path: String, megabytes: Int, firstDay: String = "2024-01-01", days: Int = 3) {
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let handle = FileHandle(forWritingAtPath: path)!
    defer { try? handle.close() }
    var head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_GB\">\n"
    let start = CalendarDayForTests.parse(firstDay)
    for i in 0..<days {
        head +=
            " <ActivitySummary dateComponents=\"\(start.adding(days: i))\" activeEnergyBurned=\"\(400 + i)\" "
            + "activeEnergyBurnedGoal=\"500\" activeEnergyBurnedUnit=\"kcal\" appleExerciseTime=\"20\" "
            + "appleExerciseTimeGoal=\"30\" appleStandHours=\"9\" appleStandHoursGoal=\"12\"/>\n"
    }
    handle.write(Data(head.utf8))
    let record =
        " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Alex’s Apple Watch\" "
        + "sourceVersion=\"10.2\" device=\"&lt;&lt;HKDevice: 0x2836c1f90&gt;, name:Apple Watch&gt;\" unit=\"count/min\" "
        + "creationDate=\"2024-01-05 08:01:33 +0100\" startDate=\"2024-01-05 07:58:12 +0100\" "
        + "endDate=\"2024-01-05 07:58:12 +0100\" value=\"72\">\n"
        + "  <MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\" value=\"0\"/>\n </Record>\n"
    let block = Data(String(repeating: record, count: (1 << 20) / record.utf8.count).utf8)
    for _ in 0..<megabytes { handle.write(block) }
    handle.write(Data("</HealthData>\n".utf8))
}

enum CalendarDayForTests {
    static func parse(_ text: String) -> CalendarDay { CalendarDay(iso: text)! }
}
