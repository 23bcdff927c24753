import Activity
import Foundation
import TestSupport
import Testing

@testable import Store

/// A step counter's Move (steps mode), samples of several feeds on one day (one counts, never
/// two added), where each day came from, and the store of the release before migrated with
/// nothing lost: on a real store file, and through the real program.
@Suite("steps, feeds and a day's source", .timeLimit(.minutes(10)))
struct StepsAndFeedsTests {
    static let day = CalendarDay(iso: "2026-11-29")!
    /// 10:00 UTC on `day`.
    static let morning = Int64(day.daysSinceEpoch) * 86_400 + 36_000

    static func sample(
        _ metric: SampleMetric, _ minute: Int64, _ value: Double, feed: Store.Feed, source: String = "", unit: String? = nil
    ) -> Store.Sample {
        Store.Sample(
            metric: metric, start: morning + minute * 60, source: source, quantity: value,
            unit: unit ?? Store.ringUnit(metric), value: value, day: day, feed: feed)
    }

    @Test("a day with steps and no energy moves in steps, against the standing step goal; energy on the day keeps it energy")
    func stepsMode() throws {
        let scratch = Scratch()
        let store = try Store(path: scratch.db)
        try store.putSamples((0..<60).map { Self.sample(.steps, Int64($0), 100, feed: .gadgetbridge) })
        try store.setGoals(Goals(steps: 8000), from: Self.day.adding(days: -10))
        let shown = try #require(try store.shownSummary(for: Self.day))
        #expect(shown.moveMode == .steps && shown.steps == 6000 && shown.stepsGoal == 8000, "\(shown)")
        #expect(RingSet(shown).rings.first?.state == .progress(0.75))
        // The configuration's step goal where the store has none.
        let other = Self.day.adding(days: -20)
        try store.putSamples([
            Store.Sample(metric: .steps, start: Self.morning - 20 * 86_400, quantity: 2500, unit: "steps", value: 2500, day: other, feed: .gadgetbridge)
        ])
        #expect(try store.shownSummary(for: other, defaults: Goals(steps: 10_000))?.stepsGoal == 10_000)
        // Energy from any feed: Move is energy again; the steps are kept beside it.
        try store.putSamples([Self.sample(.activeEnergy, 0, 120, feed: .healthConnect)])
        let withEnergy = try #require(try store.shownSummary(for: Self.day, defaults: Goals(move: .kilocalories(400))))
        #expect(withEnergy.moveMode == .activeEnergy && withEnergy.activeEnergyBurned == .kilocalories(120) && withEnergy.steps == 6000)
        #expect(RingSet(withEnergy).rings.first?.state == .progress(0.3))
    }

    @Test("two feeds on one day: the one whose samples sum to the most counts, alone; the other is kept, not added")
    func oneFeedADay() throws {
        let scratch = Scratch()
        let store = try Store(path: scratch.db)
        // The same walk counted by a phone (Health Connect) and a band (Gadgetbridge).
        try store.putSamples((0..<30).map { Self.sample(.steps, Int64($0), 110, feed: .healthConnect) })
        try store.putSamples((0..<30).map { Self.sample(.steps, Int64($0), 100, feed: .gadgetbridge) })
        try store.putSamples((0..<20).map { Self.sample(.exerciseTime, Int64($0), 1, feed: .gadgetbridge) })
        try store.putSamples((0..<25).map { Self.sample(.exerciseTime, Int64($0), 1, feed: .healthConnect) })
        let shown = try #require(try store.shownSummary(for: Self.day))
        #expect(shown.steps == 3300, "Health Connect's 3,300, not 6,300")
        #expect(shown.exerciseTime == 25, "Health Connect's 25 minutes, not 45")
        let feeds = try #require(try store.sampleFeeds(from: Self.day, through: Self.day)[Self.day])
        #expect(feeds[.steps] == .healthConnect && feeds[.exerciseTime] == .healthConnect)
        #expect(try store.sampleCount() == 105, "every sample kept")
        // A tie: the first feed by name, so the day does not change between readings.
        try store.putSamples((30..<33).map { Self.sample(.steps, Int64($0), 100, feed: .gadgetbridge) })
        #expect(try store.shownSummary(for: Self.day)?.steps == 3300)
        #expect(try store.sampleFeeds(from: Self.day, through: Self.day)[Self.day]?[.steps] == .gadgetbridge)
        #expect(try store.dayOrigins(from: Self.day, through: Self.day)[Self.day] == "Gadgetbridge, Health Connect")
        // The same sample through two feeds is two samples; sent again through one, it replaces itself.
        let again = try store.putSamples([Self.sample(.steps, 0, 110, feed: .healthConnect)])
        #expect(again.unchanged == 1 && again.new == 0)
    }

