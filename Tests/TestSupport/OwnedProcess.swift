import Foundation
import Testing

/// A process a test started, owned so that it ends on every path: `stop()` (or the owner's
/// release, when the test returns, fails or throws) sends SIGTERM to the process and its process
/// group (Foundation's `Process` makes the child a group leader), waits a few seconds, then
/// SIGKILL, and waits for it (within a bound). Every wait is bounded and gives up when the test's
/// task is cancelled (its time limit passed), ending the process.
///
/// Each started process is in `SpawnedProcesses`: one still running when the test process exits
/// fails the run, named with the test that started it.
public final class OwnedProcess: @unchecked Sendable {
    public let process: Process

    /// The longest `waitUntilExit()` waits by default (a test's own time limit cuts it shorter).
    public static let longestWait: Double = 1800

    /// A process to configure (as a `Process`: `executableURL`, `arguments`, …) and then `run()`.
    public init() {
        process = Process()
    }

    /// Runs `process` (configured, not yet run) and owns it.
    public init(running process: Process) throws {
        self.process = process
        try run()
    }

    /// Starts `program` with `arguments` (standard input /dev/null, output where given).
    public convenience init(
        _ program: String, _ arguments: [String], environment: [String: String]? = nil,
        standardOutput: Any? = nil, standardError: Any? = nil
    ) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        if let standardOutput { process.standardOutput = standardOutput }
        if let standardError { process.standardError = standardError }
        try self.init(running: process)
    }

    /// Starts it (once).
    public func run() throws {
        try process.run()
        SpawnedProcesses.started(process.processIdentifier, name: name)
    }

    /// The program and its first arguments, for messages.
    public var name: String { OwnedProcess.describe(process) }

    public var executableURL: URL? {
        get { process.executableURL }
        set { process.executableURL = newValue }
    }
    public var arguments: [String]? {
        get { process.arguments }
        set { process.arguments = newValue }
    }
    public var environment: [String: String]? {
        get { process.environment }
        set { process.environment = newValue }
    }
    public var standardInput: Any? {
        get { process.standardInput }
        set { process.standardInput = newValue }
    }
    public var standardOutput: Any? {
        get { process.standardOutput }
        set { process.standardOutput = newValue }
    }
    public var standardError: Any? {
        get { process.standardError }
        set { process.standardError = newValue }
    }

    deinit { stop() }

    public var processIdentifier: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }
    /// Its exit status (or signal): only once it ended (`wait`, `waitUntilExit`, `stop`).
    public var terminationStatus: Int32 { process.terminationStatus }
    public var terminationReason: Process.TerminationReason { process.terminationReason }
    public func terminate() { process.terminate() }
    public func interrupt() { process.interrupt() }

    /// Waits until it ends, up to `seconds` and never longer than the test's time limit, or until
    /// the test's task is cancelled (its time limit passed): whether it ended. It keeps running
    /// when it did not.
    ///
    /// The time limit is counted here too because swift-testing's own timer runs on the same
    /// pool of threads as the tests (as many as cores): when every one of them is blocked in a
    /// wait like this one, the timer cannot fire, and nothing is cancelled (seen with two such
    /// tests on two cores: both ran until their processes ended by themselves, 600 s).
    @discardableResult
    public func wait(seconds: Double) -> Bool {
        var bound = Duration.milliseconds(Int(seconds * 1000))
        if let limit = Test.current?.timeLimit, limit < bound { bound = limit }
        let deadline = ContinuousClock.now + bound
        while process.isRunning {
            if ContinuousClock.now >= deadline || Task.isCancelled {
                if ContinuousClock.now >= deadline, let limit = Test.current?.timeLimit, limit <= bound {
                    limitPassed = true
                }
                return false
            }
            usleep(5_000)
        }
        process.waitUntilExit()  // ended: returns at once (and its status is set)
        reaped()
        return true
    }

    /// Waits until it ends, up to `seconds`; when it does not (or the test's time is up), records
    /// an issue naming it and ends it (`stop()`): the caller then finds it killed.
    public func waitUntilExit(
        seconds: Double = OwnedProcess.longestWait, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        if wait(seconds: seconds) { return }
        let why = Task.isCancelled || limitPassed ? "the test's time limit passed" : "\(Int(seconds)) s passed"
        Issue.record("\(name) (pid \(processIdentifier)) had not ended when \(why): killed", sourceLocation: sourceLocation)
        // The test's time is up: no grace.
        stop(grace: Task.isCancelled || limitPassed ? 0 : 5)
    }

    /// Ends it if it still runs: SIGTERM to it and its group, `grace` seconds, then SIGKILL; waits
    /// for it (10 s at most: a process SIGKILL cannot end is stuck in the kernel, and said).
    public func stop(grace: Double = 5) {
        guard !ended, process.processIdentifier > 0 else { return }
        if process.isRunning {
            signal(SIGTERM)
            // (A cancelled test does not wait: `wait` gives up at once.)
            if !wait(seconds: grace) { signal(SIGKILL) }
        }
        // The rest of its group (what it started) goes too; then it is waited for.
        signal(SIGKILL, groupOnly: true)
        let deadline = ContinuousClock.now + .seconds(10)
        while process.isRunning && ContinuousClock.now < deadline { usleep(5_000) }
        if process.isRunning {
            Issue.record("\(name) (pid \(processIdentifier)) did not end after SIGKILL")
        } else {
            process.waitUntilExit()
            reaped()
        }
    }

    private var ended = false
    /// Whether a wait gave up at the test's time limit.
    private var limitPassed = false
    private func reaped() {
        guard !ended else { return }
        ended = true
        SpawnedProcesses.ended(process.processIdentifier)
    }

    /// Sends `number` to the process, and to its process group when it leads one.
    private func signal(_ number: Int32, groupOnly: Bool = false) {
        let pid = process.processIdentifier
        guard pid > 0 else { return }
        if getpgid(pid) == pid { kill(-pid, number) }
        if !groupOnly, process.isRunning { kill(pid, number) }
    }

    static func describe(_ process: Process) -> String {
        let program = process.executableURL?.lastPathComponent ?? "?"
        let words = (process.arguments ?? []).prefix(3).map { $0.count > 40 ? String($0.prefix(40)) + "…" : $0 }
        return ([program] + words).joined(separator: " ")
    }
}

