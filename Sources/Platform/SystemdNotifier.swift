#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Tells systemd how a `Type=notify` service is doing (`READY=1`, `WATCHDOG=1`, `STATUS=…`,
/// `STOPPING=1`), speaking sd_notify's protocol without libsystemd: one datagram per message to
/// the AF_UNIX socket named by `$NOTIFY_SOCKET` (a path, or an abstract name written with a
/// leading '@').
///
/// nil outside systemd (no `$NOTIFY_SOCKET`), so callers simply skip it.
public struct SystemdNotifier: Sendable, Equatable {
    /// The socket as given in `$NOTIFY_SOCKET`: "/run/systemd/notify" or "@name".
    public let socket: String
    /// How often systemd wants `WATCHDOG=1` at the latest (`$WATCHDOG_USEC`); nil when the unit
    /// has no watchdog or it is meant for another process (`$WATCHDOG_PID`).
    public let watchdogTimeout: Duration?

    /// From an environment (the process's own by default); nil without a usable `$NOTIFY_SOCKET`.
    public init?(environment: [String: String]? = nil, processID: Int32 = getpid()) {
        let value = { (name: String) -> String? in
            if let environment { return environment[name] }
            return environmentVariable(name)
        }
        guard let socket = value("NOTIFY_SOCKET"), socket.hasPrefix("/") || (socket.hasPrefix("@") && socket.count > 1)
        else { return nil }
        // sockaddr_un's sun_path holds 108 bytes, with the path's terminating NUL.
        guard socket.utf8.count < 108 else { return nil }
        self.socket = socket
        var timeout: Duration? = nil
        if let text = value("WATCHDOG_USEC"), let usec = Int64(text), usec > 0 {
            let pid = value("WATCHDOG_PID").flatMap { Int32($0) }
            if pid == nil || pid == processID { timeout = .microseconds(usec) }
        }
        watchdogTimeout = timeout
    }

    /// How often to send `WATCHDOG=1`: half the timeout, as sd_watchdog_enabled(3) advises.
    public var watchdogInterval: Duration? { watchdogTimeout.map { $0 / 2 } }

    /// Sends one message ("READY=1", or several "KEY=value" lines).
    public func notify(_ message: String) throws(SystemError) {
        let fd = try systemCall("socket AF_UNIX for NOTIFY_SOCKET") {
            datagramSocket()
        }
        defer { _ = close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socket.utf8)
        // An abstract name starts with a NUL byte instead of '@' and has no terminating NUL.
        let abstract = path.first == UInt8(ascii: "@")
        if abstract { path[0] = 0 }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        let length = pathOffset + path.count + (abstract ? 0 : 1)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            bytes.copyBytes(from: path)
        }
        let bytes = Array(message.utf8)
        let sent = try systemCall("send \(message.split(separator: "\n").first ?? "") to NOTIFY_SOCKET \(socket)") {
            withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    bytes.withUnsafeBytes {
                        sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), address, socklen_t(length))
                    }
                }
            }
        }
        if sent != bytes.count {
            throw SystemError(
                "send to NOTIFY_SOCKET \(socket): \(sent) of \(bytes.count) bytes", errno: Errno(rawValue: EMSGSIZE))
        }
    }

    /// `READY=1`: start-up is finished (for glance: the first frame is on screen).
    public func ready(status: String? = nil) throws(SystemError) {
        try notify("READY=1" + (status.map { "\nSTATUS=\($0)" } ?? ""))
    }

    /// `WATCHDOG=1`: the service is alive; systemd restarts it when these stop coming.
    public func watchdog() throws(SystemError) { try notify("WATCHDOG=1") }

    /// `STOPPING=1`: the service is shutting down on purpose.
    public func stopping(status: String? = nil) throws(SystemError) {
        try notify("STOPPING=1" + (status.map { "\nSTATUS=\($0)" } ?? ""))
    }
}

/// socket(2) for an AF_UNIX datagram, close-on-exec: by its C name, which inside
/// SystemdNotifier means the `socket` property. Glibc imports the SOCK_ flags as an enum, Musl
/// as plain integers.
private func datagramSocket() -> Int32 {
    #if canImport(Glibc)
        socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #else
        socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)
    #endif
}
