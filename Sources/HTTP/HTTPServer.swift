internal import CHTTPD
internal import CMicroHTTPD
import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An HTTP (or HTTPS) server on libmicrohttpd, driven by the caller's poll loop: wait for
/// `descriptor` (or until `nextTimeout()`), then `run()`. No thread of its own.
///
/// A request is decided in two steps: `head` sees the method, target, headers and address before
/// any body is read, and may answer at once (a wrong token, too many requests, a body over the
/// limit: the body is then never read); otherwise the body is collected, up to `maxBody` bytes,
/// and `complete` answers. Handlers run on the caller's thread, inside `run()`.
///
/// What a client can hold is bounded: a request must be whole within `requestSeconds` (an idle
/// timeout alone lets a client that sends a byte now and then keep its connection for ever); the
/// bodies being received take at most `bodiesInFlight` bytes together (more: 503 with Retry-After);
/// and past an address's share, or when all connections near their limit, the oldest connection
/// (of that address, or of the address holding the most) is closed to make room: slow clients
/// cannot shut out others, not even others behind the same address. A good client's request
/// takes milliseconds, so the oldest connection is a slow one's.
public final class HTTPServer {
    public struct Request: Sendable {
        public let method: String
        /// The path as sent, its bytes outside printable ASCII as `%XX` (nothing decoded: the
        /// caller decodes it once).
        public let path: String
        /// The query's arguments as sent (not decoded; bytes outside printable ASCII as `%XX`), in order.
        public let query: [(String, String)]
        /// The client's address ("192.168.1.20", "::1").
        public let address: String
        /// The Authorization header's value, if any.
        public let authorization: String?
        /// The declared Content-Length, if any.
        public let contentLength: Int?
        /// The headers a page needs (`Request.pageHeaders`: Cookie, Origin, Host, …), each as sent
        /// but escaped as the path is; the others are not kept.
        public var headers: [(name: String, value: String)] = []

        /// The value of the kept header `name` (as `pageHeaders` spells it).
        public func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }

