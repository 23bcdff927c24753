import Foundation
import TestSupport
import Testing

/// Runs the built `glance` executable (tests drive the real program, as a user would): the one
/// TestSupport's `GlanceExecutable` names (the arm64 build under its emulator in the arm64 run).
enum Executable {
    static let root = Repository.root

    static var glance: String { GlanceExecutable.path }

    typealias Result = ProcessResult

    static func run(_ arguments: [String], environment: [String: String]? = nil) throws -> Result {
        try runGlance(arguments, environment: environment)
    }

    /// Runs glance with its output in files, killing it (SIGKILL, status -1) if it still runs after
    /// `seconds`: for a command that should end by itself and, with the bug, would not (a hang
    /// guard, not a measure of speed).
    static func run(_ arguments: [String], killAfter seconds: Double) throws -> Result {
        let folder = scratch("bounded")
        let process = OwnedProcess()
        let (program, argv) = GlanceExecutable.command(arguments)
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = argv
        #expect(FileManager.default.createFile(atPath: folder + "/out", contents: nil), "a file for the test")
        #expect(FileManager.default.createFile(atPath: folder + "/err", contents: nil), "a file for the test")
        process.standardOutput = FileHandle(forWritingAtPath: folder + "/out")
        process.standardError = FileHandle(forWritingAtPath: folder + "/err")
        try process.run()
        let killed = !process.wait(seconds: seconds)
        if killed { process.stop(grace: 0) }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return Result(
            status: killed ? -1 : process.terminationStatus,
            stdout: (try? String(contentsOfFile: folder + "/out", encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: folder + "/err", encoding: .utf8)) ?? "")
    }

    /// A fresh empty folder for a test's files (unique: test cases run in parallel).
    static func scratch(_ name: String) -> String { ScratchFolder.kept(name) }
}
