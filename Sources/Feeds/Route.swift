import Activity

/// What a request asks for, from its method and path (and query): the API of `glance serve`.
public enum Route: Sendable, Equatable {
    case health
    case healthAutoExport
    case putDay(CalendarDay)
    case postDays
    case getDays(from: CalendarDay?, to: CalendarDay?)
    case putMetric(String)
    case getMetrics
    case postTask
    case patchTask(String)
    case getTasks

    /// Writes change the store; reads do not.
    public var writes: Bool {
        switch self {
        case .health, .getDays, .getMetrics, .getTasks: false
        default: true
        }
    }

    /// Answered without a token: it says only that the server runs.
    public var isPublic: Bool { self == .health }

    /// A request that matches no route: its status (404, 405, 400) and why.
    public struct Refusal: Error, Sendable, Equatable {
        public let status: Int
        public let message: String
    }

    /// From a request line's target (`/v1/days?from=…`), query included.
    public static func resolve(method: String, target: String) -> Result<Route, Refusal> {
        let (path, query) = split(target)
        return resolve(method: method, path: path, query: query)
    }

    /// From the path and the decoded query arguments.
    public static func resolve(method: String, path: String, query: [(String, String)]) -> Result<Route, Refusal> {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        guard parts.first == "v1", parts.count >= 2 else {
            return .failure(Refusal(status: 404, message: "no such endpoint \(clip(path)) (the API is under /v1/)"))
        }
        func only(_ allowed: String, _ route: Route) -> Result<Route, Refusal> {
            method == allowed ? .success(route) : .failure(Refusal(status: 405, message: "\(path) takes \(allowed)"))
        }
        switch (parts[1], parts.count) {
        case ("health", 2): return only("GET", .health)
        case ("health-auto-export", 2): return only("POST", .healthAutoExport)
        case ("days", 2):
            switch method {
            case "POST": return .success(.postDays)
            case "GET":
                var from: CalendarDay?, to: CalendarDay?
                for (key, value) in query {
                    guard key == "from" || key == "to" else {
                        return .failure(Refusal(status: 400, message: "unknown query parameter \(clip(key)) (from, to)"))
                    }
                    guard let day = CalendarDay(iso: value) else {
                        return .failure(Refusal(status: 400, message: "\(key): expected a date as YYYY-MM-DD"))
                    }
                    if key == "from" { from = day } else { to = day }
                }
                return .success(.getDays(from: from, to: to))
            default: return .failure(Refusal(status: 405, message: "/v1/days takes GET or POST"))
            }
        case ("days", 3):
            guard let day = CalendarDay(iso: parts[2]) else {
                return .failure(Refusal(status: 400, message: "/v1/days/DATE: expected a date as YYYY-MM-DD"))
            }
            return only("PUT", .putDay(day))
        case ("metrics", 2): return only("GET", .getMetrics)
        case ("metrics", 3):
            guard let name = decode(parts[2]) else { return .failure(Refusal(status: 400, message: "a malformed metric name")) }
            return only("PUT", .putMetric(name))
        case ("tasks", 2):
            switch method {
            case "POST": return .success(.postTask)
            case "GET": return .success(.getTasks)
            default: return .failure(Refusal(status: 405, message: "/v1/tasks takes GET or POST"))
            }
        case ("tasks", 3):
            guard let name = decode(parts[2]) else { return .failure(Refusal(status: 400, message: "a malformed task name")) }
            return only("PATCH", .patchTask(name))
        default:
            return .failure(Refusal(status: 404, message: "no such endpoint \(clip(path))"))
        }
    }

    /// Path and decoded query pairs.
    static func split(_ target: String) -> (String, [(String, String)]) {
        guard let q = target.firstIndex(of: "?") else { return (target, []) }
        let query = target[target.index(after: q)...].split(separator: "&").map { pair -> (String, String) in
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decode(String(kv[0])) ?? "", kv.count > 1 ? decode(String(kv[1])) ?? "" : "")
        }
        return (String(target[..<q]), query)
    }

    /// %XX decoded (and + as a space in a query); nil when malformed or not UTF-8.
    static func decode(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var it = Array(text.utf8)[...]
        while let c = it.popFirst() {
            if c == UInt8(ascii: "%") {
                guard it.count >= 2, let v = UInt8(String(decoding: it.prefix(2), as: UTF8.self), radix: 16) else { return nil }
                bytes.append(v)
                it = it.dropFirst(2)
            } else {
                bytes.append(c == UInt8(ascii: "+") ? 32 : c)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// A few dozen characters of what the client sent, for a message.
    static func clip(_ text: String) -> String { text.count > 40 ? text.prefix(40) + "…" : text }
}
