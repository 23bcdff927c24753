// Fuzz target: bytes as a request to glance serve: the first line as METHOD TARGET (the route,
// its path decoded once, its query), the rest as the body, through every body decoder (Health
// Auto Export with its sums into days, and Glance's own days, metric and task bodies), and what
// the server logs of it. Properties checked: a decoded name holds no control character; a log
// line holds no control character and never the token; a description or unit taken is within
// its TextLimit.
import Activity
import Feeds

let secret = Array("fuzz-token-0123456789abcdef".utf8)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var body = bytes[...]
    if let newline = bytes.firstIndex(of: 10), newline < 4096 {
        let line = String(decoding: bytes[..<newline], as: UTF8.self)
        let parts = line.split(separator: " ", maxSplits: 1)
        if parts.count == 2 {
            let target = String(parts[1])
            switch Route.resolve(method: String(parts[0]), target: target) {
            case .success(.putMetric(let name)), .success(.patchTask(let name)):
                precondition(!Quote.hasControl(name), "a decoded name with a control character")
            default: break
            }
            // What the server logs of the request, as the HTTP module hands it over (printable ASCII).
            let path = Quote.percentEscaped(target.utf8)
            let logged = RequestLog.line(
                "\(parts[0]) \(RequestLog.target(path: path, query: [("token", target)])) 401: \(target)", secret: secret)
            precondition(!logged.unicodeScalars.contains(where: Quote.isControl), "a control character logged")
            precondition(!logged.contains(String(decoding: secret, as: UTF8.self)), "the token logged")
            _ = bearerToken(String(parts[1]))
        }
        body = bytes[(newline + 1)...]
    }
    guard let located = try? Located.parse(Array(body)) else { return 0 }
    if let export = try? HealthAutoExport.decode(located) {
        // As glance serve does, with UTC for the board's time zone (and no day outside 1...9999).
        _ = try? export.days { seconds in
            let day = CalendarDay(daysSinceEpoch: Int(seconds / 86400))
            return day >= .earliest && day <= .latest ? day : nil
        }
    }
    _ = try? Bodies.day(located)
    _ = try? Bodies.days(located)
    if let metric = try? Bodies.metric(located), case .set(let unit) = metric.unit {
        precondition(TextLimit.problem(unit, bytes: TextLimit.unit) == nil, "a unit past its limit taken")
    }
    if let task = try? Bodies.startTask(located), let description = task.description {
        precondition(TextLimit.problem(description, characters: TextLimit.description) == nil, "a description past its limit taken")
    }
    if case .update(_, _, .set(let description))? = try? Bodies.changeTask(located) {
        precondition(TextLimit.problem(description, characters: TextLimit.description) == nil, "a description past its limit taken")
    }
    return 0
}
