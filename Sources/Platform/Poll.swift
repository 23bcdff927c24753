#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Waits until one of `descriptors` is readable (or has an error); returns which ones, in order.
///
/// `timeout` nil waits for ever. EINTR is retried (the loop's signals arrive through a signalfd).
public func waitForReadable(_ descriptors: [FileDescriptor], timeout: Duration? = nil) throws(SystemError)
    -> [FileDescriptor]
{
    var fds = descriptors.map { pollfd(fd: $0.rawValue, events: Int16(POLLIN), revents: 0) }
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
