// Fuzz target: bytes as a request to glance serve: the first line as METHOD TARGET (the route
// and its query), the rest as the body, through every body decoder (Health Auto Export with its
// sums into days, and Glance's own days, metric and task bodies).
import Activity
import Feeds

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var body = bytes[...]
    if let newline = bytes.firstIndex(of: 10), newline < 4096 {
        let line = String(decoding: bytes[..<newline], as: UTF8.self)
        let parts = line.split(separator: " ", maxSplits: 1)
        if parts.count == 2 { _ = Route.resolve(method: String(parts[0]), target: String(parts[1])) }
        body = bytes[(newline + 1)...]
    }
    guard let located = try? Located.parse(Array(body)) else { return 0 }
    if let export = try? HealthAutoExport.decode(located) {
        // As glance serve does, with UTC for the board's time zone.
        _ = try? export.days { seconds in CalendarDay(daysSinceEpoch: Int(seconds / 86400)) }
    }
    _ = try? Bodies.day(located)
    _ = try? Bodies.days(located)
    _ = try? Bodies.metric(located)
    _ = try? Bodies.startTask(located)
    _ = try? Bodies.changeTask(located)
    return 0
}