    @Test("folded days keep their figures and say their feeds; an import says the file, glance log its own name")
    func sources() throws {
        let scratch = Scratch()
        let store = try Store(path: scratch.db)
        try store.putSamples((0..<40).map { Self.sample(.steps, Int64($0), 100, feed: .gadgetbridge) })
        try store.putSamples([Self.sample(.standHours, 0, 1, feed: .gadgetbridge)])
        #expect(try store.foldSamples(before: Self.day.adding(days: 1)) == 1)
        #expect(try store.sampleCount() == 0)
        let folded = try #require(try store.summary(for: Self.day))
        #expect(folded.moveMode == .steps && folded.steps == 4000 && folded.standHours == 1)
        #expect(try store.sources(from: Self.day, through: Self.day)[Self.day] == "Gadgetbridge")

        let csv = scratch.write("days.csv", "dateComponents,activeEnergyBurned,activeEnergyBurnedGoal\n2026-11-20,300,500\n")
        let imported = try GlanceCLI.run(["import", csv, "--db", scratch.db, "--quiet"], in: scratch)
        #expect(imported.status == 0, "\(imported.err)")
        let logged = try GlanceCLI.run(["log", "--date", "2026-11-21", "--move", "200", "--db", scratch.db], in: scratch)
        #expect(logged.status == 0 && !logged.out.contains("(from"), "\(logged.out)")
        let csvDay = try GlanceCLI.run(["log", "--date", "2026-11-20", "--exercise", "5", "--db", scratch.db], in: scratch)
        #expect(csvDay.out.hasSuffix("(from CSV file)\n"), "\(csvDay.out)")
        let reader = try Store(path: scratch.db, access: .read)
        let origins = try reader.dayOrigins(from: .earliest, through: .latest)
        #expect(origins[CalendarDay(iso: "2026-11-20")!] == "CSV file" && origins[CalendarDay(iso: "2026-11-21")!] == "glance log")
    }

    @Test("glance export --csv writes steps, their goal and each day's source; glance import reads them back exactly")
    func csvRoundTrip() throws {
        let scratch = Scratch()
        do {
            let store = try Store(path: scratch.db)
            try store.putSamples((0..<45).map { Self.sample(.steps, Int64($0), 123, feed: .gadgetbridge) })
            try store.putSamples([Self.sample(.exerciseTime, 0, 7, feed: .gadgetbridge)])
            try store.setGoals(Goals(exercise: 30, stand: 12, steps: 7500), from: Self.day.adding(days: -1))
        }
        let export = try GlanceCLI.run(["export", "--csv", "--db", scratch.db], in: scratch)
        #expect(export.status == 0, "\(export.err)")
        let lines = export.out.split(separator: "\n")
        #expect(lines.first?.hasSuffix(",moveMode,steps,stepsGoal,source") == true, "\(lines.first ?? "")")
        #expect(lines.contains { $0.hasPrefix("2026-11-29,") && $0.hasSuffix(",steps,5535,7500,Gadgetbridge") }, "\(export.out)")
        let file = scratch.write("export.csv", export.out)
        let copy = scratch.file("copy.db")
        let imported = try GlanceCLI.run(["import", file, "--db", copy, "--quiet"], in: scratch)
        #expect(imported.status == 0, "\(imported.err)")
        let store = try Store(path: copy, access: .read)
        let day = try #require(try store.shownSummary(for: Self.day))
        #expect(day.moveMode == .steps && day.steps == 5535 && day.stepsGoal == 7500 && day.exerciseTime == 7)
        #expect(try store.sources(from: Self.day, through: Self.day)[Self.day] == "Gadgetbridge")
        let again = try GlanceCLI.run(["export", "--csv", "--db", copy], in: scratch)
        #expect(again.out == export.out, "the export of the import is the export")
    }

