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

    static var available: Bool {
        let ok = FileManager.default.fileExists(atPath: folder + "/README.md")
        if !ok { print("skipping: \(folder) is absent (the real Apple Health files live beside the repository)") }
        return ok
    }

    static func path(_ name: String) -> String { "\(folder)/\(name)" }
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

/// Everything the store holds, as text (the day and metric tables, and tasks without times), for
/// "the store is unchanged" checks.
func snapshot(_ path: String) throws -> String {
    let store = try Store(path: path)
    var text = ""
    try store.exportCSV(.days) { text += $0 }
    for m in try store.metrics() { text += "metric \(m.name) \(String(describing: m.value)) \(m.updated)\n" }
    for t in try store.tasks() { text += "task \(t.name) \(t.state) \(t.done) \(String(describing: t.total))\n" }
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
