import CKernelShims
import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The refresh control's work: the configuration's refresh commands run one after another (no
/// shell), each in the background, watched through a pidfd in the session's poll loop — nothing
/// waits for them, input goes on. A command that fails, cannot start or runs past `timeout` ends
/// the refresh as failed (told once in the log); the failure line then shows for `failureShown`.
public final class Refresher {
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
    private var child: (pid: pid_t, descriptor: FileDescriptor?)?
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

    deinit {
        if let child {
            kill(child.pid, SIGKILL)
            var status: Int32 = 0
            waitpid(child.pid, &status, 0)
            child.descriptor?.close()
        }
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
    public var descriptors: [FileDescriptor] { child?.descriptor.map { [$0] } ?? [] }

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
                kill(child.pid, SIGKILL)
                reap()
                return fail("\(commands[index][0]) took longer than \(Int(timeout.inSeconds)) s and was stopped", now: now)
            }
            var status: Int32 = 0
            let pid = waitpid(child.pid, &status, WNOHANG)
            guard pid == child.pid else { return false }
            child.descriptor?.close()
            self.child = nil
            let exited = status & 0x7F == 0
            let code = (status >> 8) & 0xFF
            guard exited && code == 0 else {
                let how = exited ? "exited with \(code)" : "was ended by signal \(status & 0x7F)"
                return fail("\(commands[index][0]) \(how)", now: now)
            }
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
            child?.descriptor == nil ? min(since + timeout, now + .milliseconds(250)) : since + timeout
        case .failed(let until): until
        }
    }

    private func fail(_ why: String, now: Duration) -> Bool {
        log("refresh failed: \(why)")
        state = .failed(until: now + failureShown)
        return true
    }

    private func reap() {
        guard let child else { return }
        var status: Int32 = 0
        waitpid(child.pid, &status, 0)
        child.descriptor?.close()
        self.child = nil
    }

    /// Starts command `index` with the default signal mask and dispositions (the session blocks
    /// its signals; a child must not inherit that), standard input from /dev/null.
    private func run(_ index: Int, now: Duration) {
        state = .running(index: index, since: now)
        let words = commands[index]
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, words[0], &actions, &attributes, &argv, environ)
        guard result == 0 else {
            _ = fail("\(words[0]) could not start: \(String(cString: strerror(result)))", now: now)
            return
        }
        // A kernel before 5.3 has no pidfd: the command is then looked at on a timer.
        let fd = glance_pidfd_open(pid)
        child = (pid, fd >= 0 ? FileDescriptor(rawValue: fd) : nil)
    }
}
