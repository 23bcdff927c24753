import Activity
import Platform


/// The refresh control's work: the configuration's refresh commands run one after another (no
/// shell), each in the background, watched through a pidfd in the session's poll loop — nothing
/// waits for them, input goes on. A command that fails, cannot start or runs past `timeout` ends
/// the refresh as failed (told once in the log); the failure line then shows for `failureShown`.
public final class Refresher: ReadingSource {
    public enum State: Equatable, Sendable {
        case idle
        /// The `index`th command runs, since `since`.
        case running(index: Int, since: Duration)
        /// Failed; the line shows until `until`.
        case failed(until: Duration)
    }

    public let commands: [[String]]
    public let timeout: Duration
    public let failureShown: Duration
    public private(set) var state = State.idle
    private var child: ChildProcess?
    private let log: (String) -> Void

    public init(
        commands: [[String]], timeout: Duration = .seconds(60), failureShown: Duration = .seconds(4),
        log: @escaping (String) -> Void
    ) {
        self.commands = commands
        self.timeout = timeout
        self.failureShown = failureShown
        self.log = log
    }

    public var isRunning: Bool { if case .running = state { true } else { false } }

    /// Starts a refresh (a second ask while one runs is the same refresh). False when there is
    /// nothing to run.
    @discardableResult
    public func start(now: Duration) -> Bool {
        guard !commands.isEmpty else { return false }
        if isRunning { return true }
        log("refresh: fetching fresh data")
        run(0, now: now)
        return true
    }

    /// The running command's pidfd.
    public var descriptors: [FileDescriptor] { child?.descriptors ?? [] }

    /// After the command ended, the next; true when what the panel shows changed (the spinner
    /// went, the failure line came or went).
    public func handle(ready: [FileDescriptor], now: Duration) -> Bool {
        switch state {
        case .idle: return false
        case .failed(let until):
            guard now >= until else { return false }
            state = .idle
            return true
        case .running(let index, let since):
            guard let child else { return false }
            if now - since >= timeout {
                child.stop()
                self.child = nil
                return fail("\(commands[index][0]) took longer than \(Int(timeout.inSeconds)) s and was stopped", now: now)
            }
            guard let status = child.poll() else { return false }
            self.child = nil
            guard status.succeeded else { return fail("\(commands[index][0]) \(status.description)", now: now) }
            if index + 1 < commands.count {
                run(index + 1, now: now)
                return false
            }
            state = .idle
            log("refresh: done")
            return true
        }
    }

    /// When `handle` must run without events: the command's timeout, the failure line's end.
    public func nextDeadline(now: Duration) -> Duration? {
        switch state {
        case .idle: nil
        case .running(_, let since):
            // Without a pidfd the command is looked at four times a second.
            child?.endDescriptor == nil ? min(since + timeout, now + .milliseconds(250)) : since + timeout
        case .failed(let until): until
        }
    }

    private func fail(_ why: String, now: Duration) -> Bool {
        log("refresh failed: \(why)")
        state = .failed(until: now + failureShown)
        return true
    }

    private func run(_ index: Int, now: Duration) {
        state = .running(index: index, since: now)
        do {
            child = try ChildProcess(commands[index])
        } catch {
            _ = fail("\(commands[index][0]) could not start: \(error)", now: now)
        }
    }
}
