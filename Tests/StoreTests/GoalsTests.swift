import Activity
import Foundation
import TestSupport
import Testing

@testable import Store

/// Standing goals with a history: `glance goals` and `POST /v1/goals` on a real store, through
/// the real program.
@Suite("standing goals: set from a date, a past day keeps its goal, the configuration's before any", .timeLimit(.minutes(10)))
struct GoalsTests {
    static func glance(_ words: [String], _ scratch: Scratch, config: String) throws -> GlanceCLI.Result {
        let r = try GlanceCLI.run(words + ["--db", scratch.db, "--config", config], in: scratch)
        #expect(r.status == 0, "glance \(words.joined(separator: " ")): \(r.err)")
        return r
    }

    @Test("set, change from a date, list; each day measured against the goals in force on its date")
    func historyOnTheCommandLine() throws {
        let scratch = Scratch()
        let config = scratch.write("config.json", #"{"goals": {"move": 550, "exercise": 25, "stand": 11}}"#)
        func log(_ date: String) throws -> String {
            try Self.glance(["log", "--date", date, "--move", "300", "--exercise", "10"], scratch, config: config).out
        }
        // Before any are set: the configuration's.
        #expect(try log("2026-11-05") == "2026-11-05: move 300/550 kcal, exercise 10/25 min, stand —/11 h\n")
        var r = try Self.glance(["goals", "set", "--move", "600", "--exercise", "45", "--stand", "10", "--from", "2026-11-10"], scratch, config: config)
        #expect(r.out == "from 2026-11-10: move 600 kcal, exercise 45 min, stand 10 h, steps 10000\n")
        #expect(try log("2026-11-15") == "2026-11-15: move 300/600 kcal, exercise 10/45 min, stand —/10 h\n")
        // A change from a later date: the goal not given stays as it was in force.
        r = try Self.glance(["goals", "set", "--move", "2928.8kJ", "--from", "2026-11-20"], scratch, config: config)
        #expect(r.out == "from 2026-11-20: move 2928.8 kJ, exercise 45 min, stand 10 h, steps 10000\n")
        #expect(try log("2026-11-25") == "2026-11-25: move 300 kcal/2928.8 kJ, exercise 10/45 min, stand —/10 h\n", "a new day takes the new goal")
        #expect(try log("2026-11-15") == "2026-11-15: move 300/600 kcal, exercise 10/45 min, stand —/10 h\n", "a past day keeps its goal")
        #expect(try log("2026-11-05").hasPrefix("2026-11-05: move 300/550 kcal"), "before the first: the configuration's")
        // A day's own goal wins over the standing ones.
        r = try Self.glance(["log", "--date", "2026-11-26", "--move", "1", "--move-goal", "400"], scratch, config: config)
        #expect(r.out.hasPrefix("2026-11-26: move 1/400 kcal, exercise —/45 min"))
        r = try Self.glance(["goals"], scratch, config: config)
        #expect(
            r.out == """
                until 2026-11-09 (the configuration's): move 550 kcal, exercise 25 min, stand 11 h, steps 10000
                from 2026-11-10: move 600 kcal, exercise 45 min, stand 10 h, steps 10000
                from 2026-11-20: move 2928.8 kJ, exercise 45 min, stand 10 h, steps 10000

                """)
        // Bad goals are refused, and change nothing.
        let bad = try GlanceCLI.run(["goals", "set", "--stand", "25", "--db", scratch.db], in: scratch)
        #expect(bad.status == 64 && bad.err.contains("--stand"), "\(bad.err)")
        let none = try GlanceCLI.run(["goals", "set", "--db", scratch.db], in: scratch)
        #expect(none.status == 64 && none.err.contains("give at least one goal"), "\(none.err)")
        #expect(try Store(path: scratch.db, access: .read).goalHistory().count == 2)
        // Removed: the days follow the period before.
        _ = try Self.glance(["goals", "remove", "--from", "2026-11-20"], scratch, config: config)
        #expect(try log("2026-11-25").hasPrefix("2026-11-25: move 300/600 kcal"))
        let missing = try GlanceCLI.run(["goals", "remove", "--from", "2026-11-20", "--db", scratch.db], in: scratch)
        #expect(missing.status == 65 && missing.err.contains("no goals set from 2026-11-20"), "\(missing.err)")
    }