    @Test("glance log --steps and goals set --steps: a day in steps mode, said so")
    func commandLine() throws {
        let scratch = Scratch()
        let config = scratch.write("config.json", #"{"goals": {"steps": 9000}}"#)
        let r = try GlanceCLI.run(
            ["log", "--date", "2026-11-29", "--steps", "4500", "--move-mode", "steps", "--db", scratch.db, "--config", config],
            in: scratch)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix("2026-11-29: move 4500/9000 steps (steps mode)"), "\(r.out)")
        let goals = try GlanceCLI.run(["goals", "set", "--steps", "6000", "--from", "2026-11-01", "--db", scratch.db], in: scratch)
        #expect(goals.status == 0 && goals.out.contains("steps 6000"), "\(goals.out) \(goals.err)")
        let bad = try GlanceCLI.run(["goals", "set", "--steps", "300000", "--db", scratch.db], in: scratch)
        #expect(bad.status == 64 && bad.err.contains("--steps"), "\(bad.err)")
    }

    @Test("a store of the release before (schema 3) is migrated: days, samples, goals and their feeds kept")
    func migratesAVersion3Store() throws {
        let scratch = Scratch()
        do {
            let db = try Connection(path: scratch.db, mode: .readWrite(create: true))
            for migration in Schema.migrations.prefix(3) { try db.execute(migration) }
            try db.execute(
                """
                PRAGMA user_version = 3;
                INSERT INTO day_summaries (date, active_energy_burned, active_energy_burned_unit, active_energy_burned_goal,
                    active_energy_burned_goal_unit, move_time, move_time_goal, exercise_time, exercise_time_goal, stand_hours,
                    stand_hours_goal, move_mode)
                    VALUES ('2026-11-20', 1460, 'kJ', 500, 'kcal', NULL, NULL, 12, 30, 7, 12, 'activeEnergy'),
                           ('2026-11-21', NULL, NULL, NULL, NULL, 40, 60, 15, 30, 9, 12, 'moveTime');
                INSERT INTO samples (metric, start, source, quantity, unit, value, day)
                    VALUES ('active_energy', \(Self.morning), 'Watch', 418.4, 'kJ', 100, '2026-11-29'),
                           ('active_energy', \(Self.morning), 'iPhone', 20, 'kcal', 20, '2026-11-29'),
                           ('apple_exercise_time', \(Self.morning), '', 4, 'min', 4, '2026-11-29');
                INSERT INTO goals (start, move, move_unit, exercise, stand, updated) VALUES ('2026-11-01', 600, 'kcal', 30, 12, 1);
                """)
        }
        let store = try Store(path: scratch.db)
        #expect(try store.schemaVersion() == Schema.currentVersion)
        #expect(try store.summary(for: CalendarDay(iso: "2026-11-20")!) == ActivitySummary(
            activeEnergyBurned: Energy(1460, .kilojoule), activeEnergyBurnedGoal: .kilocalories(500), exerciseTime: 12,
            exerciseTimeGoal: 30, standHours: 7, standHoursGoal: 12))
        #expect(try store.summary(for: CalendarDay(iso: "2026-11-21")!) == ActivitySummary(
            moveTime: 40, moveTimeGoal: 60, exerciseTime: 15, exerciseTimeGoal: 30, standHours: 9, standHoursGoal: 12,
            moveMode: .moveTime))
        let shown = try #require(try store.shownSummary(for: Self.day))
        #expect(shown.activeEnergyBurned == .kilocalories(120) && shown.exerciseTime == 4 && shown.activeEnergyBurnedGoal == .kilocalories(600))
        #expect(try store.sampleFeeds(from: Self.day, through: Self.day)[Self.day]?[.activeEnergy] == .healthAutoExport)
        #expect(try store.goalHistory() == [Store.GoalPeriod(
            start: CalendarDay(iso: "2026-11-01")!, goals: Goals(move: .kilocalories(600), exercise: 30, stand: 12), updated: 1)])
        #expect(try store.sampleCount() == 3)
        // The new things on the migrated file.
        try store.putSamples([Self.sample(.steps, 0, 50, feed: .gadgetbridge)])
        #expect(try store.shownSummary(for: Self.day)?.steps == 50)
    }
}
