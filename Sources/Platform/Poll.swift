#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What a poll waits for on one descriptor: that it becomes readable, writable, or either.
public struct Interest: Equatable, Sendable {
    public var descriptor: FileDescriptor
    public var read: Bool
    public var write: Bool

    public init(_ descriptor: FileDescriptor, read: Bool = true, write: Bool = false) {
        self.descriptor = descriptor
        self.read = read
        self.write = write
    }

    var events: Int16 { Int16((read ? POLLIN : 0) | (write ? POLLOUT : 0)) }
}

/// Waits until one of `interests` is ready as asked (readable, writable; or has an error or hung
/// up); returns those descriptors, in order.
///
/// `timeout` nil waits for ever. EINTR is retried (the loop's signals arrive through a signalfd).
public func waitForReady(_ interests: [Interest], timeout: Duration? = nil) throws(SystemError) -> [FileDescriptor] {
    var fds = interests.map { pollfd(fd: $0.descriptor.rawValue, events: $0.events, revents: 0) }
    var milliseconds: Int32 = -1
    if let timeout {
        let (s, a) = timeout.components
        milliseconds = Int32(clamping: max(0, s * 1000 + a / 1_000_000_000_000_000))
    }
    let count = fds.count
    _ = try systemCall("poll") {
        fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t(count), milliseconds) }
    }
    return fds.filter { $0.revents != 0 }.map { FileDescriptor(rawValue: $0.fd) }
}

/// Waits until one of `descriptors` is readable (or has an error); returns which ones, in order.
public func waitForReadable(_ descriptors: [FileDescriptor], timeout: Duration? = nil) throws(SystemError)
    -> [FileDescriptor]
{
    try waitForReady(descriptors.map { Interest($0) }, timeout: timeout)
}