    @Test("`glance log` on a fresh store draws all three rings, against the configuration's goals")
    func logOnAFreshStoreDrawsThreeRings() throws {
        let scratch = Scratch()
        let config = scratch.write("config.json", "{}")
        _ = try Self.glance(["log", "--date", "2026-12-01", "--move", "350"], scratch, config: config)
        let r = try Self.glance(
            ["render", "--date", "2026-12-01", "--today", "2026-12-01", "--size", "400x400", "--explain"], scratch, config: config)
        for figure in ["350/500", "—/30", "—/12"] { #expect(r.out.contains("\"text\":\"\(figure)\""), "\(figure) in \(r.out)") }
        #expect(r.out.components(separatedBy: "\"element\":\"rings.figure.").count - 1 == 9, "three rings' label, value and unit")
    }

    @Test("an export and its import keep every day's goals; an Apple export's own goals win over standing ones")
    func exportAndImportKeepTheGoals() throws {
        let scratch = Scratch()
        let config = scratch.write("config.json", "{}")
        _ = try Self.glance(["goals", "set", "--move", "640", "--exercise", "40", "--stand", "9", "--from", "2023-02-01"], scratch, config: config)
        // The export's days carry goals of their own (250 kcal, 0 and 0): kept as they are.
        var r = try GlanceCLI.run(["import", FixtureSet.synthetic.path(FixtureSet.synthetic.csv), "-q", "--db", scratch.db], in: scratch)
        #expect(r.status == 0, "\(r.err)")
        _ = try Self.glance(["log", "--date", "2023-02-10", "--move", "100"], scratch, config: config)
        let original = try GlanceCLI.run(["export", "--csv", "--db", scratch.db], in: scratch).out
        #expect(original.contains("\n2023-02-08,367,250,kcal,0,0,0,0,0,0,,activeEnergy,,,CSV file\n"), "an imported day's own goals: \(original)")
        #expect(original.contains("\n2023-02-10,100,640,kcal,,,,40,,9,,activeEnergy,,,glance log\n"), "a day without its own: the standing goals")
        // Into a new store, without the history: the same days.
        let file = scratch.write("days.csv", original)
        let copy = scratch.file("copy.db")
        r = try GlanceCLI.run(["import", file, "--db", copy, "-q"], in: scratch)
        #expect(r.status == 0, "\(r.err)")
        r = try GlanceCLI.run(["export", "--csv", "--db", copy], in: scratch)
        #expect(r.out == original)
    }

    @Test("over HTTP: POST and GET /v1/goals with the token; a bad body changes nothing; the days follow")
    func overHTTP() throws {
        let server = try ServeTests.Server(environment: ["TZ": "Europe/Berlin"])
        var r = try server.request("GET", "/v1/goals")
        #expect(r == (200, "{\"goals\":[],\"default\":{\"move\":600,\"exercise\":30,\"stand\":12,\"steps\":10000}}"))
        #expect(try server.request("POST", "/v1/goals", "{\"move\": 700}", authorization: .some(nil)).status == 401)
        r = try server.request("POST", "/v1/goals", "{\"move\": 700, \"stand\": 10, \"from\": \"2026-11-29\"}")
        #expect(r == (200, "{\"from\":\"2026-11-29\",\"move\":700,\"exercise\":null,\"stand\":10,\"steps\":null}"))
        let before = try server.snapshot()
        for bad in ["{\"move\": -1}", "{\"stand\": 25}", "{\"from\": \"2026-11-31\", \"move\": 5}", "{\"moveGoal\": 5}", "{}", "[1"] {
            r = try server.request("POST", "/v1/goals", bad)
            #expect(r.status == 400, "\(bad): \(r)")
        }
        #expect(try server.request("DELETE", "/v1/goals").status == 405)
        #expect(try server.snapshot() == before, "the refused bodies changed the store")
        _ = try server.request("PUT", "/v1/days/2026-11-28", "{\"move\": 100}")
        _ = try server.request("PUT", "/v1/days/2026-11-29", "{\"move\": 100}")
        r = try server.request("GET", "/v1/days?from=2026-11-28&to=2026-11-29")
        #expect(
            r.body.contains("{\"date\":\"2026-11-28\",\"move\":100,\"moveGoal\":600,")
                && r.body.contains("{\"date\":\"2026-11-29\",\"move\":100,\"moveGoal\":700,") && r.body.contains("\"standGoal\":10"),
            "\(r.body)")
        r = try server.request("GET", "/v1/goals")
        #expect(r.body.hasPrefix("{\"goals\":[{\"from\":\"2026-11-29\",\"move\":700,"))
        let log = server.expectAnswersAndStops()
        #expect(log.contains("POST /v1/goals 200 from 127.0.0.1: goals from 2026-11-29"))
    }
}
