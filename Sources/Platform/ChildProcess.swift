import CKernelShims

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A program started without a shell, watched from a poll loop: a pidfd that becomes readable
/// when it ends, and (optionally) its standard output through a non-blocking pipe, kept up to a
/// bound. It starts with the default signal mask and dispositions (the loop blocks its signals;
/// a child must not inherit that) and standard input from /dev/null; its standard error is the
/// caller's (the journal).
public final class ChildProcess {
    public let pid: pid_t
    /// Readable when the process has ended; nil on kernels without pidfd (before 5.3): then ask
    /// `poll()` on a timer.
    public let endDescriptor: FileDescriptor?
    /// Its standard output, when captured.
    public let outputDescriptor: FileDescriptor?
    /// What it wrote, up to `outputLimit` bytes (the rest is read and dropped).
    public private(set) var output: [UInt8] = []
    public let outputLimit: Int
    /// How it ended, once it has.
    public private(set) var status: Status?

    public enum Status: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)

        public var succeeded: Bool { self == .exited(0) }

        public var description: String {
            switch self {
            case .exited(let code): "exited with \(code)"
            case .signalled(let signal): "was ended by signal \(signal)"
            }
        }
    }

    /// Starts `arguments[0]` (an absolute path) with the rest as its arguments.
    public init(_ arguments: [String], captureOutput: Bool = false, outputLimit: Int = 65536) throws(SystemError) {
        precondition(!arguments.isEmpty)
        self.outputLimit = outputLimit
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
        var pipeFDs: [Int32] = [-1, -1]
        if captureOutput {
            // Close-on-exec from the start: set afterwards, a process another thread spawns in
            // between would keep the write end, and the output would never end.
            guard glance_pipe_cloexec(&pipeFDs) == 0 else { throw SystemError("pipe") }
            posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
        }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, &attributes, &argv, environ)
        if captureOutput { close(pipeFDs[1]) }
        guard result == 0 else {
            if captureOutput { close(pipeFDs[0]) }
            throw SystemError("start \(arguments[0])", errno: Errno(rawValue: result))
        }
        self.pid = pid
        let fd = glance_pidfd_open(pid)
        endDescriptor = fd >= 0 ? FileDescriptor(rawValue: fd) : nil
        if captureOutput {
            _ = fcntl(pipeFDs[0], F_SETFL, fcntl(pipeFDs[0], F_GETFL) | O_NONBLOCK)
            outputDescriptor = FileDescriptor(rawValue: pipeFDs[0])
        } else {
            outputDescriptor = nil
        }
    }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            var raw: Int32 = 0
            waitpid(pid, &raw, 0)
        }
        endDescriptor?.close()
        outputDescriptor?.close()
    }

    /// The descriptors to poll while it runs.
    public var descriptors: [FileDescriptor] {
        status != nil ? [] : [endDescriptor, outputDescriptor].compactMap { $0 }
    }

    /// Reads what output there is and looks whether it has ended (never blocks); the status once
    /// it has (its output then read to the end).
    @discardableResult
    public func poll() -> Status? {
        if status != nil { return status }
        drain()
        var raw: Int32 = 0
        guard waitpid(pid, &raw, WNOHANG) == pid else { return nil }
        drain()
        status = raw & 0x7F == 0 ? .exited((raw >> 8) & 0xFF) : .signalled(raw & 0x7F)
        return status
    }

    /// Ends it now (SIGKILL) and waits for it.
    public func stop() {
        guard status == nil else { return }
        kill(pid, SIGKILL)
        var raw: Int32 = 0
        waitpid(pid, &raw, 0)
        status = .signalled(SIGKILL)
    }

    private func drain() {
        guard let fd = outputDescriptor else { return }
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { bytes in retryingInterrupts { read(fd.rawValue, bytes.baseAddress, bytes.count) } }
            guard n > 0 else { return }
            let room = outputLimit - output.count
            if room > 0 { output += chunk.prefix(min(n, room)) }
        }
    }
}

/// The program this process runs in place of itself (execv(2)): the same process id, signal
/// mask and descriptors. `arguments` start with argv[0]. Returns only when it could not, with why.
public func replaceProcess(with path: String, arguments: [String]) -> SystemError {
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    execv(path, &argv)
    return SystemError(path)
}

/// This process's program, as the link /proc/self/exe names it (nil when it cannot be read).
public func executablePath() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard n > 0 else { return nil }
    return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
