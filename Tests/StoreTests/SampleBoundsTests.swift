import Activity
import Foundation
import TestSupport
import Testing

@testable import Store

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 37, items 7 and 8: Health Auto Export's samples bounded by what a day holds, through the
/// real `glance serve` on loopback into a real store. A sample (or a day's sum of samples) beyond
/// it is refused with 400 naming the metric, the moment or day and the value; the store is left
/// as it was; a sum never becomes infinite, shown or exported.
@Suite("samples bounded by what a day holds; sums that cannot overflow", .timeLimit(.minutes(10)))
struct SampleBoundsTests {
    typealias Server = ServeTests.Server

    /// Ends the server if a failed check left it running (it is stopped by the test otherwise).
    static func end(_ server: Server) {
        if server.process.isRunning {
            kill(server.process.processIdentifier, SIGKILL)
            _ = server.finish()
        }
    }

    /// Yesterday in UTC (the server runs with TZ=UTC): well inside what a live push takes.
    static var yesterday: String {
        CalendarDay(daysSinceEpoch: Int(Date().timeIntervalSince1970 / 86400) - 1).description
    }

    /// A body of one metric's samples, each (quantity, "HH:MM") on `day`.
    static func body(_ metric: String, _ units: String, _ samples: [(Double, String)], day: String = yesterday) -> String {
        let data = samples.map { "{\"qty\": \($0.0), \"date\": \"\(day) \($0.1):00 +0000\"}" }
        return "{\"data\": {\"metrics\": [{\"name\": \"\(metric)\", \"units\": \"\(units)\", \"data\": [\(data.joined(separator: ", "))]}]}}"
    }

    @Test("99,999 exercise minutes, 500 stand hours, 150,000 kcal in one sample: refused (400) with the sample named, nothing kept")
    func oneSampleBeyondADay() throws {
        let server = try Server(environment: ["TZ": "UTC"])
        defer { Self.end(server) }
        let day = Self.yesterday
        // Something there before: it stays as it is.
        let ok = try server.request("POST", "/v1/health-auto-export", Self.body("apple_exercise_time", "min", [(12, "09:00")]))
        #expect(ok.status == 200, "\(ok)")
        let before = try server.snapshot()
        let cases: [(String, String, Double, String, String)] = [
            ("apple_exercise_time", "min", 99_999, "10:00", "99999 min is above 1440"),
            ("apple_exercise_time", "hr", 25, "10:00", "1500 min is above 1440"),
            ("apple_stand_hour", "count", 500, "11:00", "500 hr is above 24"),
            ("active_energy", "kcal", 150_000, "12:00", "150000 kcal is above 100000"),
            ("active_energy", "kJ", 120_000, "12:00", "120000 kJ is above 100000"),
            ("active_energy", "kcal", 1e308, "12:00", "1e+308 kcal is above 100000"),
        ]
        for (metric, units, qty, time, said) in cases {
            // A good sample before it in the same push: not kept either.
            let body = Self.body(metric, units, [(1, "08:00"), (qty, time)])
            let r = try server.request("POST", "/v1/health-auto-export", body)
            #expect(r.status == 400, "\(metric) \(qty) \(units): \(r)")
            #expect(r.body.contains("\(metric) at \(day)T\(time):00Z: \(said)"), "\(metric) \(qty) \(units): \(r.body)")
            #expect(r.body.contains("nothing was kept"), "\(r.body)")
            #expect(try server.snapshot() == before, "\(metric) \(qty) \(units): the store changed")
        }
        let days = try server.request("GET", "/v1/days?from=\(day)&to=\(day)")
        #expect(days.body.contains("\"exercise\":12,"), "\(days.body)")
        server.expectAnswersAndStops()
    }