/// The processes the tests started through `OwnedProcess`, with the test that started each. When
/// the test process exits, any of them still running (a leak: an owner never released), and any
/// other child of the test process still running (started without an owner), is named on
/// standard error, killed, and the exit status becomes 1: a run that leaves a process behind
/// fails.
public enum SpawnedProcesses {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var running: [Int32: String] = [:]
    nonisolated(unsafe) private static var checking = false

    static func started(_ pid: Int32, name: String) {
        let test = Test.current.map { " (test \"\($0.displayName ?? $0.name)\")" } ?? ""
        lock.lock()
        running[pid] = name + test
        if !checking {
            checking = true
            atexit { SpawnedProcesses.checkAtExit() }
        }
        lock.unlock()
    }

    static func ended(_ pid: Int32) {
        lock.lock()
        running[pid] = nil
        lock.unlock()
    }

    /// The processes started by tests that are still running (not zombies): pid and what it is.
    public static func left() -> [(pid: Int32, what: String)] {
        lock.lock()
        let owned = running
        lock.unlock()
        var found: [Int32: String] = [:]
        for (pid, what) in owned where alive(pid) { found[pid] = what }
        // Children started without an owner.
        let me = getpid()
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), found[pid] == nil, let stat = stat(pid), stat.parent == me, stat.state != "Z" else { continue }
            let command = ((try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? "")
                .split(separator: "\0").prefix(3).joined(separator: " ")
            found[pid] = command + " (started without an owner)"
        }
        return found.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    private static func alive(_ pid: Int32) -> Bool {
        guard let stat = stat(pid) else { return false }
        return stat.state != "Z"
    }

    /// The state letter and parent of /proc/PID/stat.
    private static func stat(_ pid: Int32) -> (state: Character, parent: Int32)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 1, let state = fields[0].first, let parent = Int32(fields[1]) else { return nil }
        return (state, parent)
    }

    private static func checkAtExit() {
        let left = left()
        guard !left.isEmpty else { return }
        var text = "glance tests: \(left.count) process(es) the tests started were still running at the end (killed; the run fails):\n"
        for (pid, what) in left {
            text += "  pid \(pid): \(what)\n"
            if getpgid(pid) == pid { kill(-pid, SIGKILL) }
            kill(pid, SIGKILL)
        }
        fflush(nil)
        _ = text.withCString { write(2, $0, strlen($0)) }
        _exit(1)
    }
}
