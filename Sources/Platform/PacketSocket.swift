import CKernelShims

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A Unix socket of messages (SOCK_SEQPACKET): each send is one message, kept whole, and a message
/// can carry a file descriptor. Closed when released.
public final class PacketSocket {
    public let descriptor: FileDescriptor

    init(_ fd: Int32) { descriptor = FileDescriptor(rawValue: fd) }

    deinit { descriptor.close() }

    /// A connection to the listening socket at `path`.
    public static func connect(to path: String) throws(SystemError) -> PacketSocket {
        let fd = socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemError("socket") }
        let connection = PacketSocket(fd)
        var address = try unixAddress(path)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                systemConnect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else { throw SystemError("connect \(path)") }
        return connection
    }

    /// Sends one message, with `fd` when given. Without `nonblocking` it waits for room.
    public func send(_ bytes: [UInt8], fd: FileDescriptor? = nil, nonblocking: Bool = false) throws(SystemError) {
        let n = bytes.withUnsafeBytes {
            glance_send_with_fd(descriptor.rawValue, $0.baseAddress, $0.count, fd?.rawValue ?? -1, nonblocking ? 1 : 0)
        }
        guard n == bytes.count else { throw SystemError("send") }
    }

    /// One message of at most `capacity` bytes and the descriptor that came with it (the caller
    /// closes it); nil when a non-blocking read finds none. An empty message with no descriptor:
    /// the peer closed the connection.
    public func receive(capacity: Int = 4096, nonblocking: Bool = false) throws(SystemError)
        -> (bytes: [UInt8], fd: FileDescriptor?)?
    {
        var bytes = [UInt8](repeating: 0, count: capacity)
        var fd: Int32 = -1
        let n = bytes.withUnsafeMutableBytes {
            glance_receive_with_fd(descriptor.rawValue, $0.baseAddress, $0.count, &fd, nonblocking ? 1 : 0)
        }
        if n < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK { return nil }
            throw SystemError("receive")
        }
        return (Array(bytes.prefix(n)), fd >= 0 ? FileDescriptor(rawValue: fd) : nil)
    }

    /// The user of the process at the other end (as it connected); nil when it cannot be told.
    public var peerUser: UInt32? {
        var uid: UInt32 = 0
        return glance_peer_uid(descriptor.rawValue, &uid) == 0 ? uid : nil
    }

    /// Bytes sent on this connection that the other end has not read yet (what it holds of ours,
    /// descriptors included, until it reads or closes); nil when it cannot be told.
    public var unreadBytes: Int? {
        let n = glance_unread_bytes(descriptor.rawValue)
        return n >= 0 ? Int(n) : nil
    }

    /// `path` as a socket address; too long is ENAMETOOLONG.
    public static func unixAddress(_ path: String) throws(SystemError) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw SystemError("socket path \(path)", errno: .nameTooLong) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            raw[bytes.count] = 0
        }
        return address
    }
}

/// A listening Unix socket of messages at a path, for the poll loop: readable when a connection
/// waits to be accepted. The path is removed when it is released.
public final class PacketListener {
    public let path: String
    public let descriptor: FileDescriptor

    /// Listens at `path` with the file's mode `mode` (and group `group`, when given and allowed).
    /// A socket left at the path by a process that has ended is replaced; one that answers is
    /// another program's: `.addressInUse`.
    public init(path: String, mode: mode_t = 0o660, group: gid_t? = nil) throws(SystemError) {
        self.path = path
        let fd = socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw SystemError("socket") }
        // From here on deinit closes the descriptor (and removes the path once it is bound).
        descriptor = FileDescriptor(rawValue: fd)
        var address = try PacketSocket.unixAddress(path)
        // Someone answers there: not ours to take. Nobody does: a leftover, removed.
        var st = stat()
        if lstat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFSOCK else {
                throw SystemError("listen \(path): not a socket", errno: .fileExists)
            }
            if (try? PacketSocket.connect(to: path)) != nil {
                throw SystemError("listen \(path): another program answers there", errno: .addressInUse)
            }
            unlink(path)
        }
        // Made with the mode it keeps: never reachable by others, not even for a moment.
        let oldMask = umask(0o777 & ~mode)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        umask(oldMask)
        guard result == 0 else { throw SystemError("bind \(path)") }
        bound = true
        if let group { _ = chown(path, uid_t.max, group) }
        guard listen(fd, 8) == 0 else { throw SystemError("listen \(path)") }
    }

    /// Whether the path is this listener's (removed at the end).
    private var bound = false

    deinit {
        if bound { unlink(path) }
        descriptor.close()
    }

    /// A connection waiting, non-blocking; nil when there is none.
    public func accept() throws(SystemError) -> PacketSocket? {
        let fd = retryingInterrupts { glance_accept(descriptor.rawValue) }
        if fd < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == ECONNABORTED { return nil }
            throw SystemError("accept \(path)")
        }
        return PacketSocket(fd)
    }
}

/// An anonymous file in memory (memfd), to hand bytes to another process with a descriptor.
public enum MemoryFile {
    /// A new one holding `bytes`, read from its start; the caller closes it.
    public static func make(_ name: String, bytes: UnsafeRawBufferPointer) throws(SystemError) -> FileDescriptor {
        let fd = glance_memfd(name)
        guard fd >= 0 else { throw SystemError("memfd_create") }
        var offset = 0
        while offset < bytes.count {
            let n = retryingInterrupts { write(fd, bytes.baseAddress! + offset, bytes.count - offset) }
            guard n > 0 else {
                let error = SystemError("write \(name)")
                close(fd)
                throw error
            }
            offset += n
        }
        return FileDescriptor(rawValue: fd)
    }

    /// Reads exactly `count` bytes of `fd` from offset 0.
    public static func read(_ fd: FileDescriptor, count: Int) throws(SystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let n = bytes.withUnsafeMutableBytes { buffer in
                retryingInterrupts { pread(fd.rawValue, buffer.baseAddress! + offset, count - offset, off_t(offset)) }
            }
            guard n > 0 else { throw SystemError("read the picture", errno: n == 0 ? .ioError : Errno.current) }
            offset += n
        }
        return bytes
    }
}

/// connect(2) by its C name, for Glibc and Musl alike.
private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}
