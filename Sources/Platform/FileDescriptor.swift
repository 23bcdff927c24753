import CKernelShims

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An open file descriptor. A plain handle: its owner closes it (see the owning types).
public struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// open(2) flags.
    public struct OpenOptions: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        public static let readOnly = OpenOptions([])
        public static let readWrite = OpenOptions(rawValue: O_RDWR)
        public static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
        public static let closeOnExec = OpenOptions(rawValue: O_CLOEXEC)
        public static let noControllingTerminal = OpenOptions(rawValue: O_NOCTTY)
    }

    /// open(2); always close-on-exec.
    public static func open(_ path: String, _ options: OpenOptions) throws(SystemError) -> FileDescriptor {
        let flags = options.union(.closeOnExec).rawValue
        let fd = try systemCall("open \(path)") { systemOpen(path, flags) }
        return FileDescriptor(rawValue: fd)
    }

    /// close(2), once: on Linux the descriptor is gone even when close reports EINTR.
    public func close() { _ = systemClose(rawValue) }

    /// read(2) into `buffer`; nil when a non-blocking descriptor has nothing to read.
    public func read(into buffer: UnsafeMutableRawBufferPointer, _ what: @autoclosure () -> String) throws(SystemError)
        -> Int?
    {
        let n = retryingInterrupts { systemRead(rawValue, buffer.baseAddress, buffer.count) }
        if n >= 0 { return n }
        if errno == EAGAIN { return nil }
        throw SystemError("read \(what())")
    }

    /// ioctl(2) with a pointer argument, EINTR retried; throws naming `call`.
    @discardableResult
    public func control(
        _ request: UInt, _ argument: UnsafeMutableRawPointer?, _ call: @autoclosure () -> String
    ) throws(SystemError) -> Int32 {
        try systemCall(call()) { glance_ioctl(rawValue, request, argument) }
    }

    /// ioctl(2) with an integer argument, EINTR retried; throws naming `call`.
    @discardableResult
    public func control(_ request: UInt, value: UInt, _ call: @autoclosure () -> String) throws(SystemError) -> Int32 {
        try systemCall(call()) { glance_ioctl_int(rawValue, request, value) }
    }
}

// open(2), close(2) and read(2) by their C names, for Glibc and Musl alike: inside
// FileDescriptor the plain names mean its own methods.
private func systemOpen(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
