import Foundation
import Raster
import Testing

/// What the test targets share: where the repository is, how to start a program (and the glance
/// executable, natively or through an emulator), scratch folders, pictures compared.

/// The repository's folders.
public enum Repository {
    /// The repository's root (this file is Tests/TestSupport/TestSupport.swift in it).
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
}

/// The glance executable the tests start.
///
/// `GLANCE_EXECUTABLE` names it (the arm64 test run gives the arm64 build), else the one built
/// beside the test bundle, else `.build/debug/glance`. `GLANCE_EMULATOR` is the command that
/// runs it, split at spaces (`qemu-aarch64` for arm64 code on an x86-64 machine: an emulated
/// process cannot start another emulated program by itself); empty natively.
public enum GlanceExecutable {
    public static let path: String = {
        let environment = ProcessInfo.processInfo.environment
        for name in ["GLANCE_EXECUTABLE", "GLANCE_TEST_EXECUTABLE"] {
            if let given = environment[name], !given.isEmpty { return given }
        }
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        let beside = URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("glance").path
        if !exe.isEmpty, FileManager.default.isExecutableFile(atPath: beside) { return beside }
        return Repository.root + "/.build/debug/glance"
    }()

    public static let emulator: [String] = {
        let given = ProcessInfo.processInfo.environment["GLANCE_EMULATOR"] ?? ""
        return given.split(separator: " ").map(String.init)
    }()

    /// The commands glance runs git-style from another executable (glance-import, …), which an
    /// emulated glance cannot start by itself: under an emulator the tests start that executable.
    public static let helpers: Set<String> = ["import", "serve", "mqtt"]

    /// The commands another helper runs, told by its first argument: `glance people` is
    /// `glance-serve people`, `glance web` `glance-serve web`.
    public static let helperVerbs: [String: String] = ["people": "serve", "web": "serve"]

    /// The program and arguments that start glance with `arguments`.
    public static func command(_ arguments: [String]) -> (program: String, arguments: [String]) {
        guard let first = emulator.first else { return (path, arguments) }
        if let name = arguments.first, helpers.contains(name) {
            let helper = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("glance-" + name).path
            return (resolve(first), Array(emulator.dropFirst()) + [helper] + arguments.dropFirst())
        }
        if let name = arguments.first, let owner = helperVerbs[name] {
            let helper = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("glance-" + owner).path
            return (resolve(first), Array(emulator.dropFirst()) + [helper] + arguments)
        }
        return (resolve(first), Array(emulator.dropFirst()) + [path] + arguments)
    }

    /// The whole command line that starts glance with `arguments`, for another program to run
    /// (setpriv, env, a shell): the emulator first when there is one.
    public static func words(_ arguments: [String]) -> [String] {
        let (program, rest) = command(arguments)
        return [program] + rest
    }

    /// A folder with a program named `glance` that runs this glance, for PATH (shells, completion
    /// scripts): the executable's own folder natively; under an emulator, a scratch folder with a
    /// script that starts it through the emulator.
    public static let folderForPATH: String = {
        guard !emulator.isEmpty else { return URL(fileURLWithPath: path).deletingLastPathComponent().path }
        let folder = ScratchFolder.kept("glance-wrapper")
        let quoted = ([resolve(emulator[0])] + emulator.dropFirst()).map { "'" + $0 + "'" }.joined(separator: " ")
        let binaries = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let script = """
            #!/bin/sh
            case "$1" in
            \(helpers.sorted().joined(separator: "|"))) name=$1; shift; exec \(quoted) '\(binaries)'/glance-"$name" "$@" ;;
            \(helperVerbs.sorted { $0.key < $1.key }.map { "\($0.key)) exec \(quoted) '\(binaries)'/glance-\($0.value) \"$@\" ;;" }.joined(separator: "\n"))
            esac
            exec \(quoted) '\(path)' "$@"

            """
        _ = FileManager.default.createFile(atPath: folder + "/glance", contents: Data(script.utf8), attributes: [.posixPermissions: 0o755])
        return folder
    }()

    /// A program name looked up in PATH (Process wants a path).
    static func resolve(_ name: String) -> String {
        if name.contains("/") { return name }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
            return "\(folder)/\(name)"
        }
        return "/usr/bin/" + name
    }
}

