internal import CHTTPD
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
public final class HTTPServer {
    public struct Request: Sendable {
        public let method: String
        /// The path (`/v1/days`).
        public let path: String
        /// The query's arguments, decoded, in order (`from=2026-11-01`).
        public let query: [(String, String)]
        /// The path and query, for a log line.
        public var target: String {
            query.isEmpty ? path : path + "?" + query.map { "\($0)=\($1)" }.joined(separator: "&")
        }
        /// The client's address ("192.168.1.20", "::1").
        public let address: String
        /// The Authorization header's value, if any.
        public let authorization: String?
        /// The declared Content-Length, if any.
        public let contentLength: Int?
    }

    public struct Response: Sendable {
        public var status: Int
        public var body: String
        public var contentType: String
        public var headers: [(String, String)]

        public init(status: Int, body: String, contentType: String = "application/json", headers: [(String, String)] = []) {
            self.status = status
            self.body = body
            self.contentType = contentType
            self.headers = headers
        }
    }

    public struct Limits: Sendable {
        /// The largest body read; a larger one is answered with `tooLarge` (413).
        public var maxBody: Int
        /// Seconds a connection may stay idle (a slow client is cut off).
        public var timeoutSeconds: Int = 10
        /// Connections at once, in all and from one address (more are closed at once).
        public var connections: Int = 512
        public var connectionsPerAddress: Int = 256

        public init(maxBody: Int) { self.maxBody = maxBody }
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

    /// Starts listening. TLS when `tls` gives a PEM key and certificate (their text).
    public init(
        listen: Address, tls: (key: String, certificate: String)? = nil, limits: Limits, head: @escaping Head,
        complete: @escaping Complete
    ) throws(SystemError) {
        self.limits = limits
        self.head = head
        self.complete = complete
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
                glance_httpd_start(
                    address, UInt32(limits.timeoutSeconds), UInt32(limits.connections),
                    UInt32(limits.connectionsPerAddress), tls?.key, tls?.certificate, accessHandler, context,
                    completedHandler, context)
            }
        }
        guard let started else {
            let code = errno == 0 ? EADDRINUSE : errno
            throw SystemError("listening on \(listen)", errno: Errno(rawValue: code))
        }
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

    /// When `run()` must be called even without activity (a connection's timeout), if ever.
    public func nextTimeout(now: Duration) -> Duration? {
        guard let daemon else { return nil }
        var ms: UInt64 = 0
        guard MHD_get_timeout(daemon, &ms) == .YES else { return nil }
        return now + .milliseconds(Int64(min(ms, 3_600_000)))
    }

    /// Accepts, reads and answers what is ready (never blocks).
    public func run() {
        guard let daemon else { return }
        _ = MHD_run(daemon)
    }

    /// What is kept of a request between the calls libmicrohttpd makes for it.
    final class Pending {
        let request: Request
        var body: [UInt8] = []
        var answered = false
        var tooLarge = false
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
            var buffer = [CChar](repeating: 0, count: 64)
            let address = glance_httpd_client_address(connection, &buffer, buffer.count) == 0
                ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
            var query = QueryCollector()
            withUnsafeMutablePointer(to: &query) { pointer in
                _ = MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, queryIterator, pointer)
            }
            let request = Request(
                method: String(cString: method), path: String(cString: url), query: query.pairs, address: address,
                authorization: header(connection, "Authorization"),
                contentLength: header(connection, "Content-Length").flatMap { Int($0) })
            let pending = Pending(request)
            state.pointee = Unmanaged.passRetained(pending).toOpaque()
            if let response = head(request) {
                pending.answered = true
                return queue(response, on: connection)
            }
            return .YES
        }
        let pending = Unmanaged<Pending>.fromOpaque(stored).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            // Body bytes: kept up to the limit, the rest read and dropped.
            if !pending.answered && !pending.tooLarge, let upload {
                if pending.body.count + uploadSize.pointee > limits.maxBody {
                    pending.tooLarge = true
                    pending.body = []
                } else {
                    upload.withMemoryRebound(to: UInt8.self, capacity: uploadSize.pointee) {
                        pending.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: uploadSize.pointee))
                    }
                }
            }
            uploadSize.pointee = 0
            return .YES
        }
        guard !pending.answered else { return .YES }
        pending.answered = true
        if pending.tooLarge {
            return queue(
                Response(status: 413, body: "{\"error\":\"the body is larger than \(limits.maxBody) bytes\"}"),
                on: connection)
        }
        return queue(complete(pending.request, pending.body), on: connection)
    }

    func queue(_ response: Response, on connection: OpaquePointer) -> MHD_Result {
        var body = Array(response.body.utf8)
        let made = body.withUnsafeMutableBytes {
            MHD_create_response_from_buffer($0.count, $0.baseAddress, .RESPMEM_MUST_COPY)
        }
        guard let made else { return .NO }
        defer { MHD_destroy_response(made) }
        _ = MHD_add_response_header(made, "Content-Type", response.contentType)
        _ = MHD_add_response_header(made, "Cache-Control", "no-store")
        for (name, value) in response.headers { _ = MHD_add_response_header(made, name, value) }
        return MHD_queue_response(connection, UInt32(response.status), made)
    }

    func completed(_ state: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) {
        guard let state, let stored = state.pointee else { return }
        Unmanaged<Pending>.fromOpaque(stored).release()
        state.pointee = nil
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
    collector.pointee.pairs.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
    return .YES
}

private let completedHandler: MHD_RequestCompletedCallback = { context, _, state, _ in
    guard let context else { return }
    Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().completed(state)
}
