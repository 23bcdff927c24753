#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An errno value.
public struct Errno: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's errno now.
    public static var current: Errno { Errno(rawValue: errno) }

    public static let interrupted = Errno(rawValue: EINTR)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let notPermitted = Errno(rawValue: EPERM)
    public static let noSuchFile = Errno(rawValue: ENOENT)
    public static let noSuchDevice = Errno(rawValue: ENODEV)
    public static let busy = Errno(rawValue: EBUSY)
    public static let invalidArgument = Errno(rawValue: EINVAL)
    public static let notImplemented = Errno(rawValue: ENOSYS)
    public static let notSupported = Errno(rawValue: EOPNOTSUPP)
    public static let notTTY = Errno(rawValue: ENOTTY)
    public static let nameTooLong = Errno(rawValue: ENAMETOOLONG)
    public static let fileExists = Errno(rawValue: EEXIST)
    public static let addressInUse = Errno(rawValue: EADDRINUSE)
    public static let connectionRefused = Errno(rawValue: ECONNREFUSED)
    public static let ioError = Errno(rawValue: EIO)

    /// strerror's text, e.g. "Permission denied".
    public var description: String { String(cString: strerror(rawValue)) }
}

/// A system call that failed: names the call (and what it was for), the errno, and a hint.
///
/// Printed as one line: "DRM CREATE_DUMB 480x480: Permission denied (add the user to group video)".
public struct SystemError: Error, CustomStringConvertible, Sendable {
    /// The call and its subject, e.g. "open /dev/dri/card0".
    public var call: String
    public var errno: Errno
    /// What to do about it, if there is something to say.
    public var hint: String?

    public init(_ call: String, errno: Errno = .current, hint: String? = nil) {
        self.call = call
        self.errno = errno
        self.hint = hint
    }

    public var description: String {
        "\(call): \(errno)" + (hint.map { " (\($0))" } ?? "")
    }
}

/// How a call reports that it failed: -1 with errno set (the system's calls), or minus the errno
/// (libevdev's).
public enum FailureReport: Sendable {
    case minusOneAndErrno
    case negativeErrno
}

/// Runs a call again while it fails with EINTR (as `report` says it fails).
///
/// The one place interrupted calls are retried, for every module (close(2) is never retried:
/// see FileDescriptor; the C shims' socket calls retry in C, Sockets.c).
@inline(__always)
public func retryingInterrupts<Result: BinaryInteger>(
    _ report: FailureReport = .minusOneAndErrno, _ body: () -> Result
) -> Result {
    while true {
        let result = body()
        switch report {
        case .minusOneAndErrno: if result == -1 && errno == EINTR { continue }
        case .negativeErrno: if result < 0 && Int64(truncatingIfNeeded: result) == -Int64(EINTR) { continue }
        }
        return result
    }
}

/// Runs `body` (retrying EINTR); throws a SystemError naming `call` when it returns -1.
@inline(__always) @discardableResult
public func systemCall<Result: BinaryInteger>(
    _ call: @autoclosure () -> String, _ body: () -> Result
) throws(SystemError) -> Result {
    let result = retryingInterrupts(.minusOneAndErrno, body)
    if result == -1 { throw SystemError(call()) }
    return result
}
