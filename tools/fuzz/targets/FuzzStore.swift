// The store the import fuzz targets write into: one real SQLite file per process, in a folder of
// its own under $TMPDIR; every input's import runs inside a transaction that is rolled back, so
// each input meets the same store (a crash reproduces from its input alone).
import Activity
@testable import HealthExport
@testable import Store

#if canImport(Glibc)
    import Glibc
#endif

enum FuzzStore {
    static let folder: String = {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(base)/glance-fuzz-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "cannot make a folder in \(base)")
        return String(cString: made!)
    }()

    nonisolated(unsafe) static let store: Store = {
        do {
            let store = try Store(path: folder + "/glance.db")
            try store.setSummary(ActivitySummaryForFuzzing.day, for: CalendarDayForFuzzing.day)
            return store
        } catch {
            fatalError("cannot make the fuzzing store: \(error)")
        }
    }()

    static let rollback = StoreError(.cancelled, "rolled back")

    /// Runs `body` in a transaction that is always rolled back; its errors are the input's.
    static func rolledBack(_ body: (Store) throws(StoreError) -> Void) {
        _ = try? store.transaction { () throws(StoreError) in
            _ = try? body(store)
            throw rollback
        }
    }

    static func importRolledBack(format: HealthImport.Format, _ bytes: [UInt8]) {
        rolledBack { store throws(StoreError) in
            var options = ImportOptions()
            options.taskName = nil
            let xml: ExportReaders.XML = { (source, monitor, collector) throws(StoreError) in
                try HealthXMLReader(source: source, monitor: monitor, collector: collector).run()
            }
            _ = try HealthImport.run(into: store, options: options, xml: xml) { _ throws(StoreError) in
                (format, MemorySource(bytes, name: "fuzz.\(format.rawValue)"))
            }
        }
    }
}

enum ActivitySummaryForFuzzing {
    static let day = ActivitySummary(exerciseTime: 5, exerciseTimeGoal: 30)
}

enum CalendarDayForFuzzing {
    static let day = CalendarDay(year: 2024, month: 1, day: 1)!
}
