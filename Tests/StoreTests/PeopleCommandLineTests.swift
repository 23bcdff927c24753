import Activity
import Foundation
import TestSupport
import Testing

@testable import Store

/// `--person NAME|ID` through the real glance: log, goals, export (CSV, JSON, readings), import
/// (every kind: an export's XML, its CSV, a glance-readings file, Gadgetbridge's database) and
/// render write and read that person's days only; person 1 unless given; a person the store does
/// not have is refused with 64, naming who there is, and nothing is written.
@Suite("--person on the commands that read or write days", .serialized, .timeLimit(.minutes(10)))
struct PeopleCommandLineTests {
    static let day = "2026-11-29"

    /// glance with `arguments`, killed after two minutes (a hang guard).
    static func glance(_ arguments: [String], _ scratch: Scratch) throws -> GlanceCLI.Result {
        try GlanceCLI.run(arguments, in: scratch, killAfter: 120)
    }

    /// The goals of the tests' configuration (and no name), whatever the machine's default file says.
    static func config(_ scratch: Scratch) -> String {
        scratch.write("config.json", #"{"name": "", "goals": {"move": 500, "exercise": 30, "stand": 12}}"#)
    }

    /// A store with person 1 (Me), Ann (2) and Bo (3), and person 1's day logged.
    static func household(_ scratch: Scratch) throws {
        let me = try glance(
            ["log", "--date", day, "--move", "400", "--exercise", "40", "--stand", "10", "--db", scratch.db, "--config", config(scratch)],
            scratch)
        #expect(me.status == 0, "\(me.err)")
        let store = try Store(path: scratch.db)
        try store.addPerson(name: "Ann", now: 0)
        try store.addPerson(name: "Bo", now: 0)
    }

    @Test("log and goals: --person NAME or ID writes and reads that person's day and goals; person 1's unchanged")
    func logAndGoals() throws {
        let scratch = Scratch()
        try Self.household(scratch)
        let me = try snapshot(scratch.db, person: 1)
        let config = Self.config(scratch)
        var r = try Self.glance(
            ["log", "--person", "Ann", "--date", Self.day, "--move", "120", "--exercise", "15", "--db", scratch.db, "--config", config], scratch)
        #expect(r.status == 0 && r.out == "\(Self.day): move 120/500 kcal, exercise 15/30 min, stand —/12 h\n", "\(r.out) \(r.err)")
        // By id, and a name in another case: the same person.
        r = try Self.glance(["log", "--person", "2", "--date", Self.day, "--stand", "3", "--db", scratch.db, "--config", config], scratch)
        #expect(r.out == "\(Self.day): move 120/500 kcal, exercise 15/30 min, stand 3/12 h\n", "\(r.out) \(r.err)")
        r = try Self.glance(
            ["goals", "set", "--person", "ann", "--move", "300", "--from", "2026-11-01", "--db", scratch.db, "--config", config], scratch)
        #expect(r.status == 0 && r.out.contains("move 300 kcal"), "\(r.out) \(r.err)")
        r = try Self.glance(["log", "--person", "ANN", "--date", Self.day, "--move", "150", "--db", scratch.db, "--config", config], scratch)
        #expect(r.out.hasPrefix("\(Self.day): move 150/300 kcal"), "Ann's standing goal: \(r.out) \(r.err)")
        r = try Self.glance(["goals", "list", "--person", "Ann", "--db", scratch.db, "--config", config], scratch)
        #expect(r.status == 0 && r.out.contains("from 2026-11-01: move 300 kcal"), "\(r.out) \(r.err)")
        r = try Self.glance(["goals", "--db", scratch.db, "--config", config], scratch)
        #expect(r.status == 0 && !r.out.contains("from 2026-11-01"), "person 1 has no standing goals: \(r.out)")
        #expect(try snapshot(scratch.db, person: 1) == me, "person 1's day and goals as they were")
        let store = try Store(path: scratch.db, access: .read)
        store.person = 2
        #expect(try store.summary(for: CalendarDay(iso: Self.day)!) == ActivitySummary(
            activeEnergyBurned: .kilocalories(150), exerciseTime: 15, standHours: 3))
        store.person = 3
        #expect(try store.hasDays() == false && store.goalHistory().isEmpty)
        #expect(try Self.glance(["goals", "remove", "--from", "2026-11-01", "--person", "Bo", "--db", scratch.db], scratch).status == 65)
        #expect(try Self.glance(["goals", "remove", "--from", "2026-11-01", "--person", "Ann", "--db", scratch.db], scratch).status == 0)
        store.person = 2
        #expect(try store.goalHistory().isEmpty)
    }

    @Test("a person the store does not have: 64, naming what was given and who there is; nothing written")
    func unknownPerson() throws {
        let scratch = Scratch()
        try Self.household(scratch)
        let before = try snapshot(scratch.db)
        let commands: [[String]] = [
            ["log", "--person", "Cy", "--move", "5"], ["log", "--person", "9", "--move", "5"],
            ["goals", "set", "--person", "Cy", "--move", "300"], ["goals", "list", "--person", "Cy"],
            ["export", "--csv", "--person", "Cy"], ["export", "--json", "--person", "Cy"], ["export", "--readings", "--person", "4"],
            ["import", scratch.write("days.csv", "dateComponents,appleExerciseTime\n2026-11-28,5\n"), "--person", "Cy", "--quiet"],
            ["render", "--size", "240x240", "--explain", "--person", "Cy"], ["demo-data", "--person", "Cy"],
        ]
        for words in commands {
            let r = try Self.glance(words + ["--db", scratch.db], scratch)
            let given = words[words.firstIndex(of: "--person")! + 1]
            #expect(r.status == 64, "\(words): \(r.status) \(r.err)")
            #expect(r.err.contains("no person '\(given)'") && r.err.contains("1 Me, 2 Ann, 3 Bo"), "\(words): \(r.err)")
            #expect(r.out.isEmpty, "\(words): \(r.out)")
        }
        #expect(try snapshot(scratch.db) == before, "nothing written")
        // An import into a store that is not there yet leaves none behind.
        let none = scratch.file("none.db")
        let r = try Self.glance(["import", scratch.file("days.csv"), "--person", "Ann", "--quiet", "--db", none], scratch)
        #expect(r.status == 64 && r.err.contains("1 Me"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: none))
        // Bad use: empty, metrics and tasks are everyone's, render draws a person from a store.
        #expect(try Self.glance(["log", "--person", "", "--move", "5", "--db", scratch.db], scratch).status == 64)
        let metrics = try Self.glance(["export", "--csv", "--table", "metrics", "--person", "Ann", "--db", scratch.db], scratch)
        #expect(metrics.status == 64 && metrics.err.contains("everyone's"), "\(metrics.err)")
        let render = try Self.glance(["render", "--size", "240x240", "--explain", "--person", "Ann"], scratch)
        #expect(render.status == 64 && render.err.contains("--db"), "\(render.err)")
    }

    @Test("export and import: each kind lands in the person given; person 1's days and samples unchanged; round trips per person")
    func exportAndImport() throws {
        let scratch = Scratch()
        try Self.household(scratch)
        let me = try snapshot(scratch.db, person: 1)
        // Ann: an export's XML and its CSV form.
        let fixtures = Repository.root + "/Tests/Fixtures/apple-health"
        for file in ["synthetic-export.xml", "synthetic-activitysummary.csv"] {
            let r = try Self.glance(["import", fixtures + "/" + file, "--person", "Ann", "--quiet", "--db", scratch.db], scratch)
            #expect(r.status == 0 && r.out.contains("imported"), "\(file): \(r.out) \(r.err)")
        }
        // Ann's samples, written here, out as readings and into Bo with glance import.
        do {
            let store = try Store(path: scratch.db)
            store.person = 2
            let day = CalendarDay(iso: Self.day)!
            let start = Int64(day.daysSinceEpoch) * 86_400 + 36_000
            try store.putSamples((0..<50).map {
                Store.Sample(metric: .activeEnergy, start: start + Int64($0) * 60, source: "Watch", quantity: 2.5, unit: "kcal", value: 2.5, day: day)
            })
        }
        let readings = try Self.glance(["export", "--readings", "--person", "Ann", "--db", scratch.db], scratch)
        #expect(readings.status == 0 && readings.out.contains("Watch"), "\(readings.err)")
        let mine = try Self.glance(["export", "--readings", "--db", scratch.db], scratch)
        #expect(mine.status == 0 && !mine.out.contains("Watch"), "person 1 has no samples: \(mine.out)")
        let file = scratch.write("ann.json", readings.out)
        var r = try Self.glance(["import", file, "--person", "3", "--quiet", "--db", scratch.db], scratch)
        #expect(r.status == 0, "\(r.out) \(r.err)")
        let bo = try Self.glance(["export", "--readings", "--person", "Bo", "--db", scratch.db], scratch)
        #expect(bo.out == readings.out, "Bo's samples are Ann's, read back exactly")
        // Ann's days as CSV into Bo: Bo's export is Ann's.
        let annCSV = try Self.glance(["export", "--csv", "--person", "Ann", "--db", scratch.db], scratch)
        #expect(annCSV.status == 0 && annCSV.out.split(separator: "\n").count == 1 + 2 + 12 + 1, "\(annCSV.out)")
        r = try Self.glance(["import", scratch.write("ann.csv", annCSV.out), "--person", "Bo", "--quiet", "--db", scratch.db], scratch)
        #expect(r.status == 0, "\(r.err)")
        let boCSV = try Self.glance(["export", "--csv", "--person", "Bo", "--db", scratch.db], scratch)
        #expect(boCSV.out == annCSV.out, "Bo's days are Ann's")
        // JSON follows the person too.
        let annJSON = try Self.glance(["export", "--json", "--person", "2", "--db", scratch.db], scratch)
        let meJSON = try Self.glance(["export", "--json", "--db", scratch.db], scratch)
        #expect(annJSON.status == 0 && annJSON.out.contains("\"date\":\"2021-03-01\""), "\(annJSON.out.prefix(300))")
        #expect(!meJSON.out.contains("2021-03-01") && meJSON.out.contains(Self.day), "\(meJSON.out)")
        // Gadgetbridge's database: Bo's band.
        let band = scratch.file("Gadgetbridge.db")
        let minute: Int64 = 1_709_510_400 + 7 * 3600
        try GadgetbridgeSchema.make(
            band,
            [
                GadgetbridgeSchema.device, GadgetbridgeSchema.userAttributes, GadgetbridgeSchema.miBand,
                "INSERT INTO DEVICE VALUES (1, 'Mi Band 6', 'Maker', 'AA:BB:CC:00:00:01', 0, 'MIBAND6', NULL, NULL, NULL);",
                "INSERT INTO USER_ATTRIBUTES VALUES (1, 175, 70, 8, 8000, 1700000000000, NULL, 1);",
                "INSERT INTO MI_BAND_ACTIVITY_SAMPLE VALUES "
                    + (0..<30).map { "(\(minute + Int64($0) * 60), 1, 1, 10, 110, 1, 95)" }.joined(separator: ", ") + ";",
            ])
        r = try Self.glance(["import", band, "--person", "Bo", "--quiet", "--db", scratch.db], scratch)
        #expect(r.status == 0, "\(r.out) \(r.err)")
        let store = try Store(path: scratch.db, access: .read)
        store.person = 3
        let steps = try store.allSamples().filter { $0.feed == .gadgetbridge }
        #expect(steps.filter { $0.metric == .steps }.reduce(0) { $0 + $1.value } == 3300, "Bo's band's steps")
        #expect(try store.goalHistory().last?.goals.steps == 8000, "the band's step goal is Bo's")
        store.person = 2
        #expect(try store.allSamples().allSatisfy { $0.feed == .healthAutoExport && $0.source == "Watch" })
        #expect(try store.goalHistory().isEmpty)
        // The demo days, Ann's: 28 more days of hers.
        r = try Self.glance(["demo-data", "--person", "Ann", "--end", "2026-11-20", "--db", scratch.db], scratch)
        #expect(r.status == 0 && r.out.contains("loaded 28 demo days"), "\(r.out) \(r.err)")
        store.person = 2
        #expect(try store.dayCount() == 2 + 12 + 28)
        // Person 1: as they were, through all of it.
        #expect(try snapshot(scratch.db, person: 1) == me)
    }

    @Test("render --db --person draws that person's day, with their name; person 1's without")
    func render() throws {
        let scratch = Scratch()
        try Self.household(scratch)
        let ann = try Self.glance(
            ["log", "--person", "Ann", "--date", Self.day, "--move", "123", "--move-goal", "321", "--db", scratch.db], scratch)
        #expect(ann.status == 0, "\(ann.err)")
        let words = [
            "render", "--db", scratch.db, "--date", Self.day, "--today", Self.day, "--size", "400x400", "--explain", "--config",
            Self.config(scratch),
        ]
        let annPicture = try Self.glance(words + ["--person", "Ann"], scratch)
        #expect(annPicture.status == 0, "\(annPicture.err)")
        #expect(annPicture.out.contains("\"text\":\"123/321\"") && annPicture.out.contains("\"text\":\"Ann\""), "\(annPicture.out)")
        let mePicture = try Self.glance(words, scratch)
        #expect(mePicture.status == 0 && mePicture.out.contains("\"text\":\"400/500\"") && !mePicture.out.contains("123/321"), "\(mePicture.out)")
        let byID = try Self.glance(words + ["--person", "1"], scratch)
        #expect(byID.out.contains("\"text\":\"400/500\"") && byID.out.contains("\"text\":\"Me\""), "\(byID.out)")
        // --name says otherwise.
        let named = try Self.glance(words + ["--person", "2", "--name", "Annie"], scratch)
        #expect(named.out.contains("\"text\":\"Annie\"") && !named.out.contains("\"text\":\"Ann\""), "\(named.out)")
    }
}