    @Test("samples that each fit but together sum to more than a day holds, in one push or two: refused, the day and sum named")
    func sumsBeyondADay() throws {
        let server = try Server(environment: ["TZ": "UTC"])
        defer { Self.end(server) }
        let day = Self.yesterday
        // In one push: 60 samples of 30 minutes.
        let many = (0..<60).map { (30.0, String(format: "%02d:%02d", $0 / 4 + 6, $0 % 4 * 15)) }
        var r = try server.request("POST", "/v1/health-auto-export", Self.body("apple_exercise_time", "min", many))
        #expect(r.status == 400 && r.body.contains("apple_exercise_time on \(day): the samples sum to 1800 min, which is above 1440"), "\(r)")
        #expect(try Store(path: server.scratch.db, access: .read).sampleCount() == 0)
        // Over two pushes: the first kept, the second refused, the first still as it was.
        r = try server.request("POST", "/v1/health-auto-export", Self.body("apple_stand_hour", "count", [(20, "00:00")]))
        #expect(r.status == 200, "\(r)")
        let before = try server.snapshot()
        r = try server.request("POST", "/v1/health-auto-export", Self.body("apple_stand_hour", "count", [(1, "13:00"), (4, "14:00")]))
        #expect(r.status == 400 && r.body.contains("apple_stand_hour on \(day): the samples sum to 25 hr, which is above 24"), "\(r)")
        #expect(try server.snapshot() == before)
        // A sample sent again that replaces itself is not counted twice: 20 becomes 24.
        r = try server.request("POST", "/v1/health-auto-export", Self.body("apple_stand_hour", "count", [(24, "00:00")]))
        #expect(r.status == 200, "\(r)")
        // Energy: two samples of 1e308 kcal would sum to infinity; each is refused, and so is a
        // sum over the bound of samples that fit.
        r = try server.request("POST", "/v1/health-auto-export", Self.body("active_energy", "kcal", [(1e308, "10:00"), (1e308, "11:00")]))
        #expect(r.status == 400 && r.body.contains("active_energy at \(day)T10:00:00Z"), "\(r)")
        r = try server.request("POST", "/v1/health-auto-export", Self.body("active_energy", "kcal", [(60_000, "10:00"), (60_000, "11:00")]))
        #expect(r.status == 400 && r.body.contains("active_energy on \(day): the samples sum to 120000 kcal, which is above 100000"), "\(r)")
        let log = server.expectAnswersAndStops()
        #expect(!log.contains("inf"), "\(log)")
    }

    @Test("samples an older Glance kept that sum to infinity: not shown, not exported as inf; the export imports again")
    func infiniteSumsOfOldSamples() throws {
        let scratch = Scratch()
        let day = Self.yesterday
        do {
            let store = try Store(path: scratch.db)
            try store.setSummary(ActivitySummary(exerciseTime: 20), for: CalendarDay(iso: day)!)
            // As an older glance serve kept them (each under the bound it did not have).
            try store.db.execute(
                """
                INSERT INTO samples (metric, start, source, quantity, unit, value, day) VALUES
                    ('active_energy', 1, '', 1e308, 'kcal', 1e308, '\(day)'),
                    ('active_energy', 2, '', 1e308, 'kcal', 1e308, '\(day)'),
                    ('apple_exercise_time', 1, '', 99999, 'min', 99999, '\(day)')
                """)
            let shown = try #require(try store.shownSummary(for: CalendarDay(iso: day)!))
            #expect(shown.activeEnergyBurned == nil, "\(shown)")
            #expect(shown.exerciseTime == 20, "the day's own figure, not 99999: \(shown)")
        }
        let export = try GlanceCLI.run(["export", "--csv", "--db", scratch.db], in: scratch, killAfter: 60)
        #expect(export.status == 0, "\(export.err)")
        #expect(!export.out.lowercased().contains("inf") && !export.out.contains("99999"), "\(export.out)")
        let csv = scratch.write("days.csv", export.out)
        let other = scratch.file("other.db")
        let back = try GlanceCLI.run(["import", csv, "--db", other], in: scratch, killAfter: 60)
        #expect(back.status == 0, "the export imports again: \(back.status) \(back.err)")
    }
}
