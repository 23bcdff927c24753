import Foundation
import Testing

@testable import Platform

#if canImport(Glibc)
    import Glibc
#endif

/// Output files: whole or not at all, never through a link planted beside the target, never
/// replacing anything but a regular file.
@Suite(.timeLimit(.minutes(10))) struct OutputFileTests {
    let folder: String = {
        var template = Array((NSTemporaryDirectory() + "/glance-output-XXXXXX").utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }()

    /// The plan, or nil when the path is refused.
    static func plan(_ path: String) -> OutputFile.Plan? { try? OutputFile.plan(path) }

    func contents(_ name: String) -> String? { try? String(contentsOfFile: "\(folder)/\(name)", encoding: .utf8) }
    func names() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() }

    @Test func thePlanFollowsWhatThePathNames() throws {
        #expect(Self.plan("-") == .standardOutput)
        #expect(Self.plan("\(folder)/new.csv") == .replace(target: "\(folder)/new.csv"))
        #expect(FileManager.default.createFile(atPath: "\(folder)/old.csv", contents: Data("x".utf8)), "a file for the test")
        #expect(Self.plan("\(folder)/old.csv") == .replace(target: "\(folder)/old.csv"))
        // A link to a file: the file is replaced, the link stays.
        symlink("old.csv", "\(folder)/link.csv")
        let resolved = try #require(realpath("\(folder)/old.csv", nil))
        defer { free(resolved) }
        #expect(Self.plan("\(folder)/link.csv") == .replace(target: String(cString: resolved)))
        // Devices and FIFOs in place, through links too (/dev/stdout is one).
        #expect(Self.plan("/dev/null") == .inPlace("/dev/null"))
        mkfifo("\(folder)/fifo", 0o600)
        #expect(Self.plan("\(folder)/fifo") == .inPlace("\(folder)/fifo"))
        symlink("/dev/null", "\(folder)/null-link")
        #expect(Self.plan("\(folder)/null-link") == .inPlace("\(folder)/null-link"))
        // Refused: a folder, a link to nothing, a missing folder, an empty path.
        for (path, reason) in [
            (folder, "folder"), ("\(folder)/missing/x.csv", "does not exist"), ("", "empty"),
        ] {
            #expect(throws: OutputFile.Failure.self) { try OutputFile.plan(path) }
            #expect(OutputFile.problem(path)?.contains(reason) == true, "\(path): \(OutputFile.problem(path) ?? "nil")")
        }
        symlink("nothing-here", "\(folder)/dangling")
        #expect(OutputFile.problem("\(folder)/dangling")?.contains("symbolic link to nothing") == true)
        #expect(OutputFile.problem("\(folder)/new.csv") == nil)
        try? FileManager.default.removeItem(atPath: folder)
    }

    @Test func aFileAppearsWholeOnlyOnCommitWithTheTargetsPermissions() throws {
        let target = "\(folder)/out.csv"
        #expect(FileManager.default.createFile(atPath: target, contents: Data("old\n".utf8)), "a file for the test")
        chmod(target, 0o640)
        var file: OutputFile? = try OutputFile(target)
        try file!.write("new\n")
        #expect(contents("out.csv") == "old\n", "nothing replaced before the commit")
        let temporaries = names().filter { $0.hasSuffix(".partial") }
        #expect(temporaries.count == 1 && temporaries[0].hasPrefix(".out.csv."))
        try file!.commit()
        #expect(contents("out.csv") == "new\n")
        var st = stat()
        stat(target, &st)
        #expect(st.st_mode & 0o777 == 0o640, "the target's permissions are kept")
        // Abandoned (an error part way): the target stays, the temporary file goes.
        file = try OutputFile(target)
        try file!.write("half")
        file = nil
        #expect(contents("out.csv") == "new\n")
        #expect(names() == ["out.csv"])
        try? FileManager.default.removeItem(atPath: folder)
    }

    @Test func aNewFileGetsTheUsualModeAndTemporaryNamesDoNotRepeat() throws {
        let mask = umask(0o027)
        defer { umask(mask) }
        #expect(OutputFile.currentUmask() == 0o027, "read from /proc/self/status without changing it")
        try OutputFile.write(Array("a\n".utf8), to: "\(folder)/new.csv")
        var st = stat()
        stat("\(folder)/new.csv", &st)
        #expect(st.st_mode & 0o777 == 0o640)
        let a = try OutputFile("\(folder)/x"), b = try OutputFile("\(folder)/x")
        #expect(Set(names().filter { $0.hasSuffix(".partial") }).count == 2)
        _ = (a, b)
        try? FileManager.default.removeItem(atPath: folder)
    }

    @Test func aDeviceIsWrittenInPlaceAndAFullOneFails() throws {
        try OutputFile.write(Array("gone".utf8), to: "/dev/null")
        let full = try OutputFile("/dev/full")
        try full.write("x")
        do {
            try full.commit()
            Issue.record("a write to /dev/full succeeded")
        } catch {
            #expect(!error.cannotCreate && error.reason.contains("No space left"), "\(error)")
        }
        var st = stat()
        #expect(stat("/dev/full", &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR)
        try? FileManager.default.removeItem(atPath: folder)
    }
}
