import Foundation

/// Runs the built `glance` executable (tests drive the real program, as a user would).
enum Executable {
    static let root: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path
    }()

    /// The debug build; `GLANCE_TEST_EXECUTABLE` names another (to show a test fails on the build
    /// before a fix).
    static let glance = ProcessInfo.processInfo.environment["GLANCE_TEST_EXECUTABLE"] ?? root + "/.build/debug/glance"

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String], environment: [String: String]? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: glance)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs glance with its output in files, killing it (SIGKILL, status -1) if it still runs after
    /// `seconds`: for a command that should end by itself and, with the bug, would not (a hang
    /// guard, not a measure of speed).
    static func run(_ arguments: [String], killAfter seconds: Double) throws -> Result {
        let folder = scratch("bounded")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: glance)
        process.arguments = arguments
        FileManager.default.createFile(atPath: folder + "/out", contents: nil)
        FileManager.default.createFile(atPath: folder + "/err", contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: folder + "/out")
        process.standardError = FileHandle(forWritingAtPath: folder + "/err")
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        let killed = process.isRunning
        if killed { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return Result(
            status: killed ? -1 : process.terminationStatus,
            stdout: (try? String(contentsOfFile: folder + "/out", encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: folder + "/err", encoding: .utf8)) ?? "")
    }

    /// A fresh empty folder for a test's files (unique: test cases run in parallel).
    static func scratch(_ name: String) -> String {
        let path = NSTemporaryDirectory() + "glance-tests-\(getpid())-\(name)-\(UInt64.random(in: 0...UInt64.max))"
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
