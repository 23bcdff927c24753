import Foundation
import Testing

@testable import Store

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 16: stores with values no command writes, damaged stores, stores a command may only read.
@Suite(.serialized) struct StoreSafetyTests {
    /// Reproducer 3: an extreme timestamp (written by something else than Glance) is exported, not a crash.
    @Test func anExtremeTimestampIsExportedNotACrash() throws {
        let scratch = Scratch()
        let db = ["--db", scratch.db]
        #expect(try GlanceCLI.run(["metric", "set", "cpu", "5"] + db, in: scratch).status == 0)
        #expect(try GlanceCLI.run(["task", "start", "backup"] + db, in: scratch).status == 0)
        do {
            let store = try Store(path: scratch.db)
            try store.db.execute("UPDATE metrics SET updated = 67768036191676799; UPDATE tasks SET started = \(Int64.min)")
        }
        let metrics = try GlanceCLI.run(["export", "--csv", "--table", "metrics"] + db, in: scratch)
        #expect(metrics.status == 0, "\(metrics.status) \(metrics.err)")
        #expect(metrics.out.contains("cpu,5,,,,2147485547-12-31T23:59:59Z"), "\(metrics.out)")
        let tasks = try GlanceCLI.run(["export", "--csv", "--table", "tasks"] + db, in: scratch)
        #expect(tasks.status == 0, "\(tasks.status) \(tasks.err)")
        #expect(tasks.out.contains(",-292277022657-01-27T08:29:52Z,"), "\(tasks.out)")
    }
}
