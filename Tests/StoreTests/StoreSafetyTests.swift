import Foundation
import TestSupport
import Testing

@testable import Store

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 16: stores with values no command writes, damaged stores, stores a command may only read.
@Suite(.serialized, .timeLimit(.minutes(10))) struct StoreSafetyTests {
    /// Reproducer 3: an extreme timestamp (written by something else than Glance) is exported, not a crash.
    @Test func anExtremeTimestampIsExportedNotACrash() throws {
        let scratch = Scratch()
        let db = ["--db", scratch.db]
        let ran1 = try GlanceCLI.run(["metric", "set", "cpu", "5"] + db, in: scratch)
        #expect(ran1.status == 0, "\(ran1.err)")
        let ran2 = try GlanceCLI.run(["task", "start", "backup"] + db, in: scratch)
        #expect(ran2.status == 0, "\(ran2.err)")
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

    /// A store of 3000 days (several pages), its WAL checkpointed into the file.
    static func largeStore(_ scratch: Scratch) throws -> String {
        var csv = "dateComponents,activeEnergyBurned,activeEnergyBurnedGoal,appleExerciseTime,appleExerciseTimeGoal\n"
        let first = CalendarDayForTests.parse("2015-01-01")
        for i in 0..<3000 { csv += "\(first.adding(days: i)),\(300 + i % 200),500,\(i % 60),30\n" }
        let r = try GlanceCLI.run(["import", scratch.write("days.csv", csv), "--db", scratch.db, "-q"], in: scratch)
        try #require(r.status == 0, "\(r.err)")
        try Store(path: scratch.db).db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return scratch.db
    }

    /// Reproducer 8: 64 bytes flipped in the middle of the store. Reading says it is damaged (65);
    /// every command that writes refuses it the same way, says how to recover, and writes nothing.
    @Test func aDamagedStoreIsRefusedForWritingAndLeftAsItIs() throws {
        let scratch = Scratch()
        let db = try Self.largeStore(scratch)
        var bytes = try #require(FileManager.default.contents(atPath: db))
        let middle = bytes.count / 2
        for i in middle..<(middle + 64) { bytes[i] ^= 0xFF }
        try bytes.write(to: URL(fileURLWithPath: db))
        let png = scratch.file("day.png")
        // Reading it: 65 from every command, watch and render too (watch said 74).
        for arguments in [
            ["export", "--csv"], ["metric", "list"], ["render", "--size", "32x32", "--rings-only", "--output", png],
            ["watch", "--size", "32x32", "--rings-only", "--render-to", png],
        ] {
            let r = try GlanceCLI.run(arguments + ["--db", db], in: scratch, killAfter: 20)
            #expect(r.status == 65 && r.err.contains("is damaged"), "\(arguments[0]): \(r.status) \(r.err)")
        }
        let demo = scratch.write("demo.csv", "dateComponents,activeEnergyBurned\n2024-01-01,5\n")
        for arguments in [
            ["log", "--move", "5"], ["metric", "set", "cpu", "40"], ["task", "start", "backup"], ["demo-data"],
            ["import", demo], ["metric", "remove", "cpu"], ["task", "update", "backup", "--done", "1"],
        ] {
            let r = try GlanceCLI.run(arguments + ["--db", db], in: scratch)
            #expect(r.status == 65, "\(arguments.joined(separator: " ")): \(r.status) \(r.err)")
            #expect(r.err.contains("is damaged") && r.err.contains("glance import"), "says how to recover: \(r.err)")
            #expect(FileManager.default.contents(atPath: db) == bytes, "\(arguments[0]) wrote into the damaged store")
        }
    }

    /// Reproducer 9: the commands that only read never turn a file into a store.
    @Test func readingCommandsLeaveAnEmptyFileAsItIs() throws {
        let scratch = Scratch()
        let empty = scratch.write("empty.db", "")
        let png = scratch.file("out.png")
        for arguments in [
            ["export", "--csv"], ["metric", "list"], ["task", "list"],
            ["render", "--size", "32x32", "--rings-only", "--output", png],
        ] {
            let r = try GlanceCLI.run(arguments + ["--db", empty], in: scratch)
            #expect(r.status == 65 && r.err.contains("not a Glance store"), "\(arguments[0]): \(r.status) \(r.err)")
            #expect(FileManager.default.contents(atPath: empty) == Data(), "\(arguments[0]) wrote into the empty file")
            #expect(!FileManager.default.fileExists(atPath: empty + "-wal"))
        }
    }

    /// Reproducer 9: a store this user may read but whose folder it may not write is read
    /// (it was 74, "attempt to write a readonly database").
    @Test(.enabled(if: Privilege.canActAsOthers, "needs root and setpriv (util-linux) to run glance as another user; CI runs as root"))
    func aStoreInAFolderTheUserMayNotWriteCanBeRead() throws {
        let scratch = Scratch()
        chmod(scratch.path, 0o755)
        let folder = scratch.file("store")
        let db = folder + "/glance.db"
        let ran3 = try GlanceCLI.run(["log", "--db", db, "--move", "300", "--move-goal", "500"], in: scratch)
        #expect(ran3.status == 0, "\(ran3.err)")
        let ran4 = try GlanceCLI.run(["metric", "set", "cpu", "40", "--db", db], in: scratch)
        #expect(ran4.status == 0, "\(ran4.err)")
        // Readable by all, writable by root alone, whatever the umask was when glance made them (the
        // umask is the test process's, and a test beside this one may hold it narrower for a moment).
        chmod(folder, 0o755)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] { chmod(folder + "/" + name, 0o644) }
        let out = scratch.file("out")
        mkdir(out, 0o777)
        chmod(out, 0o777)
        for arguments in [
            ["export", "--csv"], ["metric", "list"], ["task", "list"],
            ["render", "--size", "32x32", "--rings-only", "--output", out + "/day.png"],
        ] {
            let r = try GlanceCLI.run(
                ["--reuid=65534", "--regid=65534", "--clear-groups"] + GlanceExecutable.words(arguments + ["--db", db]),
                in: scratch, program: "/usr/bin/setpriv")
            #expect(r.status == 0, "\(arguments[0]): \(r.status) \(r.err)")
        }
    }

    /// Reproducer 9: on a full disk the reading commands still work and the writing ones fail
    /// with 74 saying why; on a read-only mount the same, and a new store there is 73.
    @Test(.enabled(if: Privilege.isRoot, "needs root to mount a small tmpfs; CI runs as root"))
    func aFullDiskOrAReadOnlyMountStillLetsTheStoreBeRead() throws {
        let scratch = Scratch()
        let disk = scratch.file("disk")
        mkdir(disk, 0o755)
        let mounted = try GlanceCLI.run(["-t", "tmpfs", "-o", "size=512k", "tmpfs", disk], in: scratch, program: "/bin/mount")
        try #require(mounted.status == 0, "\(mounted.err)")
        defer { _ = try? GlanceCLI.run([disk], in: scratch, program: "/bin/umount") }
        let db = disk + "/glance.db"
        let ran5 = try GlanceCLI.run(["demo-data", "--db", db], in: scratch)
        #expect(ran5.status == 0, "\(ran5.err)")
        let before = FileManager.default.contents(atPath: db)
        // Fill the disk.
        _ = FileManager.default.createFile(atPath: disk + "/fill", contents: nil)
        let fill = try #require(FileHandle(forWritingAtPath: disk + "/fill"))
        let block = Data(count: 4096)
        while (try? fill.write(contentsOf: block)) != nil {}
        try? fill.close()
        let png = scratch.file("day.png")
        for arguments in [
            ["export", "--csv"], ["metric", "list"], ["task", "list"],
            ["render", "--size", "32x32", "--rings-only", "--output", png],
        ] {
            let r = try GlanceCLI.run(arguments + ["--db", db], in: scratch)
            #expect(r.status == 0, "full disk, \(arguments[0]): \(r.status) \(r.err)")
        }
        let log = try GlanceCLI.run(["log", "--move", "5", "--db", db], in: scratch)
        #expect(log.status == 74 && log.err.contains("no space left"), "\(log.status) \(log.err)")
        #expect(FileManager.default.contents(atPath: db) == before, "the store is unchanged")

        unlink(disk + "/fill")
        let remounted = try GlanceCLI.run(["-o", "remount,ro", disk], in: scratch, program: "/bin/mount")
        try #require(remounted.status == 0, "\(remounted.err)")
        for arguments in [["export", "--csv"], ["metric", "list"]] {
            let r = try GlanceCLI.run(arguments + ["--db", db], in: scratch)
            #expect(r.status == 0, "read-only mount, \(arguments[0]): \(r.status) \(r.err)")
        }
        let write = try GlanceCLI.run(["log", "--move", "5", "--db", db], in: scratch)
        #expect(write.status == 74 && write.err.contains("read-only file system"), "\(write.status) \(write.err)")
        let create = try GlanceCLI.run(["log", "--move", "5", "--db", disk + "/new.db"], in: scratch)
        #expect(create.status == 73, "a new store on a read-only mount: \(create.status) \(create.err)")
    }

    /// Reproducer 11: demo-data --end 0001-01-05 stored 0000-12-xx days that nothing else
    /// accepted and export silently dropped.
    @Test func demoDaysNeverLandBeforeTheFirstDateAndExportNamesADayItCannotRead() throws {
        let scratch = Scratch()
        let db = ["--db", scratch.db]
        let early = try GlanceCLI.run(["demo-data", "--end", "0001-01-05"] + db, in: scratch)
        #expect(early.status == 64 && early.err.contains("give 0001-01-28 or later"), "\(early.status) \(early.err)")
        let fits = try GlanceCLI.run(["demo-data", "--end", "0001-01-28"] + db, in: scratch)
        #expect(fits.status == 0, "\(fits.err)")
        let export = try GlanceCLI.run(["export", "--csv"] + db, in: scratch)
        let days = export.out.split(separator: "\n").dropFirst()
        #expect(days.count == 28 && days.first?.hasPrefix("0001-01-01,") == true, "\(export.out.prefix(200))")
        // A row written by something else: named, not dropped.
        try Store(path: scratch.db).db.execute(
            "INSERT INTO day_summaries (date, exercise_time) VALUES ('0000-12-05', 5)")
        let bad = try GlanceCLI.run(["export", "--csv"] + db, in: scratch)
        #expect(bad.status == 65 && bad.err.contains("'0000-12-05' is no date"), "\(bad.status) \(bad.err)")
    }

    /// Reproducer 12: log --move 1e308 --move-goal 1e-308 stored a ratio that overflowed (an empty
    /// ring labelled ∞/0). Every entry point takes figures in their range (FigureRange), metrics
    /// and task amounts within ±10^15; an import names the row and stays all or nothing.
    @Test func figuresOutsideTheirRangeAreRefusedAtEveryEntryPoint() throws {
        let scratch = Scratch()
        let db = ["--db", scratch.db]
        let ran6 = try GlanceCLI.run(["log", "--date", "2024-01-01", "--move", "300"] + db, in: scratch)
        #expect(ran6.status == 0, "\(ran6.err)")
        let before = try snapshot(scratch.db)
        for arguments in [
            ["log", "--move", "1e308", "--move-goal", "1e-308"], ["log", "--move", "500", "--move-goal", "1e-308"],
            ["log", "--exercise", "1441"], ["log", "--stand-goal", "0.5"], ["log", "--move-time", "2000"],
            ["metric", "set", "cpu", "1e308"], ["metric", "set", "cpu", "1", "--max", "1e300"],
            ["task", "start", "copy", "--total", "1e300"],
        ] {
            let r = try GlanceCLI.run(arguments + db, in: scratch)
            #expect(r.status == 64, "\(arguments.joined(separator: " ")): \(r.status) \(r.err)")
        }
        let png = scratch.file("day.png")
        let render = try GlanceCLI.run(["render", "--size", "32x32", "--rings-only", "--move", "1e308/1e-308", "--output", png], in: scratch)
        #expect(render.status == 64 && render.err.contains("above 100000"), "\(render.err)")
        let csv = scratch.write(
            "days.csv", "dateComponents,activeEnergyBurned,activeEnergyBurnedGoal\n2024-02-01,400,500\n2024-02-02,1e308,1e-308\n")
        let r = try GlanceCLI.run(["import", csv, "-q"] + db, in: scratch)
        #expect(r.status == 65 && r.err.contains("days.csv:3:12: activeEnergyBurned '1e308' is above 100000"), "\(r.err)")
        let after = try snapshot(scratch.db)
        #expect(after.split(separator: "\n").filter { !$0.hasPrefix("task") }
            == before.split(separator: "\n").filter { !$0.hasPrefix("task") }, "all or nothing")
        let skipped = try GlanceCLI.run(["import", csv, "-q", "--skip-invalid"] + db, in: scratch)
        #expect(skipped.status == 0 && skipped.out.contains("imported 1 day (2024-02-01)"), "\(skipped.err)")

        // glance serve: the same store checks answer 400 and change nothing.
        let server = try ServeTests.Server()
        let day = try server.request("PUT", "/v1/days/2026-11-29", "{\"move\": 1e308, \"moveGoal\": 1e-308}")
        #expect(day.status == 400 && day.body.contains("is above 100000"), "\(day)")
        let goal = try server.request("PUT", "/v1/days/2026-11-29", "{\"exerciseGoal\": 0.5}")
        #expect(goal.status == 400 && goal.body.contains("a goal below 1"), "\(goal)")
        let metric = try server.request("PUT", "/v1/metrics/cpu", "{\"value\": 1e308}")
        #expect(metric.status == 400 && metric.body.contains("10^15"), "\(metric)")
        let days = try server.request("GET", "/v1/days?from=2026-11-01&to=2026-11-30")
        #expect(days.status == 200 && !days.body.contains("2026-11-29"), "nothing stored: \(days.body)")
        _ = server.stop()
    }
}

/// Two commands making the same new store at once (a phone's first post and a `glance log`
/// from cron): neither takes the other's half-made store for someone else's database.
@Suite(.timeLimit(.minutes(10))) struct NewStoreRaceTests {
    @Test func connectionsOpeningOneNewStoreAtOnceAllSucceed() throws {
        let scratch = Scratch()
        let failures = Locked<[String]>([])
        for round in 0..<60 {
            let path = scratch.file("race\(round).db")
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                do { _ = try Store(path: path) } catch { failures.update { $0.append("\(error)") } }
            }
        }
        #expect(failures.value.isEmpty, "\(failures.value.prefix(3))")
    }
}

final class Locked<Value>: @unchecked Sendable {
    private var stored: Value
    private let lock = NSLock()
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func update(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}
