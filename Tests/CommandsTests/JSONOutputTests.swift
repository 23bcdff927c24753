import Foundation
import Testing

/// `--json` for scripts: metric list, task list, export and devices write one JSON document with
/// the documented field names, which a JSON parser reads back to what the store holds.
@Suite("--json for scripts", .timeLimit(.minutes(10)))
struct JSONOutputTests {
    static func parse(_ text: String) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(value as? [String: Any], "not a JSON object: \(text)")
    }

    @Test("metric list, task list and export --json: the store's values under the documented names")
    func store() throws {
        let folder = Executable.scratch("json")
        let db = ["--db", folder + "/glance.db"]
        for arguments in [
            ["metric", "set", "cpu", "47.5", "--min", "20", "--max", "90", "--unit", "°C"],
            ["metric", "set", "battery", "-"],
            ["task", "start", "sync", "--total", "200", "--description", "Syncing \"photos\"", "--cancellable", "--pid", "1"],
            ["task", "update", "sync", "--done", "50"],
            ["log", "--date", "2026-11-29", "--move", "1460kJ", "--move-goal", "500", "--exercise", "25", "--stand", "9"],
        ] {
            let r = try Executable.run(arguments + db)
            try #require(r.status == 0, "\(arguments): \(r.stderr)")
        }
        let metrics = try Executable.run(["metric", "list", "--json"] + db)
        #expect(metrics.status == 0 && metrics.stdout.hasSuffix("}\n") && metrics.stdout.split(separator: "\n").count == 1)
        let m = try #require(try Self.parse(metrics.stdout)["metrics"] as? [[String: Any]])
        #expect(m.count == 2)
        let cpu = try #require(m.first { $0["name"] as? String == "cpu" })
        #expect(Set(cpu.keys) == ["name", "value", "min", "max", "unit", "updated"])
        #expect(cpu["value"] as? Double == 47.5 && cpu["min"] as? Double == 20 && cpu["max"] as? Double == 90)
        #expect(cpu["unit"] as? String == "°C" && (cpu["updated"] as? Double ?? 0) > 1_700_000_000)
        let battery = try #require(m.first { $0["name"] as? String == "battery" })
        #expect(battery["value"] is NSNull && battery["unit"] is NSNull, "unset is null")

        let tasks = try Executable.run(["task", "list", "--json"] + db)
        #expect(tasks.status == 0, "\(tasks.stderr)")
        let t = try #require((try Self.parse(tasks.stdout)["tasks"] as? [[String: Any]])?.first)
        #expect(Set(t.keys) == [
            "name", "state", "done", "total", "fraction", "description", "cancellable", "cancelRequested", "pid", "started", "updated",
        ])
        #expect(t["name"] as? String == "sync" && t["state"] as? String == "running" && t["done"] as? Double == 50)
        #expect(t["fraction"] as? Double == 0.25 && t["description"] as? String == "Syncing \"photos\"" && t["cancellable"] as? Bool == true)
        #expect(t["pid"] as? Double == 1)

        let days = try Executable.run(["export", "--json"] + db)
        #expect(days.status == 0, "\(days.stderr)")
        let d = try #require((try Self.parse(days.stdout)["days"] as? [[String: Any]])?.first)
        #expect(Set(d.keys) == [
            "date", "move", "moveGoal", "moveTime", "moveTimeGoal", "exercise", "exerciseGoal", "stand", "standGoal", "moveMode",
            "steps", "stepsGoal",
        ])
        #expect(d["date"] as? String == "2026-11-29" && d["exercise"] as? Double == 25 && d["moveMode"] as? String == "activeEnergy")
        #expect(abs((d["move"] as? Double ?? 0) - 1460 / 4.184) < 0.01, "move in kcal: \(d["move"] ?? "")")
        // Into a file, the other tables too.
        let file = folder + "/tasks.json"
        #expect(try Executable.run(["export", "--json", "--table", "tasks", "--output", file] + db).status == 0)
        #expect(try Self.parse(try String(contentsOfFile: file, encoding: .utf8))["tasks"] is [[String: Any]])
        let emptyDays = try Executable.run(["export", "--json"] + ["--db", folder + "/other.db"])
        #expect(emptyDays.status == 66, "no store: \(emptyDays.stderr)")
    }

    @Test("--json where it does not go, and export without a format: exit 64 in one line")
    func misuse() throws {
        for (arguments, message) in [
            (["metric", "set", "a", "1", "--json"], "metric set: --json does not go with set"),
            (["task", "start", "a", "--json"], "task start: --json does not go with start"),
            (["export", "--csv", "--json"], "export: say --csv, --json or --readings (one of them)"),
            (["export"], "export: say --csv, --json or --readings (one of them)"),
        ] {
            let r = try Executable.run(arguments + ["--db", "/nonexistent/glance.db"])
            #expect(r.status == 64 && r.stderr.contains(message) && r.stderr.split(separator: "\n").count == 1, "\(arguments): \(r.stderr)")
        }
    }

    @Test("devices --json: cards, inputs and problems; without a card the problem is said and the status is 69")
    func devices() throws {
        let r = try Executable.run(["devices", "--json"])
        let document = try Self.parse(r.stdout)
        #expect(Set(document.keys) == ["cards", "inputs", "problems"])
        let cards = try #require(document["cards"] as? [[String: Any]])
        if cards.isEmpty {
            #expect(r.status == 69)
            let problems = try #require(document["problems"] as? [[String: Any]])
            #expect(problems.contains { ($0["problem"] as? String ?? "").contains("no DRM card") }, "\(problems)")
        } else {
            #expect(r.status == 0)
            for card in cards { #expect(Set(card.keys).isSuperset(of: ["path", "driver", "atomic", "connectors", "crtcs", "planes"])) }
        }
    }
}