/// What a finished program left.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// Both, standard output first.
    public var output: String { stdout + stderr }

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// Runs `program` to its end with its output captured (standard input is /dev/null). With
/// `combined`, standard error goes into the same pipe as standard output (in `stdout`, in the
/// order written). The process is owned (`OwnedProcess`): one still running after `seconds`, or
/// when the test's time limit passed, is killed and named in an issue (its status is then the
/// signal's), and the output read so far is returned.
public func runProcess(
    _ program: String, _ arguments: [String], environment: [String: String]? = nil, combined: Bool = false,
    seconds: Double = OwnedProcess.longestWait
) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe()
    let err = combined ? out : Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    let owner = try OwnedProcess(running: process)
    // Both pipes are read on threads of their own (a program filling one pipe while the other is
    // read would never end), so that the wait for the process is bounded.
    let outBox = DataBox(), errBox = DataBox()
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) { outBox.read(out.fileHandleForReading) }
    if !combined {
        DispatchQueue.global().async(group: group) { errBox.read(err.fileHandleForReading) }
    }
    owner.waitUntilExit(seconds: seconds)
    // Ended: the pipes are at their end unless a process it left holds them.
    if group.wait(timeout: .now() + 10) == .timedOut {
        Issue.record("\(owner.name): its output was still open 10 s after it ended (a process it started holds it)")
    }
    return ProcessResult(
        status: owner.terminationStatus, stdout: String(decoding: outBox.data, as: UTF8.self),
        stderr: String(decoding: errBox.data, as: UTF8.self))
}

/// What a pipe gave, read to its end on another thread (and readable before that end).
private final class DataBox: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes = Data()
    var data: Data {
        lock.lock()
        defer { lock.unlock() }
        return bytes
    }

    func read(_ handle: FileHandle) {
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { return }
            lock.lock()
            bytes.append(chunk)
            lock.unlock()
        }
    }
}

/// Runs the glance executable (see `GlanceExecutable`) to its end.
public func runGlance(
    _ arguments: [String], environment: [String: String]? = nil, combined: Bool = false
) throws -> ProcessResult {
    let (program, argv) = GlanceExecutable.command(arguments)
    return try runProcess(program, argv, environment: environment, combined: combined)
}

/// A fresh empty folder for one test's files (unique: tests run in parallel), removed when the
/// last reference goes.
public final class ScratchFolder: @unchecked Sendable {
    public let path: String

    /// A folder in $TMPDIR named after `name`.
    public init(_ name: String = "test") {
        let safe = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "-" })
        var template = Array((NSTemporaryDirectory() + "/glance-\(safe)-XXXXXX").utf8CString)
        path = template.withUnsafeMutableBufferPointer { buffer -> String in
            guard let made = mkdtemp(buffer.baseAddress!) else {
                fatalError("mkdtemp in \(NSTemporaryDirectory()) failed (errno \(errno))")
            }
            return String(cString: made)
        }
    }

    deinit { if removesItself { try? FileManager.default.removeItem(atPath: path) } }

    /// A new folder that stays (for tests that hand paths around; $TMPDIR is the test run's).
    public static func kept(_ name: String) -> String {
        let folder = ScratchFolder(name)
        return folder.keep()
    }

    private var removesItself = true
    private func keep() -> String {
        removesItself = false
        return path
    }

    /// The path of `name` in the folder.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to `name` in the folder, readable by everyone (0644, whatever the umask):
    /// returns its path. The mode is set, not left to the umask: the tests of one process run
    /// at once, and the code some of them run narrows the process's umask for a moment (a
    /// socket made 0660, a store's files 0660), which made a configuration written meanwhile
    /// unreadable to the tests that run glance as user nobody.
    @discardableResult
    public func write(_ name: String, _ text: String) -> String {
        _ = FileManager.default.createFile(atPath: file(name), contents: Data(text.utf8))
        chmod(file(name), 0o644)
        return file(name)
    }
}

/// Whether two pictures have the same size and the same colour at every pixel.
public func samePixels(_ a: PixelBuffer, _ b: PixelBuffer) -> Bool {
    guard a.size == b.size else { return false }
    for y in 0..<a.height {
        for x in 0..<a.width where a.color(x: x, y: y) != b.color(x: x, y: y) { return false }
    }
    return true
}

/// What the tests that act as the system does need, for `.enabled(if:)` traits: a test that
/// cannot run here is reported as skipped, with the reason, never as passed.
public enum Privilege {
    /// Root: to mount a tmpfs, make a device node.
    public static let isRoot = getuid() == 0
    /// Root and setpriv (util-linux): to run glance as another user or group member.
    public static let canActAsOthers = isRoot && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
}

/// The test run's switches, read as tools/switches.sh reads them for the scripts.
public enum RunSwitch {
    /// Whether every part must run (GLANCE_REQUIRE_ALL_PARTS): off only when unset or an explicit
    /// no (empty, 0, false, no, off, in any case); any other value, a misspelling too, is on: a
    /// run never passes by not running a part through a typo.
    public static func required(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        !["", "0", "false", "no", "off"].contains((environment["GLANCE_REQUIRE_ALL_PARTS"] ?? "").lowercased())
    }

    /// Whether the skip switch `name` (GLANCE_SKIP_…) is on: 1, true, yes or on, in any case.
    public static func on(_ name: String, _ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        ["1", "true", "yes", "on"].contains((environment[name] ?? "").lowercased())
    }
}
