import Foundation
import TestSupport
import Testing

/// The Raspberry Pi guide's §5 as a new owner runs it: `glance log` on a fresh store draws all
/// three rings (the configuration's goals), and `demo-data` adds what it says it adds.
@Suite("the guide's data commands: log takes the goals, demo-data says what it adds", .timeLimit(.minutes(10)))
struct GuideCommandsTests {
    /// The store's days as `glance export --json` writes them, by date.
    static func days(_ db: String, in scratch: Scratch) throws -> [String: [String: Any]] {
        let r = try GlanceCLI.run(["export", "--json", "--db", db], in: scratch)
        try #require(r.status == 0, "\(r.err)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let days = try #require(json["days"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: days.map { ($0["date"] as? String ?? "?", $0) })
    }

    @Test("§5's `glance log --move 350 --exercise 20 --stand 8` on a fresh store: every ring has its goal (500, 30, 12)")
    func logTakesTheDefaultGoals() throws {
        let scratch = Scratch()
        // The installed configuration, which is the defaults written out.
        let config = Repository.root + "/device/config.json"
        let r = try GlanceCLI.run(
            ["log", "--date", "2026-03-02", "--move", "350", "--exercise", "20", "--stand", "8", "--db", scratch.db, "--config", config],
            in: scratch)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == "2026-03-02: move 350/500 kcal, exercise 20/30 min, stand 8/12 h\n")
        // As drawn: three rings, each figure against its goal.
        let picture = try GlanceCLI.run(
            ["render", "--db", scratch.db, "--date", "2026-03-02", "--today", "2026-03-02", "--size", "400x400", "--explain", "--config", config],
            in: scratch)
        #expect(picture.status == 0, "\(picture.err)")
        for figure in ["350/500", "20/30", "8/12"] { #expect(picture.out.contains("\"text\":\"\(figure)\""), "\(figure) drawn: \(picture.out)") }
    }

    @Test("the configuration's goals, not over a goal the day has; a goal cleared follows them again; null gives none")
    func configuredGoals() throws {
        let scratch = Scratch()
        let config = scratch.write("goals.json", #"{"goals": {"move": 600, "exercise": null, "stand": 10}}"#)
        func log(_ words: [String]) throws -> String {
            let r = try GlanceCLI.run(["log"] + words + ["--db", scratch.db, "--config", config], in: scratch)
            #expect(r.status == 0, "\(r.err)")
            return r.out
        }
        #expect(try log(["--date", "2026-03-02", "--move", "350", "--exercise", "20"]) == "2026-03-02: move 350/600 kcal, exercise 20/— min, stand —/10 h\n")
        // The day has its own Move goal: kept.
        #expect(try log(["--date", "2026-03-03", "--move", "10", "--move-goal", "420"]).hasPrefix("2026-03-03: move 10/420 kcal"))
        #expect(try log(["--date", "2026-03-03", "--move", "20"]).hasPrefix("2026-03-03: move 20/420 kcal"))
        // A goal of the day's own cleared: the day follows the configuration's again; 0 is none.
        #expect(try log(["--date", "2026-03-03", "--move-goal", "-"]).hasPrefix("2026-03-03: move 20/600 kcal"))
        #expect(try log(["--date", "2026-03-02", "--move", "400", "--stand-goal", "0"]) == "2026-03-02: move 400/600 kcal, exercise 20/— min, stand —/0 h\n")
        #expect(try log(["--date", "2026-03-02", "--stand", "3"]) == "2026-03-02: move 400/600 kcal, exercise 20/— min, stand 3/0 h\n")
    }

    @Test("without --config the default file is read (missing: the built-in goals); a named one missing is 66, invalid 78")
    func configurationErrors() throws {
        let scratch = Scratch()
        let missing = try GlanceCLI.run(["log", "--move", "5", "--db", scratch.db, "--config", scratch.file("none.json")], in: scratch)
        #expect(missing.status == 66 && missing.err.contains("none.json: cannot read the configuration"))
        let bad = scratch.write("bad.json", #"{"goals": {"move": "lots"}}"#)
        let invalid = try GlanceCLI.run(["log", "--move", "5", "--db", scratch.db, "--config", bad], in: scratch)
        #expect(invalid.status == 78 && invalid.err.contains("$.goals.move"), "\(invalid.err)")
        let store = try GlanceCLI.run(["export", "--json", "--db", scratch.db], in: scratch)
        #expect(store.status == 66, "a refused command made the store: \(store.out)")
    }

    @Test("demo-data adds the days and the three metrics it names, and says a gauge shows one only once configured")
    func demoDataSaysWhatItAdds() throws {
        let scratch = Scratch()
        let r = try GlanceCLI.run(["demo-data", "--end", "2026-01-10", "--db", scratch.db], in: scratch)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("loaded 28 demo days (2025-12-14 to 2026-01-10) and 3 metrics (cpu-temperature, living-room, battery)"))
        let metrics = try GlanceCLI.run(["metric", "list", "--db", scratch.db], in: scratch)
        let names = metrics.out.split(separator: "\n").map { String($0.split(separator: " ")[0]) }
        #expect(names.sorted() == ["battery", "cpu-temperature", "living-room"], "\(metrics.out)")
        let help = try GlanceCLI.run(["demo-data", "--help"], in: scratch).out.replacingOccurrences(of: "\n", with: " ")
            .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        #expect(help.contains("three metrics, cpu-temperature, living-room and battery"), "\(help)")
        #expect(help.contains("the default configuration has none"), "\(help)")
        #expect(!help.contains("a few gauges"))
        // The default configuration indeed lists no gauges (so the help's word is true).
        let defaults = try String(contentsOfFile: Repository.root + "/device/config.json", encoding: .utf8)
        #expect(defaults.contains(#""gauges": [],"#))
    }
}
