import Activity
import Foundation
import TestSupport
@testable import Store
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 24, C1 and C2: what another writer (sqlite3, an older Glance) can leave in a store must
/// not crash the panel: a description of megabytes, times at the ends of Int64. glance watch is
/// the panel here (the same session as glance run, drawn into a PNG).
@Suite("Stored values the panel survives", .timeLimit(.minutes(10)))
struct StoredValuesTests {
    /// glance watch on `screen` for a few pictures, then SIGTERM: its status and log.
    static func watch(_ scratch: Scratch, screen: String, config: String) throws -> GlanceCLI.Result {
        let png = scratch.file("\(screen).png")
        let (process, finish) = try GlanceCLI.start(
            ["watch", "--config", config, "--db", scratch.db, "--screen", screen, "--size", "240x240", "--render-to", png],
            in: scratch, tag: "watch-\(screen)")
        let drew = eventually(seconds: 30) { FileManager.default.fileExists(atPath: png) || !process.isRunning }
        usleep(300_000)
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        var result = finish()
        if !drew { result.err += " (no picture within 30 s)" }
        return result
    }

    /// `sql` run on the store as another writer would (the sqlite3 program is not in the arm64
    /// suites' root; SQLite's library is the same writer).
    static func sqlite(_ db: String, _ sql: String) throws {
        try Store(path: db).db.execute(sql)
    }

    @Test("a 3,000,000-character description in the store: the progress screen draws, glance watch exits 0")
    func hugeDescription() throws {
        let scratch = Scratch()
        let config = scratch.write("config.json", "{}")
        let store = try Store(path: scratch.db)
        try store.startTask("sync", total: 10, description: "Syncing", cancellable: false)
        try Self.sqlite(scratch.db, "UPDATE tasks SET description = printf('%.*c', 3000000, 'W') WHERE name = 'sync'")
        let read = try store.task(named: "sync")?.description ?? ""
        #expect(read.count == TextLimit.description, "read as its first \(TextLimit.description) characters: \(read.count)")
        let result = try Self.watch(scratch, screen: "progress", config: config)
        #expect(result.status == 0, "glance watch: \(result.status) \(result.err.suffix(600))")
    }

    @Test("a metric updated at 2^63 - 1 or -2^63: the gauge screen draws (stale, with an age), glance watch exits 0")
    func extremeTimes() throws {
        for updated in ["9223372036854775807", "-9223372036854775808"] {
            let scratch = Scratch()
            let config = scratch.write(
                "config.json",
                "{\"screens\": [\"gauges\"], \"gauges\": [{\"style\": \"accessoryCircular\", \"title\": \"T\", \"source\": {\"metric\": \"m\", \"staleAfter\": 60}}]}")
            let store = try Store(path: scratch.db)
            try store.setMetric("m", value: 5)
            try Self.sqlite(scratch.db, "UPDATE metrics SET updated = \(updated) WHERE name = 'm'")
            let result = try Self.watch(scratch, screen: "gauges", config: config)
            #expect(result.status == 0, "updated \(updated): \(result.status) \(result.err.suffix(600))")
        }
    }
}