        /// The headers kept for `header(_:)`: what the web page's sessions, CSRF checks, live view
        /// and language need.
        public static let pageHeaders = [
            "Cookie", "Origin", "Host", "If-None-Match", "Accept-Language", "Content-Type", "Sec-Fetch-Site", "Referer",
        ]
    }

    public struct Response: Sendable {
        public var status: Int
        public var body: String
        public var contentType: String
        public var headers: [(String, String)]
        /// Bytes to send instead of `body` (a PNG).
        public var bytes: [UInt8]?
        /// The Cache-Control header (every answer has one).
        public var cacheControl = "no-store"

        public init(status: Int, body: String, contentType: String = "application/json", headers: [(String, String)] = []) {
            self.status = status
            self.body = body
            self.contentType = contentType
            self.headers = headers
        }

        public init(status: Int, bytes: [UInt8], contentType: String, headers: [(String, String)] = []) {
            self.init(status: status, body: "", contentType: contentType, headers: headers)
            self.bytes = bytes
        }
    }

    public struct Limits: Sendable {
        /// The largest body read; a larger one is answered with `tooLarge` (413).
        public var maxBody: Int
        /// Seconds a connection may stay idle (a slow client is cut off).
        public var timeoutSeconds: Int = 10
        /// Seconds a request may take from the connection's start (or the end of the request
        /// before it on the connection) to its answer, however busy the client keeps it.
        public var requestSeconds: Int = 30
        /// Connections at once, in all and from one address (past them, the oldest goes).
        public var connections: Int = 512
        public var connectionsPerAddress: Int = 256
        /// Bytes of bodies held at once, over every connection (default: twice `maxBody`).
        public var bodiesInFlight: Int

        public init(maxBody: Int) {
            self.maxBody = maxBody
            bodiesInFlight = 2 * maxBody
        }

        /// Connections kept free for new clients: past `connections` minus these, the oldest
        /// waiting connection of the address with the most is closed.
        var headroom: Int { max(1, min(connectionsPerAddress, connections / 8)) }
    }

    /// Where to listen: an IPv4 or IPv6 address and a port (0: any free port).
    public struct Address: Sendable, Equatable, CustomStringConvertible {
        public let host: String
        public let port: Int

        /// `HOST:PORT` or `[V6]:PORT`; nil when malformed.
        public init?(_ text: String) {
            guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
                (0...65535).contains(port)
            else { return nil }
            var host = String(text[..<colon])
            if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty else { return nil }
            self.host = host
            self.port = port
        }

        public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    public typealias Head = (Request) -> Response?
    public typealias Complete = (Request, [UInt8]) -> Response

    private var daemon: OpaquePointer?
    public private(set) var descriptor: FileDescriptor
    /// The port listened on (the one chosen when 0 was asked).
    public private(set) var port: Int
    let limits: Limits
    let head: Head
    let complete: Complete
    let log: (String) -> Void
    /// libmicrohttpd's messages while starting: said only when it started (a failure to start is
    /// said once, by the error thrown, with the address).
    private var startMessages: [String]? = []

    /// The connections open now.
    private var connections: [ObjectIdentifier: Connection] = [:]
    /// Bytes of bodies held (or promised by a Content-Length being received) now.
    public private(set) var bodyBytes = 0
    /// Connections closed by the server: past their request deadline, or to make room.
    public private(set) var closedSlow = 0
    public private(set) var closedForRoom = 0

    /// Why `address` cannot be listened on, found by binding it as libmicrohttpd does
    /// (SO_REUSEADDR): the errno a failed start leaves is not always its bind's (under qemu-user it
    /// is a later call's EBADF). Nil when the bind succeeds now.
    static func bindError(_ address: inout sockaddr_storage) -> Int32? {
        let family = Int32(address.ss_family)
        let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let length = socklen_t(family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        return bound == 0 ? nil : errno
    }

    /// Starts listening. TLS when `tls` gives a PEM key and certificate (their text). `log` gets
    /// libmicrohttpd's own messages (a client's broken TLS, say); the caller bounds and escapes them.
    public init(
        listen: Address, tls: (key: String, certificate: String)? = nil, limits: Limits, head: @escaping Head,
        complete: @escaping Complete, log: @escaping (String) -> Void = { _ in }
    ) throws(SystemError) {
        self.limits = limits
        self.head = head
        self.complete = complete
        self.log = log
        var storage = sockaddr_storage()
        if listen.host.contains(":") {
            try withUnsafeMutableBytes(of: &storage) { (raw) throws(SystemError) in
                let a = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
                a.pointee.sin6_family = sa_family_t(AF_INET6)
                a.pointee.sin6_port = in_port_t(UInt16(listen.port).bigEndian)
                guard inet_pton(AF_INET6, listen.host, &a.pointee.sin6_addr) == 1 else {
                    throw SystemError("listen address \(listen.host)", errno: Errno(rawValue: EINVAL))
                }
            }
        } else {
            try withUnsafeMutableBytes(of: &storage) { (raw) throws(SystemError) in
                let a = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
                a.pointee.sin_family = sa_family_t(AF_INET)
                a.pointee.sin_port = in_port_t(UInt16(listen.port).bigEndian)
                guard inet_pton(AF_INET, listen.host, &a.pointee.sin_addr) == 1 else {
                    throw SystemError("listen address \(listen.host)", errno: Errno(rawValue: EINVAL))
                }
            }
        }
        // The handlers reach the server through this pointer; the daemon stops in deinit.
        descriptor = FileDescriptor(rawValue: -1)
        port = 0
        let context = Unmanaged.passUnretained(self).toOpaque()
        errno = 0
        let started = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                (tls?.key ?? "").withCString { key in
                    (tls?.certificate ?? "").withCString { certificate in
                        var settings = glance_httpd_settings(
                            address: address, timeout_seconds: UInt32(limits.timeoutSeconds),
                            // The share per address is this server's to keep (the oldest goes, not the new one).
                            connection_limit: UInt32(limits.connections), per_ip_limit: UInt32(limits.connections),
                            key_pem: tls == nil ? nil : key, cert_pem: tls == nil ? nil : certificate,
                            handler: accessHandler, handler_context: context, completed: completedHandler,
                            completed_context: context, notify: connectionHandler, notify_context: context,
                            log: logHandler, log_context: context)
                        return glance_httpd_start(&settings)
                    }
                }
            }
        }
        let held = startMessages ?? []
        startMessages = nil
        guard let started else {
            let left = errno
            let code = Self.bindError(&storage) ?? (left == 0 ? EADDRINUSE : left)
            throw SystemError("listening on \(listen)", errno: Errno(rawValue: code))
        }
        for message in held { log(message) }
        daemon = started
        descriptor = FileDescriptor(rawValue: glance_httpd_epoll_fd(started))
        port = Int(glance_httpd_port(started))
    }

    deinit { stop() }

    /// Stops listening and closes every connection.
    public func stop() {
        guard let daemon else { return }
        MHD_stop_daemon(daemon)
        self.daemon = nil
    }

    /// When `run()` must be called even without activity (a connection's timeout or its request
    /// deadline), if ever.
    public func nextTimeout(now: Duration) -> Duration? {
        guard let daemon else { return nil }
        var ms: UInt64 = 0
        var next = MHD_get_timeout(daemon, &ms) == .YES ? now + .milliseconds(Int64(min(ms, 3_600_000))) : nil
        if let deadline = connections.values.lazy.compactMap(\.deadline).min() {
            next = min(next ?? deadline, deadline)
        }
        return next
    }

    /// Accepts, reads and answers what is ready (never blocks); closes the connections whose
    /// request is past its deadline.
    public func run() {
        guard let daemon else { return }
        _ = MHD_run(daemon)
        let now = monotonicNow()
        var closed = false
        for connection in connections.values where connection.deadline.map({ $0 <= now }) == true {
            connection.close()
            closedSlow += 1
            closed = true
        }
        // libmicrohttpd sees the closed sockets at once.
        if closed { _ = MHD_run(daemon) }
    }

    /// Connections open now.
    public var openConnections: Int { connections.count }

    /// A connection as the server follows it: when its current request began, from where.
    final class Connection {
        let fd: Int32
        let address: String
        /// When the current request began: the connection's start or the end of the one before.
        var since: Duration
        let requestSeconds: Int
        var closed = false

        init(fd: Int32, address: String, since: Duration, requestSeconds: Int) {
            self.fd = fd
            self.address = address
            self.since = since
            self.requestSeconds = requestSeconds
        }

        var deadline: Duration? { closed ? nil : since + .seconds(requestSeconds) }

        /// Ends the connection: libmicrohttpd finds the socket shut and closes it.
        func close() {
            guard !closed, fd >= 0 else { return }
            closed = true
            shutdown(fd, Int32(SHUT_RDWR))
        }
    }

    func connectionStarted(_ connection: OpaquePointer, _ context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        let state = Connection(
            fd: glance_httpd_connection_fd(connection), address: Self.address(of: connection), since: monotonicNow(),
            requestSeconds: limits.requestSeconds)
        context.pointee = Unmanaged.passRetained(state).toOpaque()
        connections[ObjectIdentifier(state)] = state
        makeRoom(for: state)
    }

    func connectionClosed(_ context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        guard let stored = context.pointee else { return }
        let state = Unmanaged<Connection>.fromOpaque(stored).takeRetainedValue()
        connections[ObjectIdentifier(state)] = nil
        context.pointee = nil
    }

    /// Past its address's share, that address's oldest connection goes; near the limit in all,
    /// the oldest of the address holding the most (a good client's request takes milliseconds; a
    /// slow one's has waited longest).
    private func makeRoom(for new: Connection) {
        let open = connections.values.filter { !$0.closed }
        let same = open.filter { $0.address == new.address }
        if same.count > limits.connectionsPerAddress, let oldest = same.min(by: { $0.since < $1.since }), oldest !== new {
            oldest.close()
            closedForRoom += 1
        }
        guard open.count > limits.connections - limits.headroom else { return }
        var perAddress: [String: Int] = [:]
        for c in open where !c.closed { perAddress[c.address, default: 0] += 1 }
        guard let crowded = perAddress.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) })?.key,
            let oldest = open.filter({ $0.address == crowded && !$0.closed }).min(by: { $0.since < $1.since }), oldest !== new
        else { return }
        oldest.close()
        closedForRoom += 1
    }

    static func address(of connection: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        guard glance_httpd_client_address(connection, &buffer, buffer.count) == 0 else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func message(_ text: String) {
        if startMessages != nil { startMessages?.append(text) } else { log(text) }
    }

    /// What is kept of a request between the calls libmicrohttpd makes for it.
    final class Pending {
        let request: Request
        var body: [UInt8] = []
        var answered = false
        var tooLarge = false
        /// Refused for the bodies already held (503): the rest of it is read and dropped.
        var crowded = false
        /// Bytes counted in the server's `bodyBytes` for this request.
        var reserved = 0
        init(_ request: Request) { self.request = request }
    }

    func header(_ connection: OpaquePointer, _ name: String) -> String? {
        MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
    }

    /// One call of libmicrohttpd's access handler.
    func access(
        _ connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>,
        upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>, state: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let stored = state.pointee else {
            // The first call: headers only. An answer now means the body is never read.
            var query = QueryCollector()
            withUnsafeMutablePointer(to: &query) { pointer in
                _ = MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, queryIterator, pointer)
            }
            var request = Request(
                method: Self.escaped(method), path: Self.escaped(url), query: query.pairs,
                address: Self.address(of: connection), authorization: header(connection, "Authorization"),
                contentLength: header(connection, "Content-Length").flatMap { Int($0) })
            for name in Request.pageHeaders {
                if let value = MHD_lookup_connection_value(connection, .HEADER_KIND, name) {
                    request.headers.append((name, Self.escaped(value, spaces: true)))
                }
            }
            let pending = Pending(request)
            state.pointee = Unmanaged.passRetained(pending).toOpaque()
            if let response = head(request) {
                pending.answered = true
                return queue(response, on: connection)
            }
            // A declared body is counted against the bodies held from the start, and its buffer
            // made once; one that would exceed them waits for a retry.
            if let length = request.contentLength, length > 0 {
                guard bodyBytes + length <= limits.bodiesInFlight else {
                    pending.crowded = true
                    return .YES
                }
                reserve(pending, length)
                pending.body.reserveCapacity(length)
            }
            return .YES
        }
        let pending = Unmanaged<Pending>.fromOpaque(stored).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            // Body bytes: kept up to the limit, the rest read and dropped.
            let count = uploadSize.pointee
            if !pending.answered && !pending.tooLarge && !pending.crowded, let upload {
                if pending.body.count + count > limits.maxBody {
                    pending.tooLarge = true
                    pending.body = []
                    reserve(pending, 0)
                } else if pending.body.count + count > pending.reserved
                    && bodyBytes - pending.reserved + pending.body.count + count > limits.bodiesInFlight
                {
                    pending.crowded = true
                    pending.body = []
                    reserve(pending, 0)
                } else {
                    upload.withMemoryRebound(to: UInt8.self, capacity: count) {
                        pending.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
                    }
                    if pending.body.count > pending.reserved { reserve(pending, pending.body.count) }
                }
            }
            uploadSize.pointee = 0
            return .YES
        }
        guard !pending.answered else { return .YES }
        pending.answered = true
        if pending.tooLarge {
            return queue(
                Response(status: 413, body: "{\"error\":\"the body is larger than \(limits.maxBody) bytes\"}\n"),
                on: connection)
        }
        if pending.crowded {
            return queue(
                Response(
                    status: 503, body: "{\"error\":\"the server is taking in other large requests; retry\"}\n",
                    headers: [("Retry-After", "1")]),
                on: connection)
        }
        let body = pending.body
        pending.body = []
        reserve(pending, 0)
        return queue(complete(pending.request, body), on: connection)
    }

    /// Counts `bytes` as held for `pending` (instead of what was counted before).
    private func reserve(_ pending: Pending, _ bytes: Int) {
        bodyBytes += bytes - pending.reserved
        pending.reserved = bytes
    }

    /// Bytes a client sent as the server keeps them: printable ASCII as it is, every other byte as
    /// `%XX` (so no text the handlers see holds a control character, and nothing is lost).
    static func escaped(_ text: UnsafePointer<CChar>, spaces: Bool = false) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        var p = text
        // A header's value is at most 4 KiB here (libmicrohttpd's own limit on a request's head is 32 KiB).
        while p.pointee != 0 && (!spaces || out.count < 4096) {
            let b = UInt8(bitPattern: p.pointee)
            if (0x21...0x7E).contains(b) || (spaces && b == 0x20) {
                out.append(b)
            } else {
                out += [37, hex[Int(b >> 4)], hex[Int(b & 15)]]
            }
            p += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    func queue(_ response: Response, on connection: OpaquePointer) -> MHD_Result {
        var body = response.bytes ?? Array(response.body.utf8)
        let made = body.withUnsafeMutableBytes {
            MHD_create_response_from_buffer($0.count, $0.baseAddress, .RESPMEM_MUST_COPY)
        }
        guard let made else { return .NO }
        defer { MHD_destroy_response(made) }
        _ = MHD_add_response_header(made, "Content-Type", response.contentType)
        _ = MHD_add_response_header(made, "Cache-Control", response.cacheControl)
        for (name, value) in response.headers { _ = MHD_add_response_header(made, name, value) }
        return MHD_queue_response(connection, UInt32(response.status), made)
    }

    func completed(_ connection: OpaquePointer?, _ state: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) {
        guard let state, let stored = state.pointee else { return }
        let pending = Unmanaged<Pending>.fromOpaque(stored).takeRetainedValue()
        reserve(pending, 0)
        state.pointee = nil
        // The next request on this connection has its own deadline.
        if let connection, let socket = glance_httpd_socket_context(connection) {
            Unmanaged<Connection>.fromOpaque(socket).takeUnretainedValue().since = monotonicNow()
        }
    }
}

