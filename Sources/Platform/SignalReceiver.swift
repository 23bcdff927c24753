import CKernelShims

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Signals delivered as readable data on a descriptor (signalfd), so the poll loop handles them
/// like any other event and restores the display in ordinary code, not in a signal handler.
///
/// Creating it blocks the signals (their default action would end the process without a
/// restore); deinit unblocks them again. The mask is per thread: create it on the thread that
/// runs the loop before any other thread starts, so no thread takes the default action.
public final class SignalReceiver {
    public let descriptor: FileDescriptor
    private var mask = sigset_t()
    private var previousMask = sigset_t()

    public init(_ signals: [Int32]) throws(SystemError) {
        sigemptyset(&mask)
        for s in signals { sigaddset(&mask, s) }
        let result = pthread_sigmask(SIG_BLOCK, &mask, &previousMask)
        if result != 0 { throw SystemError("pthread_sigmask SIG_BLOCK", errno: Errno(rawValue: result)) }
        let fd = signalfd(-1, &mask, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
        if fd < 0 {
            let error = SystemError("signalfd")
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
            throw error
        }
        descriptor = FileDescriptor(rawValue: fd)
    }

    /// The next pending signal's number, nil when none is pending.
    public func next() throws(SystemError) -> Int32? {
        var info = signalfd_siginfo()
        let n = try withUnsafeMutableBytes(of: &info) { (bytes) throws(SystemError) in
            try descriptor.read(into: bytes, "signalfd")
        }
        guard let n, n == MemoryLayout<signalfd_siginfo>.size else { return nil }
        return Int32(bitPattern: info.ssi_signo)
    }

    deinit {
        descriptor.close()
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    }

    /// A signal's name, e.g. "SIGTERM".
    public static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        case SIGUSR1: "SIGUSR1"
        case SIGUSR2: "SIGUSR2"
        default: "signal \(signal)"
        }
    }
}

extension SignalReceiver {
    /// The signals by what they ask of the app, for modules that do not import the C library.
    public static let interrupt = SIGINT, terminate = SIGTERM, hangUp = SIGHUP
    /// The console's release and acquire signals (VT_PROCESS).
    public static let consoleRelease = SIGUSR1, consoleAcquire = SIGUSR2
}
