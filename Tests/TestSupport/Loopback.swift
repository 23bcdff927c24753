import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Plain blocking HTTP/1.1 over a TCP connection to 127.0.0.1, for the tests: chromedriver's
/// WebDriver (`Browser`) and the servers tests start. One request a connection
/// (`Connection: close`), every step within the caller's time limit (and given up when the test's
/// task is cancelled), no redirects followed, no TLS. (URLSession would bring FoundationNetworking
/// and libcurl into every test binary that links TestSupport, for requests this simple.)
public enum Loopback {
    /// What a server answered.
    public struct Response: Sendable {
        public var status: Int
        /// The header fields, names in lower case (a repeated field's values joined by ", ",
        /// but for set-cookie: its lines in `setCookies`).
        public var headers: [String: String]
        public var setCookies: [String]
        public var body: Data
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Why a request failed (the server's own error statuses are responses, not these).
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// Sends `method path` to 127.0.0.1:`port` with `body` (and its `contentType`) and reads the
    /// whole answer, within `seconds`.
    public static func request(
        port: Int, _ method: String, _ path: String, body: Data? = nil, contentType: String = "application/json",
        headers: [String: String] = [:], seconds: Double = 30
    ) throws -> Response {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        let what = "\(method) http://127.0.0.1:\(port)\(path)"
        let fd = try connect(port: port, deadline: deadline, what: what)
        defer { close(fd) }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\nAccept: */*\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        if let body {
            head += "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
        } else if ["POST", "PUT"].contains(method) {
            head += "Content-Length: 0\r\n"
        }
        head += "\r\n"
        var out = Data(head.utf8)
        if let body { out.append(body) }
        try send(fd, out, deadline: deadline, what: what)
        return try receive(fd, deadline: deadline, what: what)
    }

    /// GET `path`.
    public static func get(port: Int, _ path: String, seconds: Double = 30) throws -> Response {
        try request(port: port, "GET", path, seconds: seconds)
    }

    /// Whether something accepts connections on 127.0.0.1:`port` within `seconds` (tried every
    /// 50 ms; false at once when the test's task is cancelled).
    public static func waitForListener(port: Int, seconds: Double) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline && !Task.isCancelled {
            let attempt = ContinuousClock.now + .milliseconds(500)
            if let fd = try? connect(port: port, deadline: min(attempt, deadline), what: "") {
                close(fd)
                return true
            }
            usleep(50_000)
        }
        return false
    }

    /// A port on 127.0.0.1 that nothing listens on now, for a server a test starts: below the
    /// ephemeral range (32768 up), where the many loopback connections of other tests take
    /// theirs, and below the test brokers' 20000-32000, so one free now very likely stays free
    /// until the server binds it (a server that then cannot bind it says so, and its starter may
    /// try another).
    public static func freePort() -> Int? {
        for _ in 0..<50 {
            let port = Int.random(in: 10000...19999)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var address = loopback(port)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            if bound { return port }
        }
        return nil
    }

    private static func loopback(_ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return address
    }

    /// The time left to `deadline` in milliseconds for poll, at most 100 (so that a cancelled
    /// test is seen), or nil when it passed or the task is cancelled.
    private static func slice(_ deadline: ContinuousClock.Instant) -> Int32? {
        let left = deadline - ContinuousClock.now
        guard left > .zero, !Task.isCancelled else { return nil }
        let ms = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
        return Int32(max(1, min(100, ms)))
    }

    /// Waits until `fd` is ready for `events`; throws when the deadline passes first.
    private static func wait(_ fd: Int32, _ events: Int16, deadline: ContinuousClock.Instant, what: String, doing: String) throws {
        while true {
            guard let ms = slice(deadline) else {
                throw Failure(description: "\(what): no answer in time (\(doing))\(Task.isCancelled ? ": the test's time is up" : "")")
            }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let n = poll(&entry, 1, ms)
            if n > 0 { return }
            if n < 0 && errno != EINTR { throw Failure(description: "\(what): poll failed (errno \(errno))") }
        }
    }

    private static func connect(port: Int, deadline: ContinuousClock.Instant, what: String) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "\(what): socket failed (errno \(errno))") }
        var address = loopback(port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if result != 0 {
            guard errno == EINPROGRESS else {
                let code = errno
                close(fd)
                throw Failure(description: "\(what): cannot connect (\(String(cString: strerror(code))))")
            }
            do {
                try wait(fd, Int16(POLLOUT), deadline: deadline, what: what, doing: "connecting")
            } catch {
                close(fd)
                throw error
            }
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
            if code != 0 {
                close(fd)
                throw Failure(description: "\(what): cannot connect (\(String(cString: strerror(code))))")
            }
        }
        return fd
    }

    private static func send(_ fd: Int32, _ data: Data, deadline: ContinuousClock.Instant, what: String) throws {
        var offset = 0
        while offset < data.count {
            try wait(fd, Int16(POLLOUT), deadline: deadline, what: what, doing: "sending the request")
            let n = data.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, data.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                throw Failure(description: "\(what): sending failed (\(String(cString: strerror(errno))))")
            }
            offset += n
        }
    }

    /// Reads the answer: until its Content-Length is read, or the end of the connection.
    private static func receive(_ fd: Int32, deadline: ContinuousClock.Instant, what: String) throws -> Response {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        var parsed: (head: Int, length: Int?)?
        while true {
            if let parsed, let length = parsed.length, data.count >= parsed.head + length { break }
            try wait(fd, Int16(POLLIN), deadline: deadline, what: what, doing: "reading the answer, \(data.count) bytes so far")
            let n = recv(fd, &buffer, buffer.count, 0)
            if n == 0 { break }
            if n < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                throw Failure(description: "\(what): reading failed (\(String(cString: strerror(errno))))")
            }
            data.append(contentsOf: buffer[0..<n])
            if parsed == nil, let end = data.range(of: Data("\r\n\r\n".utf8)) {
                let fields = headerFields(data[..<end.lowerBound])
                let chunked = fields.headers["transfer-encoding"]?.lowercased().contains("chunked") == true
                parsed = (end.upperBound - data.startIndex, chunked ? nil : fields.headers["content-length"].flatMap { Int($0) })
            }
        }
        guard let parsed else { throw Failure(description: "\(what): the connection ended without an HTTP answer (\(data.count) bytes)") }
        let fields = headerFields(data.prefix(parsed.head - 4))
        guard let status = fields.status else {
            throw Failure(description: "\(what): not an HTTP answer: \(String(decoding: data.prefix(80), as: UTF8.self))")
        }
        var body = Data(data.dropFirst(parsed.head))
        if let length = parsed.length {
            body = body.prefix(length)
        } else if fields.headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            body = try unchunk(body, what: what)
        }
        return Response(status: status, headers: fields.headers, setCookies: fields.setCookies, body: body)
    }

    private static func headerFields(_ head: Data) -> (status: Int?, headers: [String: String], setCookies: [String]) {
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let statusWords = lines.first?.split(separator: " ") ?? []
        let status = statusWords.count > 1 && statusWords[0].hasPrefix("HTTP/") ? Int(statusWords[1]) : nil
        var headers: [String: String] = [:]
        var cookies: [String] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "set-cookie" { cookies.append(value) }
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        return (status, headers, cookies)
    }

    private static func unchunk(_ data: Data, what: String) throws -> Data {
        var out = Data()
        var rest = data[...]
        while let end = rest.range(of: Data("\r\n".utf8)) {
            let sizeText = String(decoding: rest[..<end.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw Failure(description: "\(what): a chunk's size is not a number: \(sizeText)")
            }
            if size == 0 { return out }
            let start = end.upperBound
            guard rest.distance(from: start, to: rest.endIndex) >= size else { break }
            let stop = rest.index(start, offsetBy: size)
            out.append(rest[start..<stop])
            rest = rest[rest.index(stop, offsetBy: min(2, rest.distance(from: stop, to: rest.endIndex)))...]
        }
        throw Failure(description: "\(what): the chunked answer ended early")
    }
}
