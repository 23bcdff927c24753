import Activity
import Foundation
import ImageFile
import Raster
import TestSupport
import Testing

@testable import Store

/// Runs the built `glance` executable.
enum GlanceCLI {
    /// The glance the tests start (TestSupport's `GlanceExecutable`: the arm64 build in the
    /// arm64 run, started through its emulator).
    static var executable: String { GlanceExecutable.path }

    struct Result {
        var status: Int32
        var out: String
        var err: String
    }

    /// Starts glance (or `program`) with output going to files; `finish` collects it (waiting
    /// for its end within a bound). The process is owned (TestSupport's `OwnedProcess`): ended
    /// when the owner goes, with the test, whether it passed, failed or threw.
    static func start(
        _ arguments: [String], in scratch: Scratch, tag: String = UUID().uuidString, program: String? = nil,
        environment: [String: String] = [:]
    ) throws -> (OwnedProcess, () -> Result) {
        let out = scratch.file("\(tag).out")
        let err = scratch.file("\(tag).err")
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        let process = OwnedProcess()
        let command = program.map { ($0, arguments) } ?? GlanceExecutable.command(arguments)
        process.executableURL = URL(fileURLWithPath: command.0)
        process.arguments = command.1
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = FileHandle(forWritingAtPath: out)
        process.standardError = FileHandle(forWritingAtPath: err)
        try process.run()
        return (
            process,
            {
                process.waitUntilExit()
                return Result(
                    status: process.terminationStatus,
                    out: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
                    err: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
            }
        )
    }

    /// Starts glance as a shell would: with no signal blocked or ignored. (A test runner's children
    /// inherit its mask, in which SIGINT and SIGTERM may be blocked, hiding what a signal does.)
    static func startAsFromAShell(_ arguments: [String], in scratch: Scratch) throws -> (OwnedProcess, () -> Result) {
        let script = """
            import os, signal, sys
            for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE, signal.SIGXFSZ):
                signal.signal(s, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_SETMASK, [])
            os.execv(sys.argv[1], sys.argv[1:])
            """
        let glance = GlanceExecutable.command(arguments)
        return try start(["python3", "-c", script, glance.program] + glance.arguments, in: scratch, program: "/usr/bin/env")
    }

    static func run(_ arguments: [String], in scratch: Scratch, program: String? = nil) throws -> Result {
        try start(arguments, in: scratch, program: program).1()
    }

    /// Runs glance, killing it (SIGKILL, status -1) if it is still running after `seconds`: for a
    /// command that should end by itself and, on a build with the bug, would not (a hang guard,
    /// not a measure of speed).
    static func run(_ arguments: [String], in scratch: Scratch, killAfter seconds: Double) throws -> Result {
        let (process, finish) = try start(arguments, in: scratch)
        if !eventually(seconds: seconds, { !process.isRunning }) {
            kill(process.processIdentifier, SIGKILL)
            var result = finish()
            result.status = -1
            return result
        }
        return finish()
    }

    /// Runs glance with standard output going to `/dev/full` (every write fails with ENOSPC).
    static func runIntoAFullDisk(_ arguments: [String], in scratch: Scratch) throws -> Result {
        let err = scratch.file("\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        let process = OwnedProcess()
        let glance = GlanceExecutable.command(arguments)
        process.executableURL = URL(fileURLWithPath: glance.program)
        process.arguments = glance.arguments
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
        process.standardError = FileHandle(forWritingAtPath: err)
        try process.run()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, out: "",
            err: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }
}

/// Waits until `condition` holds, checking every 20 ms; false after `seconds`, or at once when the
/// test's time limit passed (its task cancelled).
func eventually(seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline && !Task.isCancelled {
        if try condition() { return true }
        usleep(20_000)
    }
    return try condition()
}

@Suite(.serialized, .timeLimit(.minutes(10))) struct StoreCommandLineTests {
    @Test func importLogExportFromTheCommandLineSynthetic() throws { try importLogExport(.synthetic) }
    @Test(.enabled(if: Fixtures.available, Fixtures.absent)) func importLogExportFromTheCommandLine() throws {
        try importLogExport(.real)
    }

    func importLogExport(_ set: FixtureSet) throws {
        let scratch = Scratch()
        let db = ["--db", scratch.db]
        let n = set.csvDays
        var r = try GlanceCLI.run(["import", set.path(set.csv)] + db, in: scratch)
        #expect(r.status == 0)
        #expect(r.out.contains("imported \(n) days (\(set.csvFirst) to \(set.csvLast))") && r.out.contains("\(n) new"), "\(r.out)")
        r = try GlanceCLI.run(["import", set.path(set.csv)] + db, in: scratch)
        #expect(r.status == 0 && r.out.contains("0 new, 0 changed, \(n) unchanged"))

        let last = set.csvLast
        let next = CalendarDay(iso: last)!.adding(days: 1).description
        let energy = NumberText.plain(set.csvLastEnergy), goal = NumberText.plain(set.csvGoal)
        r = try GlanceCLI.run(
            ["log", "--date", last, "--exercise", "12", "--exercise-goal", "30"] + db, in: scratch)
        // An imported day changed by hand: where its figures came from said after it.
        #expect(
            r.status == 0 && r.out == "\(last): move \(energy)/\(goal) kcal, exercise 12/30 min, stand 0/0 h (from CSV file)\n", "\(r.out)")
        r = try GlanceCLI.run(
            ["log", "--date", next, "--move", "1460kJ", "--move-goal", "-"] + db
                + ["--config", Repository.root + "/device/config.json"], in: scratch)
        // Without a Move goal of its own: the configuration's, each figure with its unit.
        #expect(r.status == 0 && r.out.hasPrefix("\(next): move 1460 kJ/500 kcal"), "\(r.out)")

        r = try GlanceCLI.run(["export", "--csv"] + db, in: scratch)
        #expect(r.status == 0)
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 1 + n + 1)
        #expect(
            lines.first
                == "dateComponents,activeEnergyBurned,activeEnergyBurnedGoal,activeEnergyBurnedUnit,appleMoveTime,appleMoveTimeGoal,appleExerciseTime,appleExerciseTimeGoal,appleStandHours,appleStandHoursGoal,activeEnergyBurnedGoalUnit,moveMode,steps,stepsGoal,source"
        )
        #expect(lines.contains("\(last),\(energy),\(goal),kcal,0,0,12,30,0,0,,activeEnergy,,,CSV file"))
        // A new day: no goals of its own (the configuration's are the board's, not the store's).
        #expect(lines.contains("\(next),1460,,kJ,,,,,,,,activeEnergy,,,glance log"), "\(lines)")

