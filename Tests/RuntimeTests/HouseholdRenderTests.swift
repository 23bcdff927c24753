import Activity
import Foundation
import Store
import TestSupport
import Testing

@testable import Runtime

/// The household's screens from a real store (issue 39): each person's days read as theirs
/// (`StoreData.household`), and `glance render --db` drawing the family and the competition of
/// the store's people.
@Suite("Household: the store's people on the family and competition screens", .timeLimit(.minutes(10)))
struct HouseholdRenderTests {
    static let day = CalendarDay(year: 2026, month: 12, day: 9)!

    /// A store with person 1 and Ann, each with their own day and goals.
    static func store(_ folder: ScratchFolder) throws -> String {
        let db = folder.path + "/glance.db"
        let store = try Store(path: db)
        try store.setSummary(
            ActivitySummary(
                activeEnergyBurned: .kilocalories(300), activeEnergyBurnedGoal: .kilocalories(500), exerciseTime: 20,
                exerciseTimeGoal: 30, standHours: 5, standHoursGoal: 12), for: day)
        let ann = try store.addPerson(name: "Ann", now: 1_765_000_000)
        store.person = ann.id
        try store.setGoals(Goals(move: .kilocalories(400), exercise: 30, stand: 12), from: day.adding(days: -10))
        try store.setSummary(ActivitySummary(activeEnergyBurned: .kilocalories(450), exerciseTime: 35, standHours: 9), for: day)
        try store.setSummary(ActivitySummary(activeEnergyBurned: .kilocalories(800), exerciseTime: 60, standHours: 12), for: day.adding(days: -1))
        return db
    }

    @Test("StoreData.household: every person with their own shown days and goals; read once until the store changes")
    func household() throws {
        let folder = ScratchFolder("household-data")
        let db = try Self.store(folder)
        let data = try StoreData(path: db, gauges: [], log: { _ in })
        let days = [Self.day.adding(days: -1), Self.day]
        let people = data.household(days)
        #expect(people.map(\.name) == ["Me", "Ann"])
        #expect(people[0].days[Self.day]?.activeEnergyBurned?.value == 300 && people[0].days[Self.day.adding(days: -1)] == nil)
        #expect(people[1].days[Self.day]?.activeEnergyBurned?.value == 450)
        #expect(people[1].days[Self.day]?.activeEnergyBurnedGoal?.value == 400, "Ann's own standing goals")
        #expect(people[1].days[Self.day.adding(days: -1)]?.exerciseTime == 60)
        let queries = data.queries
        _ = data.household(days)
        #expect(data.queries == queries, "the second look is the cache's")
        #expect(data.store.person == 1, "the store is left on person 1")
        #expect(data.summary(for: Self.day)?.activeEnergyBurned?.value == 300, "the ring screen is still person 1's")
    }

    @Test("glance render --screen family and --screen competition draw the store's people, their figures and points")
    func render() throws {
        let folder = ScratchFolder("household-render")
        let db = try Self.store(folder)
        let config = folder.path + "/config.json"
        try #"{"household": {"start": "2026-12-08"}}"#.write(toFile: config, atomically: true, encoding: .utf8)
        func texts(_ screen: String) throws -> [String: String] {
            let r = try runGlance([
                "render", "--db", db, "--config", config, "--today", "\(Self.day)", "--screen", screen, "--size", "800x480",
                "--explain", "--output", folder.path + "/\(screen).png",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
            var found: [String: String] = [:]
            for t in json?["texts"] as? [[String: Any]] ?? [] {
                if let e = t["element"] as? String, let s = t["text"] as? String { found[e] = s }
            }
            return found
        }
        let family = try texts("family")
        #expect(family["family.1.name"] == "Me" && family["family.2.name"] == "Ann", "\(family)")
        #expect(family["family.1.figure.move.value"] == "300/500" && family["family.2.figure.move.value"] == "450/400", "\(family)")
        #expect(family["family.2.figure.exercise.value"] == "35/30" && family["family.2.figure.stand.value"] == "9/12", "\(family)")
        // The competition from 2026-12-08: Ann 200 + 200 + 100 the day before, 112 + 116 + 75 today
        // (303: 500 in all); me nothing the day before, 60 + 66 + 41 today (167).
        let competition = try texts("competition")
        let values = Set(competition.values)
        #expect(values.contains("Ann") && values.contains("Me"), "\(competition)")
        #expect(values.contains("803") && values.contains("303") && values.contains("167"), "\(competition)")
    }
}
