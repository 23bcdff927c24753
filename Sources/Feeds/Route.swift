import Activity

/// What a request asks for, from its method and path (and query): the API of `glance serve`.
public enum Route: Sendable, Equatable {
    case health
    case healthAutoExport
    case healthConnect
    case readings
    case putDay(CalendarDay)
    case postDays
    case getDays(from: CalendarDay?, to: CalendarDay?)
    case putMetric(String)
    case getMetrics
    case postTask
    case patchTask(String)
    case getTasks
    case getGoals
    case postGoals

    /// Writes change the store; reads do not.
    public var writes: Bool {
        switch self {
        case .health, .getDays, .getMetrics, .getTasks, .getGoals: false
        default: true
        }
    }

    /// Answered without a token: it says only that the server runs.
    public var isPublic: Bool { self == .health }

    /// A request that matches no route: its status (404, 405, 400) and why; for a 405, the
    /// methods the path takes (the `Allow` header).
    public struct Refusal: Error, Sendable, Equatable {
        public let status: Int
        public let message: String
        public var allow: String? = nil
    }

    /// From a request line's target (`/v1/days?from=…`), as sent (percent-encoded), query included.
    public static func resolve(method: String, target: String) -> Result<Route, Refusal> {
        let (path, query) = split(target)
        return resolve(method: method, path: path, query: query)
    }

    /// From the path and the query's arguments, both as sent: each is percent-decoded here, once
    /// (`+` is a space in the query only, as forms write it; in a path it is itself).
    public static func resolve(method given: String, path: String, query: [(String, String)]) -> Result<Route, Refusal> {
        // HEAD is GET without the body (libmicrohttpd leaves the body out).
        let method = given == "HEAD" ? "GET" : given
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        guard parts.first == "v1", parts.count >= 2 else {
            return .failure(Refusal(status: 404, message: "no such endpoint \(clip(path)) (the API is under /v1/)"))
        }
        func only(_ allowed: String, _ route: Route) -> Result<Route, Refusal> {
            if method == allowed { return .success(route) }
            let allow = allowed == "GET" ? "GET, HEAD" : allowed
            return .failure(Refusal(status: 405, message: "\(clip(path)) takes \(allow)", allow: allow))
        }
        switch (parts[1], parts.count) {
        case ("health", 2): return only("GET", .health)
        case ("health-auto-export", 2): return only("POST", .healthAutoExport)
        case ("health-connect", 2): return only("POST", .healthConnect)
        case ("readings", 2): return only("POST", .readings)
        case ("days", 2):
            switch method {
            case "POST": return .success(.postDays)
            case "GET":
                var from: CalendarDay?, to: CalendarDay?
                for (rawKey, rawValue) in query {
                    let key = decode(rawKey, plusIsSpace: true)
                    guard key == "from" || key == "to", let key else {
                        return .failure(Refusal(status: 400, message: "unknown query parameter \(clip(rawKey)) (from, to)"))
                    }
                    guard let value = decode(rawValue, plusIsSpace: true), let day = CalendarDay(iso: value) else {
                        return .failure(Refusal(status: 400, message: "\(key): expected a date as YYYY-MM-DD"))
                    }
                    if key == "from" { from = day } else { to = day }
                }
                return .success(.getDays(from: from, to: to))
            default: return .failure(Refusal(status: 405, message: "/v1/days takes GET, HEAD or POST", allow: "GET, HEAD, POST"))
            }
        case ("days", 3):
            guard let day = decode(parts[2]).flatMap(CalendarDay.init(iso:)) else {
                return .failure(Refusal(status: 400, message: "/v1/days/DATE: expected a date as YYYY-MM-DD"))
            }
            return only("PUT", .putDay(day))
        case ("metrics", 2): return only("GET", .getMetrics)
        case ("metrics", 3):
            guard let name = decode(parts[2]) else { return .failure(Refusal(status: 400, message: malformed("metric"))) }
            return only("PUT", .putMetric(name))
        case ("tasks", 2):
            switch method {
            case "POST": return .success(.postTask)
            case "GET": return .success(.getTasks)
            default: return .failure(Refusal(status: 405, message: "/v1/tasks takes GET, HEAD or POST", allow: "GET, HEAD, POST"))
            }
        case ("goals", 2):
            switch method {
            case "POST": return .success(.postGoals)
            case "GET": return .success(.getGoals)
            default: return .failure(Refusal(status: 405, message: "/v1/goals takes GET, HEAD or POST", allow: "GET, HEAD, POST"))
            }
        case ("tasks", 3):
            guard let name = decode(parts[2]) else { return .failure(Refusal(status: 400, message: malformed("task"))) }
            return only("PATCH", .patchTask(name))
        default:
            return .failure(Refusal(status: 404, message: "no such endpoint \(clip(path))"))
        }
    }

    static func malformed(_ what: String) -> String {
        "a malformed \(what) name: percent-encode it as UTF-8 (%25 for %), without control characters (%00 to %1F)"
    }

    /// Path and query pairs of a target, as sent (nothing decoded).
    static func split(_ target: String) -> (String, [(String, String)]) {
        guard let q = target.firstIndex(of: "?") else { return (target, []) }
        let query = target[target.index(after: q)...].split(separator: "&").map { pair -> (String, String) in
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(kv[0]), kv.count > 1 ? String(kv[1]) : "")
        }
        return (String(target[..<q]), query)
    }

    /// The one decoding of what a client sent in a path segment or a query argument: `%XX` as the
    /// byte it names (and `+` as a space in a query); nil when an escape is malformed, the bytes are
    /// not UTF-8, or they hold a control character (a NUL would cut a name short further on).
    public static func decode(_ text: String, plusIsSpace: Bool = false) -> String? {
        var bytes: [UInt8] = []
        var it = Array(text.utf8)[...]
        func hex(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: c - 48
            case 65...70: c - 55
            case 97...102: c - 87
            default: nil
            }
        }
        while let c = it.popFirst() {
            if c == UInt8(ascii: "%") {
                guard let h = it.popFirst().flatMap(hex), let l = it.popFirst().flatMap(hex) else { return nil }
                bytes.append(h << 4 | l)
            } else {
                bytes.append(plusIsSpace && c == UInt8(ascii: "+") ? 32 : c)
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self), !Quote.hasControl(text) else { return nil }
        return text
    }

    /// A few dozen characters of what the client sent, for a message.
    static func clip(_ text: String) -> String { Quote.clip(text) }
}
