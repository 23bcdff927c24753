import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 16, reproducers 1 and 2: outputs (`export --output`, `render --output`, `watch
/// --render-to`) are never written through a link planted beside them, and never replace a
/// device, a FIFO or a link with a regular file.
@Suite(.serialized, .timeLimit(.minutes(10))) struct OutputSafetyTests {
    /// A store with one day, in a fresh folder.
    func storeFolder() throws -> Scratch {
        let scratch = Scratch()
        let r = try GlanceCLI.run(["log", "--db", scratch.db, "--move", "300", "--move-goal", "500"], in: scratch)
        try #require(r.status == 0, "\(r.err)")
        return scratch
    }

    /// Runs `glance ARGS` from a shell that first plants a link named as the old temporary file
    /// (`OUTPUT.partial-PID`, PID being glance's own since the shell execs it) to `victim`.
    func runWithPlantedLink(_ output: String, victim: String, _ arguments: [String], in scratch: Scratch)
        throws -> (OwnedProcess, () -> GlanceCLI.Result)
    {
        let quoted = GlanceExecutable.words(arguments).map { "'\($0)'" }.joined(separator: " ")
        return try GlanceCLI.start(
            ["-c", "ln -s '\(victim)' '\(output)'.partial-$$ && exec \(quoted)"], in: scratch, program: "/bin/sh")
    }

    @Test func aLinkPlantedAtThePredictableTemporaryNameIsNotFollowed() throws {
        let scratch = try storeFolder()
        let victim = scratch.write("victim", "secret\n")
        chmod(victim, 0o600)
        let csv = scratch.file("out.csv"), png = scratch.file("out.png"), watched = scratch.file("watch.png")

        var r = try runWithPlantedLink(csv, victim: victim, ["export", "--csv", "--db", scratch.db, "--output", csv], in: scratch).1()
        #expect(r.status == 0, "\(r.err)")
        r = try runWithPlantedLink(
            png, victim: victim, ["render", "--size", "32x32", "--rings-only", "--move", "1/2", "--output", png], in: scratch
        ).1()
        #expect(r.status == 0, "\(r.err)")
        let (watch, finish) = try runWithPlantedLink(
            watched, victim: victim, ["watch", "--rings-only", "--size", "32x32", "--db", scratch.db, "--render-to", watched],
            in: scratch)
        #expect(eventually(seconds: 20) { FileManager.default.fileExists(atPath: watched) })
        usleep(200_000)
        kill(watch.processIdentifier, SIGTERM)
        r = finish()
        #expect(r.status == 0, "\(r.err)")

        #expect(FileManager.default.contents(atPath: victim) == Data("secret\n".utf8), "the linked file is untouched")
        let exported = try String(contentsOfFile: csv, encoding: .utf8)
        #expect(exported.hasPrefix("dateComponents,"))
        let names = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
        #expect(!names.contains { $0.hasSuffix(".partial") }, "no temporary file is left: \(names)")
    }

    @Test func aDeviceAFIFOAndStandardOutputAreWrittenInPlace() throws {
        let scratch = try storeFolder()
        // Standard output, as - and through a link to it as /dev/stdout is (one of our own: a
        // build that replaced links would replace this one, not the system's).
        symlink("/proc/self/fd/1", scratch.file("stdout"))
        for output in ["-", scratch.file("stdout")] {
            let r = try GlanceCLI.run(["export", "--csv", "--db", scratch.db, "--output", output], in: scratch)
            #expect(r.status == 0 && r.out.hasPrefix("dateComponents,"), "\(output): \(r.status) \(r.err)")
        }
        // A FIFO with a reader (this process, not blocking) gets the export; it stays a FIFO.
        let fifo = scratch.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        let r = try GlanceCLI.run(["export", "--csv", "--db", scratch.db, "--output", fifo], in: scratch)
        #expect(r.status == 0, "\(r.err)")
        var bytes = [UInt8](repeating: 0, count: 4096)
        let n = read(reader, &bytes, bytes.count)
        #expect(n > 0 && String(decoding: bytes.prefix(max(n, 0)), as: UTF8.self).hasPrefix("dateComponents,"))
        var st = stat()
        #expect(lstat(fifo, &st) == 0 && (st.st_mode & S_IFMT) == S_IFIFO, "the FIFO is still a FIFO")
        // A FIFO nobody reads: refused at once (73), not waited on forever.
        let lonely = scratch.file("lonely")
        mkfifo(lonely, 0o600)
        let refused = try GlanceCLI.run(["export", "--csv", "--db", scratch.db, "--output", lonely], in: scratch)
        #expect(refused.status == 73 && refused.err.contains("no process reads"), "\(refused.status) \(refused.err)")
    }

    /// A character device (a copy of /dev/full): written in place, the failure is 74, the node stays.
    @Test(.enabled(if: Privilege.isRoot, "mknod needs root (CI runs as root)"))
    func aDeviceIsWrittenInPlace() throws {
        let scratch = try storeFolder()
        var st = stat()
        let full = scratch.file("full")
        #expect(mknod(full, S_IFCHR | 0o666, dev_t(1 << 8 | 7)) == 0)
        for arguments in [
            ["export", "--csv", "--db", scratch.db, "--output", full],
            ["render", "--size", "32x32", "--rings-only", "--move", "1/2", "--output", full],
        ] {
            let r = try GlanceCLI.run(arguments, in: scratch)
            #expect(r.status == 74 && r.err.contains("No space left on device"), "\(arguments[0]): \(r.status) \(r.err)")
            #expect(lstat(full, &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR, "the device node is still there")
        }
    }

    @Test func aReplacedFileKeepsItsModeALinkToAFileStaysALinkToNothingIsRefused() throws {
        let scratch = try storeFolder()
        let csv = scratch.write("out.csv", "old\n")
        chmod(csv, 0o640)
        symlink("out.csv", scratch.file("link.csv"))
        let r = try GlanceCLI.run(["export", "--csv", "--db", scratch.db, "--output", scratch.file("link.csv")], in: scratch)
        #expect(r.status == 0, "\(r.err)")
        var st = stat()
        #expect(lstat(scratch.file("link.csv"), &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK, "the link stays a link")
        #expect(stat(csv, &st) == 0 && st.st_mode & 0o777 == 0o640, "the file keeps its mode")
        let exported = try String(contentsOfFile: csv, encoding: .utf8)
        #expect(exported.hasPrefix("dateComponents,"))

        symlink("nothing", scratch.file("dangling.csv"))
        let dangling = try GlanceCLI.run(
            ["export", "--csv", "--db", scratch.db, "--output", scratch.file("dangling.csv")], in: scratch)
        #expect(dangling.status == 73 && dangling.err.contains("symbolic link to nothing"), "\(dangling.err)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("nothing")), "nothing was created through it")
    }
}