private let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, upload, uploadSize, state in
    guard let context, let connection, let url, let method, let uploadSize, let state else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    return server.access(connection, url: url, method: method, upload: upload, uploadSize: uploadSize, state: state)
}

/// The query's arguments, as libmicrohttpd hands them over one by one.
struct QueryCollector {
    var pairs: [(String, String)] = []
}

private let queryIterator: MHD_KeyValueIterator = { context, _, key, value in
    guard let context, let key else { return .YES }
    let collector = context.assumingMemoryBound(to: QueryCollector.self)
    guard collector.pointee.pairs.count < 32 else { return .NO }
    collector.pointee.pairs.append((HTTPServer.escaped(key), value.map { HTTPServer.escaped($0) } ?? ""))
    return .YES
}

private let completedHandler: MHD_RequestCompletedCallback = { context, connection, state, _ in
    guard let context else { return }
    Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().completed(connection, state)
}

private let connectionHandler: MHD_NotifyConnectionCallback = { context, connection, socket, code in
    guard let context, let connection, let socket else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    if code == .CONNECTION_NOTIFY_STARTED { server.connectionStarted(connection, socket) } else { server.connectionClosed(socket) }
}

private let logHandler: glance_httpd_log_fn = { context, message in
    guard let context, let message else { return }
    Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().message(String(cString: message))
}

/// The server as one of the loop's sources: its (epoll) descriptor read, `run()` when it is
/// ready or its timeout comes.
extension HTTPServer: EventSource {
    public var interests: [Interest] { daemon == nil ? [] : [Interest(descriptor)] }
    public func nextDeadline(now: Duration) -> Duration? { nextTimeout(now: now) }
    public func handle(ready: [FileDescriptor], now: Duration) -> Bool {
        run()
        return false
    }
}