        // The export reads back in: the round trip through a file.
        r = try GlanceCLI.run(["export", "--csv", "--output", scratch.file("all.csv")] + db, in: scratch)
        #expect(r.status == 0)
        r = try GlanceCLI.run(["import", scratch.file("all.csv"), "--db", scratch.file("copy.db")], in: scratch)
        #expect(r.status == 0 && r.out.contains("imported \(n + 1) days"))
    }

    @Test(
        arguments: [
            (["log", "--move", "-5"], Int32(64), "negative"),
            (["log", "--move", "12furlongs"], 64, "unknown energy unit"),
            (["log", "--date", "2023-02-30", "--move", "1"], 64, "expected YYYY-MM-DD"),
            (["log"], 64, "give at least one figure"),
            (["metric", "set", "cpu"], 64, "give NAME VALUE"),
            (["metric", "set", "cpu", "hot"], 64, "expected a number"),
            // Numbers on the command line are plain decimals, as in import files: no hex, no NaN.
            (["metric", "set", "cpu", "0x10"], 64, "expected a number"),
            (["log", "--exercise", "0x1p3"], 64, "is not a number"),
            (["log", "--move", "0x1p3kJ"], 64, "unknown energy unit"),
            (["task", "start", "copy", "--total", "nan"], 64, "is not a number"),
            (["metric", "set", "cpu", "5", "--min", "10", "--max", "0"], 64, "must be below max"),
            (["task", "cancel", "nothing"], 66, "no such file"),
            (["task", "frobnicate", "x"], 64, "unknown verb 'frobnicate' (expected start, update"),
            (["import"], 64, "give the file"),
            (["import", "/nonexistent/export.zip"], 66, "No such file"),
            (["export"], 64, "--csv"),
        ] as [([String], Int32, String)])
    func badArgumentsAreClearErrors(arguments: [String], status: Int32, mentions: String) throws {
        let scratch = Scratch()
        let r = try GlanceCLI.run(arguments + ["--db", scratch.db], in: scratch)
        #expect(r.status == status, "\(arguments): \(r.err)")
        #expect(r.err.contains(mentions), "\(arguments): \(r.err)")
    }

    @Test func logKeepsTheStoredMoveModeUnlessAGoalOrTheModeIsGiven() throws {
        let scratch = Scratch()
        // (the installed configuration: a new day gets its goals, 30 min and 12 h here)
        let db = ["--db", scratch.db, "--date", "2025-04-01", "--config", Repository.root + "/device/config.json"]
        // Move-time mode by choice, though an energy goal is there too (inference would say energy).
        var r = try GlanceCLI.run(
            ["log", "--move-mode", "moveTime", "--move-time", "30", "--move-time-goal", "60", "--move-goal", "500"]
                + db, in: scratch)
        #expect(r.out == "2025-04-01: move 30/60 min (move-time mode), exercise —/30 min, stand —/12 h\n", "\(r.err)")
        // Other figures leave the mode alone.
        r = try GlanceCLI.run(["log", "--exercise", "20", "--move", "310"] + db, in: scratch)
        #expect(r.out == "2025-04-01: move 30/60 min (move-time mode), exercise 20/30 min, stand —/12 h\n", "\(r.err)")
        #expect(try Store(path: scratch.db).summary(for: CalendarDay(iso: "2025-04-01")!)?.moveMode == .moveTime)
        // A goal given is a new setting of the ring: the mode follows the goals, as an import's does.
        r = try GlanceCLI.run(["log", "--move-goal", "600"] + db, in: scratch)
        #expect(r.out.hasPrefix("2025-04-01: move 310/600 kcal, "), "\(r.out)")
        r = try GlanceCLI.run(["log", "--move-goal", "-"] + db, in: scratch)
        #expect(r.out.hasPrefix("2025-04-01: move 30/60 min (move-time mode), "), "\(r.out)")
    }

    @Test func aValueAndGoalInDifferentUnitsArePrintedEachWithItsOwn() throws {
        let scratch = Scratch()
        let db = ["--db", scratch.db, "--date", "2025-04-02"]
        var r = try GlanceCLI.run(["log", "--move-goal", "500"] + db, in: scratch)
        #expect(r.out.hasPrefix("2025-04-02: move —/500 kcal, "), "\(r.out)")
        r = try GlanceCLI.run(["log", "--move", "1460kJ"] + db, in: scratch)
        #expect(r.out.hasPrefix("2025-04-02: move 1460 kJ/500 kcal, "), "\(r.out)")
        r = try GlanceCLI.run(["log", "--move-goal", "2090kJ"] + db, in: scratch)
        #expect(r.out.hasPrefix("2025-04-02: move 1460/2090 kJ, "), "\(r.out)")
    }

    @Test func anExportThatCannotBeWrittenWholeFailsWith74() throws {
        let scratch = Scratch()
        let db = ["--db", scratch.db]
        #expect(try GlanceCLI.run(["demo-data", "--end", "2026-01-10"] + db, in: scratch).status == 0)
        for arguments in [["export", "--csv"], ["export", "--csv", "--table", "metrics"], ["metric", "list"]] {
            let r = try GlanceCLI.runIntoAFullDisk(arguments + db, in: scratch)
            #expect(r.status == 74, "\(arguments): \(r.err)")
            #expect(r.err == "glance: standard output: No space left on device\n", "\(arguments)")
        }
    }

    /// --output where the file may not grow past 512 bytes (the days are about 2 kB): the write
    /// fails with EFBIG, the export says so and leaves no file behind.
    @Test(.disabled(
        if: !GlanceExecutable.emulator.isEmpty,
        "glance runs under an emulator, which writes its emulated /proc files (cmdline, maps) into temporary files the limit cuts too"))
    func anExportPastTheFileSizeLimitFailsWith74AndLeavesNoFile() throws {
        let scratch = Scratch()
        let db = ["--db", scratch.db]
        #expect(try GlanceCLI.run(["demo-data", "--end", "2026-01-10"] + db, in: scratch).status == 0)
        let reader = try Store(path: scratch.db)  // keeps the WAL index in place for the limited child
        #expect(try reader.dayCount() == 28)
        let output = scratch.file("days.csv")
        let glance = GlanceExecutable.command(["export", "--csv", "--output", output] + db)
        let r = try GlanceCLI.run(
            ["-c", "ulimit -f 1; trap '' XFSZ; exec \"$0\" \"$@\"", glance.program] + glance.arguments,
            in: scratch, program: "/bin/sh")
        #expect(r.status == 74, "\(r.err)")
        #expect(r.err.hasPrefix("glance: --output '\(output)': cannot write: File too large"), "\(r.err)")
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasPrefix("days.csv") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test func commandsRefuseSomeoneElsesDatabaseAndLeaveItAlone() throws {
        let scratch = Scratch()
        let path = scratch.file("notes.sqlite")
        try StoreTests.foreignDatabase(path)
        let before = try #require(StoreTests.bytes(path))
        for arguments in [
            ["export", "--csv"], ["metric", "list"], ["task", "list"], ["task", "remove", "x"], ["log", "--move", "1"],
            ["import", scratch.write("days.csv", "dateComponents,appleExerciseTime\n2024-01-01,5\n")],
        ] {
            let r = try GlanceCLI.run(arguments + ["--db", path], in: scratch)
            #expect(r.status == 65, "\(arguments): \(r.err)")
            #expect(r.err == "glance: not a Glance store: \(path) (give the Glance store with --db)\n", "\(arguments)")
        }
        let unchanged = StoreTests.bytes(path) == before
        #expect(unchanged, "the file's bytes changed")
    }

    @Test func metricsAndTasksFromTheCommandLine() throws {
        let scratch = Scratch()
        let db = ["--db", scratch.db]
        var r = try GlanceCLI.run(
            ["metric", "set", "cpu-temperature", "47.5", "--min", "20", "--max", "90", "--unit", "°C"] + db, in: scratch
        )
        #expect(r.status == 0 && r.out == "cpu-temperature 47.5 °C (20 to 90)\n")
        r = try GlanceCLI.run(["metric", "set", "cpu-temperature", "-3"] + db, in: scratch)
        #expect(r.status == 0 && r.out == "cpu-temperature -3 °C (20 to 90)\n")

        #expect(
            try GlanceCLI.run(
                ["task", "start", "backup", "--total", "200", "--description", "Copying photos", "--cancellable"] + db,
                in: scratch
            ).status == 0)
        #expect(try GlanceCLI.run(["task", "update", "backup", "--done", "50"] + db, in: scratch).status == 0)
        r = try GlanceCLI.run(["task", "list"] + db, in: scratch)
        #expect(r.out == "backup running 50/200 (25 %) — Copying photos\n")
        #expect(try GlanceCLI.run(["task", "cancel", "nothing"] + db, in: scratch).err.contains("no task nothing"))
        #expect(try GlanceCLI.run(["task", "cancel", "backup"] + db, in: scratch).status == 0)
        // The worker's next update hears about it: exit 79 (cancelled, not 75: busy, try again)
        // so a shell loop can stop.
        r = try GlanceCLI.run(["task", "update", "backup", "--done", "60"] + db, in: scratch)
        #expect(r.status == 79 && r.err.contains("cancel requested"), "\(r.status) \(r.err)")
        r = try GlanceCLI.run(["task", "list"] + db, in: scratch)
        #expect(r.out == "backup running 60/200 (30 %) cancel-requested — Copying photos\n")
        // It stops and ends: cancelled, not "done … cancel-requested" (nor 200/200).
        r = try GlanceCLI.run(["task", "finish", "backup"] + db, in: scratch)
        #expect(r.status == 0 && r.out == "task backup cancelled (it was asked to stop)\n", "\(r.out) \(r.err)")
        #expect(try Store(path: scratch.db).task(named: "backup")?.state == .cancelled)
        r = try GlanceCLI.run(["task", "list"] + db, in: scratch)
        #expect(r.out == "backup cancelled 60/200 (30 %) — Copying photos\n")
        // Failed after a cancel is failed: it says so.
        #expect(try GlanceCLI.run(["task", "start", "backup", "--total", "2", "--cancellable"] + db, in: scratch).status == 0)
        #expect(try GlanceCLI.run(["task", "cancel", "backup"] + db, in: scratch).status == 0)
        #expect(try GlanceCLI.run(["task", "finish", "backup", "--failed"] + db, in: scratch).status == 0)
        #expect(try Store(path: scratch.db).task(named: "backup")?.state == .failed)
        // Without a cancel, finish is done.
        #expect(try GlanceCLI.run(["task", "start", "backup", "--total", "2"] + db, in: scratch).status == 0)
        r = try GlanceCLI.run(["task", "finish", "backup"] + db, in: scratch)
        #expect(r.status == 0 && r.out.isEmpty)
        #expect(try Store(path: scratch.db).task(named: "backup")?.state == .done)
    }

    /// Issue 24: a failed import into a new path left an empty store file while saying "the store
    /// is unchanged".
    @Test func aFailedImportIntoANewPathLeavesNoStoreBehind() throws {
        let scratch = Scratch()
        let db = scratch.file("new/glance.db")
        let bad = scratch.write("bad.csv", "dateComponents,activeEnergyBurned\n2020-01-01,12\n2020-01-02,1.2.3\n")
        let r = try GlanceCLI.run(["import", bad, "--db", db], in: scratch)
        #expect(r.status == 65 && r.err.contains("the store is unchanged"), "\(r.err)")
        for suffix in ["", "-wal", "-shm"] {
            #expect(!FileManager.default.fileExists(atPath: db + suffix), "\(db + suffix) was left behind")
        }
        // Into a store that was there, the store stays (with what it had).
        #expect(try GlanceCLI.run(["log", "--date", "2020-01-05", "--move", "5", "--db", db], in: scratch).status == 0)
        #expect(try GlanceCLI.run(["import", bad, "--db", db], in: scratch).status == 65)
        #expect(try Store(path: db, access: .read).dayCount() == 1)
    }

    @Test func aFailedImportChangesNothingAndSaysWhereSynthetic() throws { try failedImport(.synthetic) }
    @Test(.enabled(if: Fixtures.available, Fixtures.absent)) func aFailedImportChangesNothingAndSaysWhere() throws {
        try failedImport(.real)
    }

    func failedImport(_ set: FixtureSet) throws {
        let scratch = Scratch()
        let db = ["--db", scratch.db]
        _ = try GlanceCLI.run(["import", set.path(set.plainXML)] + db, in: scratch)
        let before = try GlanceCLI.run(["export", "--csv"] + db, in: scratch).out
        let good = try String(contentsOfFile: set.path(set.dtdXML), encoding: .utf8)
        let hours = NumberText.plain(set.dtdDays[1].stand)
        let line = ImportTests.line(of: "appleStandHours=\"\(hours)\"", in: good)
        #expect(line > 0)
        let bad = scratch.write(
            "export.xml", good.replacingOccurrences(of: "appleStandHours=\"\(hours)\"", with: "appleStandHours=\"fourteen\""))
        let r = try GlanceCLI.run(["import", bad] + db, in: scratch)
        #expect(r.status == 65)
        #expect(r.err.contains("\(bad):\(line):") && r.err.contains("appleStandHours 'fourteen' is not a number"), "\(r.err)")
        #expect(r.err.contains("the store is unchanged") && r.err.contains("--skip-invalid"))
        #expect(try GlanceCLI.run(["export", "--csv"] + db, in: scratch).out == before)
        let skipped = try GlanceCLI.run(["import", bad, "--skip-invalid"] + db, in: scratch)
        #expect(
            skipped.status == 0 && skipped.out.contains("imported 2 days")
                && skipped.err.contains("skipped 1 invalid row"))
    }

    @Test func killMinus9DuringALargeImportLeavesTheStoreIntact() throws {
        let scratch = Scratch()
        let db = ["--db", scratch.db]
        #expect(
            try GlanceCLI.run(["log", "--date", "2020-02-02", "--move", "321", "--move-goal", "400"] + db, in: scratch)
                .status == 0)
        let before = try snapshot(scratch.db)
        writeLargeExport(to: scratch.file("big.xml"), megabytes: 400)
        let (process, finish) = try GlanceCLI.start(["import", scratch.file("big.xml")] + db, in: scratch)
        let store = try Store(path: scratch.db)
        let started = try eventually(seconds: 60) { (try store.task(named: "import")?.done ?? 0) > 0 }
        #expect(started, "the import should report progress")
        kill(process.processIdentifier, SIGKILL)
        let result = finish()
        #expect(result.status == SIGKILL && process.terminationReason == .uncaughtSignal)
        let after = try Store(path: scratch.db)
        #expect(try after.integrityCheck() == "ok")
        #expect(try after.summary(for: CalendarDay(iso: "2020-02-02")!)?.activeEnergyBurned == .kilocalories(321))
        #expect(try after.dayCount() == 1)  // none of the file's days: it never finished
        // The abandoned task is reported failed (its process is gone), not running forever.
        #expect(try after.task(named: "import")?.state == .failed)
        #expect(
            try snapshot(scratch.db).split(separator: "\n").filter { !$0.hasPrefix("task") }
                == before.split(separator: "\n").filter { !$0.hasPrefix("task") })
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func ctrlCStopsARunningImportWith79AndLeavesTheDaysAlone(signal: Int32) throws {
        let scratch = Scratch()
        let db = ["--db", scratch.db]
        #expect(
            try GlanceCLI.run(["log", "--date", "2020-02-02", "--move", "321", "--move-goal", "400"] + db, in: scratch)
                .status == 0)
        let before = try snapshot(scratch.db)
        writeLargeExport(to: scratch.file("big.xml"), megabytes: 400)
        let (process, finish) = try GlanceCLI.startAsFromAShell(["import", scratch.file("big.xml")] + db, in: scratch)
        let store = try Store(path: scratch.db)
        #expect(try eventually(seconds: 60) { (try store.task(named: "import")?.done ?? 0) > 0 })
        kill(process.processIdentifier, signal)
        let result = finish()
        #expect(process.terminationReason == .exit, "killed by signal \(result.status) instead of exiting")
        #expect(result.status == 79, "\(result.err)")
        #expect(result.err.contains("import stopped by a signal"), "\(result.err)")
        #expect(try store.task(named: "import")?.state == .cancelled)
        #expect(
            try snapshot(scratch.db).split(separator: "\n").filter { !$0.hasPrefix("task") }
                == before.split(separator: "\n").filter { !$0.hasPrefix("task") })
    }

    @Test func aCtrlCThatComesDuringTheMergeIsTooLateToStopItAndExits0() throws {
        let scratch = Scratch()
        let db = ["--db", scratch.db]
        let csv = scratch.write("days.csv", "dateComponents,appleExerciseTime\n2024-01-01,5\n2024-01-02,7\n")
        // Hold the write lock, so the import, once it has read the file, waits to merge.
        let holder = try Store(path: scratch.db)
        try holder.db.execute("BEGIN IMMEDIATE")
        let (process, finish) = try GlanceCLI.startAsFromAShell(["import", csv, "--no-task"] + db, in: scratch)
        let read = eventually(seconds: 30) { Self.hasReadToTheEnd(process.processIdentifier, csv) }
        #expect(read, "the import should read the file")
        // From the last byte to the merge's BEGIN IMMEDIATE is a moment: polled for, not slept
        // through. The merge waits for the lock in SQLite's busy handler, which sleeps.
        let merging = eventually(seconds: 20) { Self.sleepsInASyscall(process.processIdentifier) }
        #expect(merging, "the import should wait for the store's lock to merge")
        kill(process.processIdentifier, SIGINT)
        usleep(100_000)
        try holder.db.execute("ROLLBACK")
        let result = finish()
        #expect(process.terminationReason == .exit, "killed by signal \(result.status) instead of exiting")
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.hasPrefix("imported 2 days (2024-01-01 to 2024-01-02)"))
        #expect(
            result.err
                == "glance: SIGINT (Ctrl-C) came when the import was already complete; its days are in the store\n")
        #expect(try holder.dayCount() == 2)
    }

    /// Whether process `pid` is asleep in nanosleep or clock_nanosleep (x86-64's numbers: the
    /// machine's, also for a program an emulator runs), as SQLite's busy handler is between tries.
    static func sleepsInASyscall(_ pid: Int32) -> Bool {
        let call = (try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8))?.split(separator: " ").first
        return call == "35" || call == "230"
    }

    /// Whether process `pid` has `path` open and has read all of it (its offset is the file's size).
    static func hasReadToTheEnd(_ pid: Int32, _ path: String) -> Bool {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1
        let path = URL(fileURLWithPath: path).standardizedFileURL.path  // as the kernel spells it
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        for fd in fds
        where (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")) == path {
            let info = (try? String(contentsOfFile: "/proc/\(pid)/fdinfo/\(fd)", encoding: .utf8)) ?? ""
            if info.split(separator: "\n").first == "pos:\t\(size)" { return true }
        }
        return false
    }

    @Test func glanceTaskCancelStopsARunningImportCleanly() throws {
        let scratch = Scratch()
        let db = ["--db", scratch.db]
        writeLargeExport(to: scratch.file("big.xml"), megabytes: 400)
        let (_, finish) = try GlanceCLI.start(
            ["import", scratch.file("big.xml"), "--task", "health"] + db, in: scratch)
        let store = try Store(path: scratch.db)
        guard try eventually(seconds: 60, { (try store.task(named: "health")?.done ?? 0) > 0 }) else {
            let result = finish()
            Issue.record("the import never showed its task's progress: exit \(result.status), \(result.err)")
            return
        }
        let task = try #require(try store.task(named: "health"))
        #expect(
            task.state == .running && task.cancellable
                && task.description?.hasPrefix("Importing health data — ") == true)
        #expect(try GlanceCLI.run(["task", "cancel", "health"] + db, in: scratch).status == 0)
        let result = finish()
        #expect(result.status == 79, "\(result.err)")
        #expect(result.err.contains("cancelled") && result.err.contains("the store is unchanged"))
        #expect(try store.task(named: "health")?.state == .cancelled)
        #expect(try store.dayCount() == 0)
    }

    @Test func aConcurrentLogShowsUpOnTheScreen() throws {
        let scratch = Scratch()
        let db = ["--db", scratch.db]
        let png = scratch.file("screen.png")
        let (watch, finish) = try GlanceCLI.start(
            ["watch", "--render-to", png, "--size", "240x240", "--date", "2025-03-01"] + db, in: scratch)
        #expect(eventually(seconds: 30) { FileManager.default.fileExists(atPath: png) })
        let empty = try PNGFile.read(png)
        let clock = ContinuousClock()
        let logged = clock.now
        let r = try GlanceCLI.run(
            [
                "log", "--date", "2025-03-01", "--move", "400", "--move-goal", "500",
                "--exercise", "20", "--exercise-goal", "30", "--stand", "9", "--stand-goal", "12",
            ] + db, in: scratch)
        #expect(r.status == 0)
        let redrawn = eventually(seconds: 10) {
            guard let now = try? PNGFile.read(png) else { return false }
            return !samePixels(now, empty)
        }
        let latency = clock.now - logged
        print("watch redrew the screen \(latency) after glance log was started")
        #expect(redrawn, "the PNG should change after glance log")
        // The redrawn picture is what render draws for the same day.
        let expected = scratch.file("expected.png")
        #expect(
            try GlanceCLI.run(
                [
                    "render", "--size", "240x240", "--date", "2025-03-01", "--move", "400/500", "--exercise", "20/30",
                    "--stand", "9/12", "--output", expected,
                ], in: scratch
            ).status == 0)
        #expect(samePixels(try PNGFile.read(png), try PNGFile.read(expected)))
        kill(watch.processIdentifier, SIGTERM)
        let result = finish()
        #expect(result.status == 0)
        #expect(result.out.contains("(start): 2025-03-01: no summary"))
        #expect(result.out.contains("(store changed): 2025-03-01: move 400/500 kcal"))
    }

    @Test func watchEndsWith75WhenAnotherFileIsRenamedOverTheStore() throws {
        let scratch = Scratch()
        let png = scratch.file("screen.png")
        let (watch, finish) = try GlanceCLI.start(
            ["watch", "--render-to", png, "--size", "240x240", "--date", "2025-03-01", "--db", scratch.db], in: scratch)
        #expect(eventually(seconds: 30) { FileManager.default.fileExists(atPath: png) })
        let other = scratch.file("restored.db")
        #expect(try GlanceCLI.run(["log", "--date", "2025-03-01", "--move", "400", "--db", other], in: scratch).status == 0)
        #expect(rename(other, scratch.db) == 0)
        let ended = eventually(seconds: 10) { !watch.isRunning }
        if !ended { kill(watch.processIdentifier, SIGTERM) }
        #expect(ended, "glance watch went on after its store was replaced")
        let result = finish()
        #expect(result.status == 75, "\(result.err)")
        #expect(result.err.contains("the store \(scratch.db) was replaced by another file while in use"), "\(result.err)")
    }

    @Test func aRunningImportShowsOnTheProgressScreenAndCancelThereStopsIt() throws {
        let scratch = Scratch()
        let db = ["--db", scratch.db]
        writeLargeExport(to: scratch.file("big.xml"), megabytes: 400)
        let png = scratch.file("screen.png")
        let (watch, finishWatch) = try GlanceCLI.start(
            ["watch", "--render-to", png, "--size", "320x240", "--date", "2024-01-01"] + db, in: scratch, tag: "watch")
        #expect(eventually(seconds: 30) { FileManager.default.fileExists(atPath: png) })
        let (_, finishImport) = try GlanceCLI.start(["import", scratch.file("big.xml")] + db, in: scratch)
        let watchOut = { (try? String(contentsOfFile: scratch.file("watch.out"), encoding: .utf8)) ?? "" }
        let shown = eventually(seconds: 60) { watchOut().contains("task import Importing health data — ") }
        #expect(shown, "the progress screen should show the import: \(watchOut())")
        // Cancel, as the progress screen's button does (through the store).
        try Store(path: scratch.db).requestCancel("import")
        let result = finishImport()
        #expect(result.status == 79)
        let back = eventually(seconds: 10) { watchOut().hasSuffix("2024-01-01: no summary\n") }
        #expect(back, "the ring screen should come back when the task ends: \(watchOut())")
        kill(watch.processIdentifier, SIGTERM)
        #expect(finishWatch().status == 0)
    }

    @Test func demoDataLoadsFromTheBundledFile() throws {
        let scratch = Scratch()
        let r = try GlanceCLI.run(["demo-data", "--end", "2026-01-10", "--db", scratch.db], in: scratch)
        #expect(r.status == 0 && r.out.contains("loaded 28 demo days (2025-12-14 to 2026-01-10) and 3 metrics"))
        let printed = try GlanceCLI.run(["demo-data", "--print"], in: scratch)
        #expect(printed.out.hasPrefix("dateComponents,activeEnergyBurned,"))
    }
}
