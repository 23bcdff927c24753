import Activity
import Foundation
import Store
import TestSupport
import Testing

/// `glance import --watch`: a real glance-import watching a real folder, fed as Syncthing feeds
/// one (a temporary name written in pieces, then renamed onto the file's name), with the
/// Gadgetbridge databases of `GB`. Every wait is bounded; every watcher is ended on every path
/// (`OwnedProcess`).
@Suite(.timeLimit(.minutes(10))) struct WatchedFolderTests {
    let scratch = ScratchFolder("watched-folder")
    var store: String { scratch.file("glance.db") }

    /// A running `glance import --watch` with its output (both streams, in order) in a file.
    final class Watcher {
        let process: OwnedProcess
        let log: String

        init(_ arguments: [String], scratch: ScratchFolder) throws {
            log = scratch.file("watch-\(UUID().uuidString).log")
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            let handle = try #require(FileHandle(forWritingAtPath: log))
            var environment = ProcessInfo.processInfo.environment
            environment["TZ"] = GB.tz
            let (program, argv) = GlanceExecutable.command(["import", "--watch"] + arguments)
            process = try OwnedProcess(program, argv, environment: environment, standardOutput: handle, standardError: handle)
        }

        var text: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        var lines: [Substring] { text.split(separator: "\n") }

        /// The lines that contain every one of `words`.
        func count(_ words: String...) -> Int { lines.filter { line in words.allSatisfy { line.contains($0) } }.count }

        /// Waits (at most `seconds`) until `n` lines contain every one of `words`.
        @discardableResult
        func waitFor(_ words: String..., times n: Int = 1, seconds: Double = 60) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline && !Task.isCancelled {
                if lines.filter({ line in words.allSatisfy { line.contains($0) } }).count >= n { return true }
                if !process.isRunning { break }
                usleep(50_000)
            }
            return lines.filter { line in words.allSatisfy { line.contains($0) } }.count >= n
        }

        /// SIGTERM, then its end (bounded): its exit status (nil: it had to be killed).
        func terminate() -> Int32? {
            process.terminate()
            guard process.wait(seconds: 20) else {
                Issue.record("glance import --watch did not end within 20 s of SIGTERM:\n\(text)")
                process.stop()
                return nil
            }
            return process.terminationReason == .exit ? process.terminationStatus : -process.terminationStatus
        }
    }

    func database(_ family: GB.Family) throws -> Data {
        let path = scratch.file("made-\(UUID().uuidString).db")
        try GB.make(path, family.sql)
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// Puts `bytes` into `folder` as `name` the way Syncthing does: `.syncthing.NAME.tmp` written
    /// in pieces and closed, then renamed onto NAME.
    func deliver(_ bytes: Data, as name: String, in folder: String) throws {
        let temporary = folder + "/.syncthing." + name + ".tmp"
        _ = FileManager.default.createFile(atPath: temporary, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + 4096, bytes.count)
            try handle.write(contentsOf: bytes[offset..<end])
            offset = end
            usleep(2_000)
        }
        try handle.close()
        guard rename(temporary, folder + "/" + name) == 0 else { throw GB.Failure("rename \(temporary): errno \(errno)") }
    }

    /// Every row of the store's samples and days, to compare. (The import's line is said before
    /// its connection closes, checkpointing the WAL: a read that finds the store locked then is
    /// tried again, for 10 s at most.)
    func dump() throws -> [String] {
        guard FileManager.default.fileExists(atPath: store) else { return [] }
        return try retried {
            try GB.rows(store, "SELECT * FROM samples ORDER BY metric, start, source")
                + GB.rows(store, "SELECT * FROM day_summaries ORDER BY date")
        }
    }

    func retried<T>(_ body: () throws -> T) throws -> T {
        let deadline = Date().addingTimeInterval(10)
        while true {
            do {
                return try body()
            } catch where Date() < deadline && ("\(error)".contains("locked") || "\(error)".contains("busy")) {
                usleep(50_000)
            }
        }
    }

    /// The store's figures of the fixtures' two days match `family`'s (its source's samples alone).
    func expectDays(of family: GB.Family, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let figures = try retried { try Store(path: store, access: .read).sampleFigures(from: GB.day0, through: GB.day1) }
        for day in family.days {
            let changes = try #require(figures[day.day], "no figures for \(day.day)", sourceLocation: sourceLocation)
            var summary = ActivitySummary()
            changes.apply(to: &summary)
            #expect(
                summary.exerciseTime == (day.exerciseMinutes > 0 ? Double(day.exerciseMinutes) : nil), "\(day.day)",
                sourceLocation: sourceLocation)
            #expect(
                summary.standHours == (day.standHours > 0 ? Double(day.standHours) : nil), "\(day.day)",
                sourceLocation: sourceLocation)
        }
        #expect(
            try retried { try GB.rows(store, "SELECT DISTINCT source FROM samples") }.contains(family.days[0].source),
            sourceLocation: sourceLocation)
    }

    @Test func aFileSyncthingDeliversIsImportedOnceAndTemporaryFilesAndDotfilesNever() throws {
        let folder = scratch.file("in")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        // A complete database under names never imported: a dotfile, a temporary file of each kind.
        let miBand = try database(GB.miBandFamily)
        try miBand.write(to: URL(fileURLWithPath: folder + "/.hidden.db"))
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: false)
        let watcher = try Watcher([folder, "--db", store], scratch: scratch)
        try #require(watcher.waitFor("watching \(folder)"), "\(watcher.text)")

        try miBand.write(to: URL(fileURLWithPath: folder + "/~syncthing~Gadgetbridge.db.tmp"))
        try miBand.write(to: URL(fileURLWithPath: folder + "/leftover.tmp"))
        try miBand.write(to: URL(fileURLWithPath: folder + "/.other.db"))
        try miBand.write(to: URL(fileURLWithPath: folder + "/sub/inner.db"))
        // A name the other machine chose with an escape sequence in it: said quoted, not imported.
        try deliver(miBand, as: "evil\u{1B}[2J.db", in: folder)
        #expect(watcher.waitFor("evil?[2J.db: a file name with a control or reordering character; left alone"), "\(watcher.text)")
        #expect(!watcher.text.contains("\u{1B}"), "the escape reached the log: \(watcher.text)")
        try deliver(try database(GB.garminFamily), as: "Gadgetbridge.db", in: folder)
        #expect(watcher.waitFor("imported 2 days (2024-03-04 to 2024-03-05) from \(folder)/Gadgetbridge.db (Gadgetbridge: Venu 2)"), "\(watcher.text)")
        // Twice the settle time more: nothing else comes.
        usleep(5_000_000)
        #expect(watcher.count("imported") == 1, "\(watcher.text)")
        for name in [".hidden", "~syncthing~", ".tmp", ".other", "inner.db"] {
            #expect(watcher.count(name) == 0, "\(name) was looked at:\n\(watcher.text)")
        }
        try expectDays(of: GB.garminFamily)
        #expect(try retried { try GB.rows(store, "SELECT DISTINCT source FROM samples") } == ["Gadgetbridge: Venu 2"])
        #expect(watcher.process.isRunning)
        #expect(watcher.terminate() == 0, "\(watcher.text)")
        #expect(watcher.count("stopped by SIGTERM") == 1, "\(watcher.text)")
    }

    @Test("--person: the files the watch imports are that person's days; person 1's are left as they were")
    func aPersonsFolder() throws {
        let folder = scratch.file("in")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        do {
            let made = try Store(path: store)
            try made.setSummary(ActivitySummary(exerciseTime: 12), for: GB.day0)
            try made.addPerson(name: "Ann", now: 0)
        }
        try (try database(GB.miBandFamily)).write(to: URL(fileURLWithPath: folder + "/Gadgetbridge.db"))
        let watcher = try Watcher([folder, "--db", store, "--person", "ann"], scratch: scratch)
        try #require(watcher.waitFor("imported 2 days", "from \(folder)/Gadgetbridge.db"), "\(watcher.text)")
        #expect(watcher.terminate() == 0, "\(watcher.text)")
        let read = try retried { try Store(path: store, access: .read) }
        #expect(try read.sampleCount() == 0 && read.summary(for: GB.day0) == ActivitySummary(exerciseTime: 12), "person 1's")
        read.person = 2
        let figures = try read.sampleFigures(from: GB.day0, through: GB.day1)
        #expect(figures[GB.day0]?.steps == .set(3360) && figures[GB.day1]?.steps == .set(3690), "Ann's: \(figures)")
        #expect(try read.goalHistory().last?.goals.steps == 8000, "the band's step goal is Ann's")
    }

    @Test func aDamagedFileIsRefusedTheStoreUnchangedAndTheWatchGoesOn() throws {
        let folder = scratch.file("in")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        // Already there when it starts (the board was off): the newest known file is imported.
        try (try database(GB.xiaomiFamily)).write(to: URL(fileURLWithPath: folder + "/old.db"))
        let watcher = try Watcher([folder, "--db", store], scratch: scratch)
        try #require(watcher.waitFor("imported 2 days", "from \(folder)/old.db"), "\(watcher.text)")
        let before = try dump()
        #expect(!before.isEmpty)

        // Half a database, written in place and closed.
        let whole = try database(GB.garminFamily)
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: folder + "/export.db"))
        try #require(watcher.waitFor("\(folder)/export.db: "), "\(watcher.text)")
        let refusal = try #require(watcher.lines.first { $0.contains("\(folder)/export.db: ") })
        #expect(refusal.contains("nothing was imported; the store is unchanged"), "one line with the reason: \(watcher.text)")
        #expect(try dump() == before)
        #expect(watcher.process.isRunning, "\(watcher.text)")
        // Not a kind glance import takes: said once.
        _ = scratch.write("in/notes.txt", "shopping: milk\n")
        #expect(watcher.waitFor("\(folder)/notes.txt: ", "left alone"), "\(watcher.text)")

        // The complete file, delivered: imported.
        try deliver(whole, as: "export.db", in: folder)
        #expect(watcher.waitFor("imported 2 days", "from \(folder)/export.db (Gadgetbridge: Venu 2)"), "\(watcher.text)")
        // Beside the first file's samples (the fixtures' days are the same two).
        let sources = try retried { try GB.rows(store, "SELECT DISTINCT source FROM samples ORDER BY source") }
        #expect(sources == ["Gadgetbridge: Venu 2", "Gadgetbridge: Xiaomi Smart Band 8"])

        // Touched without change (opened for writing and closed: a write closed, the same device,
        // inode, size and time): neither is looked at again. Another file delivered after them
        // shows their turn passed.
        for name in ["export.db", "notes.txt"] {
            let handle = try #require(FileHandle(forWritingAtPath: folder + "/" + name))
            try handle.close()
        }
        usleep(300_000)
        try deliver(try database(GB.miBandFamily), as: "later.db", in: folder)
        #expect(watcher.waitFor("imported 2 days", "from \(folder)/later.db"), "\(watcher.text)")
        #expect(watcher.count("from \(folder)/export.db") == 1, "export.db imported again:\n\(watcher.text)")
        #expect(watcher.count("\(folder)/notes.txt: ") == 1, "notes.txt said again:\n\(watcher.text)")
        #expect(watcher.count("\(folder)/export.db: ") == 1, "\(watcher.text)")
        #expect(watcher.terminate() == 0, "\(watcher.text)")
    }

    @Test func aMissingFolderIsWaitedForAndOneRemovedIsWaitedForAgain() throws {
        let folder = scratch.file("sync")
        // The folder from the configuration's import.watch.
        let config = scratch.write("config.json", "{\"import\": {\"watch\": \"\(folder)\"}}")
        let watcher = try Watcher(["--config", config, "--db", store], scratch: scratch)
        try #require(watcher.waitFor("waiting for \(folder)"), "\(watcher.text)")

        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try #require(watcher.waitFor("\(folder) is there: watching it"), "\(watcher.text)")
        let garmin = try database(GB.garminFamily)
        try deliver(garmin, as: "Gadgetbridge.db", in: folder)
        #expect(watcher.waitFor("imported 2 days", "from \(folder)/Gadgetbridge.db"), "\(watcher.text)")

        try FileManager.default.removeItem(atPath: folder)
        #expect(watcher.waitFor("\(folder) was removed"), "\(watcher.text)")
        #expect(watcher.waitFor("waiting for \(folder)", times: 2), "\(watcher.text)")
        // Looked for every 2 s, said once: three looks later, still two lines.
        usleep(6_500_000)
        #expect(watcher.count("waiting for \(folder)") == 2, "\(watcher.text)")
        #expect(watcher.process.isRunning)

        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try deliver(garmin, as: "Gadgetbridge.db", in: folder)
        #expect(watcher.waitFor("imported 2 days", "from \(folder)/Gadgetbridge.db", times: 2), "\(watcher.text)")
        try expectDays(of: GB.garminFamily)
        #expect(watcher.lines.count < 20, "bounded lines:\n\(watcher.text)")
        #expect(watcher.terminate() == 0, "\(watcher.text)")
    }

    @Test func withoutAFolderItSaysSoAndEndsWithZero() throws {
        let config = scratch.write("config.json", "{\"import\": {\"watch\": null}}")
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = GB.tz
        let none = try runGlance(["import", "--watch", "--config", config, "--db", store], environment: environment)
        #expect(none.status == 0, "\(none.output)")
        #expect(none.stderr.contains("no folder to watch: import.watch is null"), "\(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store))

        // A file where the folder should be: 66, at once.
        let file = scratch.write("not-a-folder", "x")
        let notFolder = try runGlance(["import", "--watch", file, "--db", store], environment: environment)
        #expect(notFolder.status == 66, "\(notFolder.output)")
        #expect(notFolder.stderr.contains("\(file) is not a folder"), "\(notFolder.stderr)")
        // --config belongs to --watch.
        let misplaced = try runGlance(["import", file, "--config", config, "--db", store], environment: environment)
        #expect(misplaced.status == 64, "\(misplaced.output)")
    }
}
