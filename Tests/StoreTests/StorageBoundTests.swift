import Activity
import Foundation
import TestSupport
import Testing

@testable import Store

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 37, "storage bounded": a token holder cannot grow the store without bound. A push writes
/// only days from `serve.pastDays` before today to tomorrow (400 otherwise, the date named), and
/// never grows the store past `serve.maxStore` MiB (507, nothing kept) — samples, days, metrics
/// and tasks alike. The real `glance serve` on loopback, curl, a real store.
@Suite("glance serve: the store bounded in dates and size", .timeLimit(.minutes(5)))
struct StorageBoundTests {
    typealias Server = ServeTests.Server

    static func end(_ server: Server) {
        if server.process.isRunning {
            kill(server.process.processIdentifier, SIGKILL)
            _ = server.finish()
        }
    }

    /// Today in UTC (the servers run with TZ=UTC) plus `days`.
    static func day(_ days: Int) -> CalendarDay {
        CalendarDay(daysSinceEpoch: Int(Date().timeIntervalSince1970 / 86400) + days)
    }

    static func sample(_ qty: Double, _ day: CalendarDay, second: Int = 36000, source: String? = nil) -> String {
        let time = String(format: "%02d:%02d:%02d", second / 3600, second / 60 % 60, second % 60)
        return "{\"qty\": \(qty), \"date\": \"\(day) \(time) +0000\"" + (source.map { ", \"source\": \"\($0)\"" } ?? "") + "}"
    }

    static func body(_ samples: [String]) -> String {
        "{\"data\": {\"metrics\": [{\"name\": \"active_energy\", \"units\": \"kcal\", \"data\": [\(samples.joined(separator: ", "))]}]}}"
    }

    @Test("days and samples before serve.pastDays or after tomorrow are refused (400, the date and its path named), nothing kept")
    func dateWindow() throws {
        let server = try Server(serve: ", \"pastDays\": 30", environment: ["TZ": "UTC"])
        defer { Self.end(server) }
        // The edges are taken: 30 days ago and tomorrow.
        var r = try server.request("POST", "/v1/health-auto-export", Self.body([Self.sample(5, Self.day(-30)), Self.sample(6, Self.day(1))]))
        #expect(r.status == 200, "\(r)")
        r = try server.request("PUT", "/v1/days/\(Self.day(-30))", "{\"stand\": 3}")
        #expect(r.status == 200, "\(r)")
        let before = try server.snapshot()
        let window = "outside the days a push may write, \(Self.day(-30)) to \(Self.day(1))"
        for (i, day) in [Self.day(-31), Self.day(2), CalendarDay(iso: "0001-01-01")!, CalendarDay(iso: "9999-12-31")!].enumerated() {
            r = try server.request("POST", "/v1/health-auto-export", Self.body([Self.sample(1, Self.day(0)), Self.sample(2, day)]))
            #expect(r.status == 400, "\(day): \(r)")
            if i < 2 { #expect(r.body.contains("$.data.metrics[0].data[1].date: \(day) is \(window)"), "\(day): \(r.body)") }
            r = try server.request("PUT", "/v1/days/\(day)", "{\"move\": 100}")
            #expect(r.status == 400 && r.body.contains("\(day) is \(window)") && r.body.contains("glance import"), "\(day): \(r)")
            r = try server.request("POST", "/v1/days", "{\"days\": [{\"date\": \"\(Self.day(0))\", \"move\": 1}, {\"date\": \"\(day)\", \"move\": 2}]}")
            #expect(r.status == 400 && r.body.contains("$.days[1].date: \(day) is \(window)"), "\(day): \(r)")
        }
        #expect(try server.snapshot() == before, "a refused push changed the store")
        server.expectAnswersAndStops()
    }

    @Test("a push that would grow the store past serve.maxStore is refused (507), nothing kept; samples, metrics and tasks alike")
    func sizeCap() throws {
        let server = try Server(serve: ", \"maxStore\": 1, \"perSecond\": 1000", environment: ["TZ": "UTC"])
        defer { Self.end(server) }
        let source = String(repeating: "s", count: 150)
        var full: (status: Int, body: String)?
        var pushes = 0
        var before = ""
        // Pushes of 500 samples (about 100 kB each) until the store is full: at most 1 MiB.
        while pushes < 40 {
            before = try server.snapshot()
            let samples = (0..<500).map { Self.sample(0.01, Self.day(-1), second: pushes * 500 + $0, source: source) }
            let r = try server.request("POST", "/v1/health-auto-export", Self.body(samples))
            pushes += 1
            if r.status != 200 {
                full = r
                break
            }
        }
        let refused = try #require(full, "40 pushes of 500 samples all kept in 1 MiB")
        #expect(pushes > 2, "refused too early: the first pushes fit")
        #expect(refused.status == 507, "\(refused)")
        #expect(refused.body.contains("the store is full") && refused.body.contains("1 MiB") && refused.body.contains("nothing was kept"), "\(refused.body)")
        #expect(!refused.body.contains(server.scratch.db), "the store's path is not told: \(refused.body)")
        #expect(try server.snapshot() == before, "the refused push changed the store")
        var st = stat()
        #expect(stat(server.scratch.db, &st) == 0 && st.st_size <= 1 << 20, "the store is \(st.st_size) bytes")
        // New metrics and tasks cannot grow it either; reads still answer.
        let description = String(repeating: "d", count: 200)
        var statuses: [Int] = []
        for i in 0..<200 {
            let m = try server.request("PUT", "/v1/metrics/\(String(repeating: "m", count: 50))\(i)", "{\"value\": 1, \"unit\": \"kWh\"}")
            let t = try server.request("POST", "/v1/tasks", "{\"name\": \"\(String(repeating: "t", count: 50))\(i)\", \"description\": \"\(description)\"}")
            statuses += [m.status, t.status]
            if m.status == 507 && t.status == 507 { break }
        }
        #expect(statuses.last == 507 && Set(statuses).isSubset(of: [200, 507]), "\(statuses)")
        // The last refused again: refused, and the store as it was.
        let fullBefore = try server.snapshot()
        let again = try server.request("POST", "/v1/tasks", "{\"name\": \"\(String(repeating: "t", count: 50))x\", \"description\": \"\(description)\"}")
        #expect(again.status == 507, "\(again)")
        #expect(try server.snapshot() == fullBefore)
        #expect(try server.request("GET", "/v1/metrics").status == 200)
        let log = server.expectAnswersAndStops()
        #expect(log.contains("507") && log.contains("reached the 1 MiB"), "\(log.suffix(600))")
    }
}
