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
@Suite("glance serve: the store bounded in dates and size", .timeLimit(.minutes(10)))
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

    @Test("the samples of days a push may no longer write are folded into their days: shown and exported the same, one row a day")
    func oldSamplesFolded() throws {
        let server = try Server(serve: ", \"pastDays\": 30", environment: ["TZ": "UTC"])
        defer { Self.end(server) }
        let old = Self.day(-40), older = Self.day(-35), kept = Self.day(-30)
        do {
            // As a push of more than 30 days ago left them: a day with its own figures and goal
            // under its samples, a day of samples only (energy in two units), and the window's
            // first day, which stays as samples.
            let store = try Store(path: server.scratch.db)
            try store.setSummary(ActivitySummary(activeEnergyBurnedGoal: .kilocalories(700), exerciseTime: 99, standHours: 4), for: old)
            func at(_ day: CalendarDay, _ minute: Int) -> Int64 { Int64(day.daysSinceEpoch * 86400 + minute * 60) }
            var samples: [Store.Sample] = []
            for minute in 0..<300 {
                samples.append(Store.Sample(metric: .activeEnergy, start: at(old, minute), quantity: 4.184, unit: "kJ", value: 1, day: old))
                samples.append(Store.Sample(
                    metric: .activeEnergy, start: at(older, minute), source: minute % 2 == 0 ? "Watch" : "Phone",
                    quantity: minute % 2 == 0 ? 2 : 4.184, unit: minute % 2 == 0 ? "kcal" : "kJ", value: minute % 2 == 0 ? 2 : 1, day: older))
                if minute % 10 == 0 {
                    samples.append(Store.Sample(metric: .exerciseTime, start: at(old, minute), quantity: 1, unit: "min", value: 1, day: old))
                }
                if minute % 60 == 0 {
                    samples.append(Store.Sample(metric: .standHours, start: at(kept, minute), quantity: 1, unit: "count", value: 1, day: kept))
                }
            }
            try store.putSamples(samples)
        }
        let range = "/v1/days?from=\(old)&to=\(kept)"
        let shown = try server.request("GET", range)
        #expect(shown.status == 200 && shown.body.contains("\"date\":\"\(older)\""), "\(shown)")
        let export = try GlanceCLI.run(["export", "--csv", "--db", server.scratch.db], in: server.scratch, killAfter: 60)
        #expect(export.status == 0, "\(export.err)")
        // A push of today: the days before the window are folded in the same transaction.
        let r = try server.request("POST", "/v1/health-auto-export", Self.body([Self.sample(5, Self.day(0))]))
        #expect(r.status == 200, "\(r)")
        let store = try Store(path: server.scratch.db, access: .read)
        let left = try store.sampleCount()
        #expect(left == 5 + 1, "only the window's samples are left: \(left)")
        #expect(try store.summary(for: older)?.activeEnergyBurned == .kilocalories(450), "the samples' sum, now the day's own")
        let energy = try store.summary(for: old)?.activeEnergyBurned
        #expect(energy?.unit == .kilojoule && abs((energy?.value ?? 0) - 1255.2) < 1e-9, "in the unit of its samples: \(String(describing: energy))")
        #expect(try store.summary(for: old)?.exerciseTime == 30 && store.summary(for: old)?.standHours == 4)
        #expect(try server.request("GET", range).body == shown.body, "the days are shown as before")
        let again = try GlanceCLI.run(["export", "--csv", "--db", server.scratch.db], in: server.scratch, killAfter: 60)
        let lines = { (text: String) in text.split(separator: "\n").filter { !$0.hasPrefix(Self.day(0).description) } }
        #expect(lines(again.out) == lines(export.out), "exported as before:\n\(again.out)\n\(export.out)")
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
        var lastTask = ""
        for i in 0..<1000 {  // (the pages samples left part-filled take some hundreds first)
            let m = try server.request("PUT", "/v1/metrics/\(String(repeating: "m", count: 50))\(i)", "{\"value\": 1, \"unit\": \"kWh\"}")
            lastTask = "{\"name\": \"\(String(repeating: "t", count: 50))\(i)\", \"description\": \"\(description)\"}"
            let t = try server.request("POST", "/v1/tasks", lastTask)
            statuses += [m.status, t.status]
            if m.status == 507 && t.status == 507 { break }
        }
        #expect(statuses.last == 507 && Set(statuses).isSubset(of: [200, 507]), "\(statuses)")
        // The last refused again: refused, and the store as it was. (The same task: another name
        // may still fit in a part-filled page of the tasks' table, as the store's layout has it.)
        let fullBefore = try server.snapshot()
        let again = try server.request("POST", "/v1/tasks", lastTask)
        #expect(again.status == 507, "\(again)")
        #expect(try server.snapshot() == fullBefore)
        #expect(try server.request("GET", "/v1/metrics").status == 200)
        let log = server.expectAnswersAndStops()
        #expect(log.contains("507") && log.contains("reached the 1 MiB"), "\(log.suffix(600))")
    }
}
