import Activity
import Foundation
import TestSupport
import Testing

@testable import Store
import HealthExport

/// People in the store (schema 5, issue 39): each person's days, samples and goals apart from the
/// others', the names and colours they may have, at most eight of them, and a store of the release
/// before (schema 4) migrated with everything as person 1's.
@Suite("people in the store: each person's days, samples and goals apart", .timeLimit(.minutes(10)))
struct PeopleTests {
    static let day = CalendarDay(iso: "2026-11-29")!
    /// 10:00 UTC on `day`.
    static let morning = Int64(day.daysSinceEpoch) * 86_400 + 36_000

    static func sample(_ metric: SampleMetric, _ minute: Int64, _ value: Double, feed: Store.Feed = .healthAutoExport)
        -> Store.Sample
    {
        Store.Sample(
            metric: metric, start: morning + minute * 60, source: "Watch", quantity: value, unit: Store.ringUnit(metric),
            value: value, day: day, feed: feed)
    }

    @Test("a new store has person 1, Me, in the palette's first colour; people are listed and found by id or name")
    func personOne() throws {
        let scratch = Scratch()
        let store = try Store(path: scratch.db)
        #expect(store.person == 1)
        let people = try store.people()
        #expect(people.count == 1)
        #expect(people.first?.id == 1 && people.first?.name == "Me" && people.first?.colour == Person.palette[0])
        #expect(people.first?.lastPush == nil)
        let ann = try store.addPerson(name: "Ann", now: 1_700_000_000)
        #expect(ann == Person(id: 2, name: "Ann", colour: Person.palette[1], created: 1_700_000_000))
        #expect(try store.people() == [people[0], ann])
        #expect(try store.person("2") == ann)
        #expect(try store.person("ann") == ann)
        #expect(try store.person("ANN") == ann)
        #expect(try store.person("me")?.id == 1)
        #expect(try store.person("3") == nil)
        #expect(try store.person("Bob") == nil)
        #expect(try store.person("99999999999999999999999") == nil)
        try store.notePush(person: 2, at: 1_700_000_100)
        #expect(try store.person("2")?.lastPush == 1_700_000_100)
        try store.renamePerson(2, to: "Anna")
        try store.setColour(2, "#B388FF")
        #expect(try store.person("2") == Person(id: 2, name: "Anna", colour: "#b388ff", created: 1_700_000_000, lastPush: 1_700_000_100))
        let unknown = try #require(expectError(StoreError.self) { try store.requirePerson("Bob") })
        #expect(unknown.kind == .invalidArgument && unknown.exitStatus == .usage)
        #expect(unknown.message.contains("'Bob'") && unknown.message.contains("1 Me, 2 Anna"), "\(unknown.message)")
    }

    @Test("two people's days, samples and goals are kept apart: writes to person 2 never change person 1's")
    func keptApart() throws {
        let scratch = Scratch()
        let store = try Store(path: scratch.db)
        // Person 1's: a day of their own, samples, goals.
        try store.setSummary(ActivitySummary(activeEnergyBurned: .kilocalories(300), exerciseTime: 20, standHours: 8), for: Self.day.adding(days: -1))
        try store.putSamples((0..<30).map { Self.sample(.activeEnergy, Int64($0), 2) })
        try store.setGoals(Goals(move: .kilocalories(500), exercise: 30, stand: 12), from: Self.day.adding(days: -30))
        let before = try snapshot(scratch.db, person: 1)
        let shownBefore = try store.shownDays(from: .earliest, through: .latest)

        let ann = try store.addPerson(name: "Ann", now: 0)
        store.person = ann.id
        #expect(try store.hasDays() == false && store.dayCount() == 0 && store.sampleCount() == 0 && store.goalHistory().isEmpty)
        // The same keys as person 1's: other values, kept apart.
        try store.setSummary(ActivitySummary(activeEnergyBurned: .kilocalories(111), exerciseTime: 5), for: Self.day.adding(days: -1))
        try store.putSamples((0..<30).map { Self.sample(.activeEnergy, Int64($0), 3) })
        try store.putSamples((0..<10).map { Self.sample(.exerciseTime, Int64($0), 1) })
        try store.setGoals(Goals(move: .kilocalories(250), exercise: 20, stand: 10), from: Self.day.adding(days: -30))
        try store.setSource("glance log", for: Self.day.adding(days: -1))
        #expect(try store.dayCount() == 1 && store.sampleCount() == 40 && store.goalHistory().count == 1)
        let shownAnn = try #require(try store.shownSummary(for: Self.day))
        // Ann's sums: 30 samples of 3 kcal, 10 of 1 min; her goals.
        #expect(shownAnn.activeEnergyBurned == .kilocalories(90) && shownAnn.exerciseTime == 10)
        #expect(shownAnn.activeEnergyBurnedGoal == .kilocalories(250) && shownAnn.exerciseTimeGoal == 20)
        #expect(try store.allSamples().count == 40)

        store.person = 1
        #expect(try snapshot(scratch.db, person: 1) == before, "person 1's store as it was")
        #expect(try store.shownDays(from: .earliest, through: .latest).map(\.summary) == shownBefore.map(\.summary))
        let shownMe = try #require(try store.shownSummary(for: Self.day))
        #expect(shownMe.activeEnergyBurned == .kilocalories(60) && shownMe.exerciseTime == nil)
        #expect(shownMe.activeEnergyBurnedGoal == .kilocalories(500))
        #expect(try store.sampleCount() == 30 && store.allSamples().allSatisfy { $0.value == 2 })
        // Folding person 1's samples leaves Ann's alone.
        #expect(try store.foldSamples(before: Self.day.adding(days: 1)) == 1)
        #expect(try store.sampleCount() == 0)
        store.person = ann.id
        #expect(try store.sampleCount() == 40)
        #expect(try store.removeGoals(from: Self.day.adding(days: -30)))
        store.person = 1
        #expect(try store.goalHistory().count == 1)
    }

    @Test("removing a person removes their days, samples and goals, in one go, and nobody else's; person 1 is refused")
    func removal() throws {
        let scratch = Scratch()
        let store = try Store(path: scratch.db)
        for name in ["Ann", "Bo"] { try store.addPerson(name: name, now: 0) }
        for id in 1...3 {
            store.person = id
            try store.setSummary(ActivitySummary(exerciseTime: Double(id)), for: Self.day)
            try store.putSamples([Self.sample(.standHours, 0, Double(id))])
            try store.setGoals(Goals(exercise: Double(10 * id)), from: Self.day)
        }
        store.person = 1
        let me = try snapshot(scratch.db, person: 1)
        let bo = try snapshot(scratch.db, person: 3)
        #expect(try snapshot(scratch.db, person: 2) != snapshot(scratch.db, person: 3))
        #expect(try store.removePerson(2))
        #expect(try store.removePerson(2) == false)
        #expect(try store.people().map(\.name) == ["Me", "Bo"])
        #expect(try snapshot(scratch.db, person: 1) == me)
        #expect(try snapshot(scratch.db, person: 3) == bo)
        store.person = 3
        #expect(try store.dayCount() == 1 && store.sampleCount() == 1 && store.goalHistory().count == 1)
        // Nothing of person 2's is left anywhere.
        for table in ["day_summaries", "samples", "goals"] {
            #expect(try store.db.integer("SELECT count(*) FROM \(table) WHERE person = 2") == 0, "\(table)")
        }
        let refused = try #require(expectError(StoreError.self) { try store.removePerson(1) })
        #expect(refused.kind == .invalidArgument && refused.message.contains("person 1 (Me)"), "\(refused.message)")
        // A removed person's id is not given again (their token file named it).
        #expect(try store.addPerson(name: "Cy", now: 0).id == 4)
    }

    @Test("names: 1 to 32 characters, no control or reordering character, not all digits, unique ignoring case")
    func nameRules() throws {
        let scratch = Scratch()
        let store = try Store(path: scratch.db)
        let refused: [(String, String)] = [
            ("", "empty"), (String(repeating: "a", count: 33), "at most 32"), ("Ann\nBo", "control"), ("Ann\u{1B}[2J", "control"),
            ("\u{202E}nnA", "reordering"), ("Ann\u{2066}", "reordering"), ("A\u{200F}b", "reordering"), (" Ann", "space"),
            ("Ann ", "space"), ("42", "only digits"), ("007", "only digits"), ("-x", "option"), ("me", "already a person named 'Me'"),
            ("ME", "already"),
        ]
        for (name, why) in refused {
            let error = expectError(StoreError.self) { try store.addPerson(name: name, now: 0) }
            #expect(error?.kind == .invalidArgument && error?.exitStatus == .usage, "\(name.debugDescription)")
            #expect(error?.message.contains(why) == true, "\(name.debugDescription): \(error?.message ?? "")")
            // The name is quoted on one line: no control character reaches the message.
            #expect(error.map { !Quote.hasControl($0.message) } ?? true)
        }
        #expect(try store.people().count == 1, "nothing refused was added")
        // Fine: 32 characters in any script, digits with a letter, an emoji, spaces inside.
        let fine = [String(repeating: "é", count: 32), "R2D2", "小明", "Ann-Marie O'Neil", "Zoë 👩‍👩‍👧"]
        for name in fine { #expect(try store.addPerson(name: name, now: 0).name == name) }
        // Unique ignoring case beyond ASCII, too.
        #expect(expectError(StoreError.self) { try store.addPerson(name: "ZOË 👩‍👩‍👧", now: 0) }?.message.contains("already") == true)
        // A rename follows the same rules; one's own name in another case is fine.
        let zoe = try #require(try store.person("zoë 👩‍👩‍👧"))
        try store.renamePerson(zoe.id, to: "ZOË 👩‍👩‍👧")
        #expect(expectError(StoreError.self) { try store.renamePerson(zoe.id, to: "r2d2") }?.kind == .invalidArgument)
        #expect(expectError(StoreError.self) { try store.renamePerson(zoe.id, to: "12") }?.kind == .invalidArgument)
        let missing = expectError(StoreError.self) { try store.renamePerson(99, to: "Cy") }
        #expect(missing?.kind == .notFound && missing?.message.contains("99") == true && missing?.message.contains("1 Me") == true)
        #expect(expectError(StoreError.self) { try store.setColour(99, "#ffffff") }?.kind == .notFound)
    }

    @Test("colours: #rrggbb readable on black; the palette's eight are distinct and readable, handed out in order")
    func colours() throws {
        #expect(Person.palette.count == Person.maximum && Set(Person.palette).count == Person.maximum)
        for colour in Person.palette {
            #expect(try Person.normalised(colour: colour) == colour)
            #expect((Person.contrastOnBlack(colour) ?? 0) >= 7, "\(colour) reads on black (AAA)")
        }
        // Any two far apart (CIE76 ΔE* in L*a*b*).
        func lab(_ colour: String) -> (Double, Double, Double) {
            let rgb = Person.rgb(colour)!
            func linear(_ byte: Int) -> Double {
                let c = Double(byte) / 255
                return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
            }
            let (r, g, b) = (linear(rgb.0), linear(rgb.1), linear(rgb.2))
            let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, y = 0.2126 * r + 0.7152 * g + 0.0722 * b
            let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
            func f(_ t: Double) -> Double { t > 0.008856 ? cbrt(t) : 7.787 * t + 16 / 116 }
            return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
        }
        for (i, a) in Person.palette.enumerated() {
            for b in Person.palette[(i + 1)...] {
                let (p, q) = (lab(a), lab(b))
                let distance = ((p.0 - q.0) * (p.0 - q.0) + (p.1 - q.1) * (p.1 - q.1) + (p.2 - q.2) * (p.2 - q.2)).squareRoot()
                #expect(distance >= 35, "\(a) and \(b) are told apart: ΔE \(distance)")
            }
        }
        #expect(try Person.normalised(colour: "B388FF") == "#b388ff")
        for bad in ["#12345", "#1234567", "red", "#gg0000", "", "#"] {
            let error = expectError(StoreError.self) { try Person.normalised(colour: bad) }
            #expect(error?.kind == .invalidArgument && error?.message.contains("#rrggbb") == true, "\(bad)")
        }
        let dark = expectError(StoreError.self) { try Person.normalised(colour: "#202020") }
        #expect(dark?.message.contains("too dark") == true && dark?.message.contains(Person.palette[0]) == true, "\(dark?.message ?? "")")
        // Handed out in order, the first nobody has; a colour given is kept.
        let scratch = Scratch()
        let store = try Store(path: scratch.db)
        try store.setColour(1, Person.palette[2])
        #expect(try store.addPerson(name: "Ann", now: 0).colour == Person.palette[0])
        #expect(try store.addPerson(name: "Bo", colour: "#FFFFFF", now: 0).colour == "#ffffff")
        #expect(try store.addPerson(name: "Cy", now: 0).colour == Person.palette[1])
        #expect(try store.addPerson(name: "Di", now: 0).colour == Person.palette[3])
        // Migration 5 gave person 1 the palette's first colour.
        #expect(Schema.migrations[4].contains("'Me', '\(Person.palette[0])'"))
    }

    @Test("at most eight people: a ninth is refused, saying who there are; after a removal there is room again")
    func eightAtMost() throws {
        let scratch = Scratch()
        let store = try Store(path: scratch.db)
        for i in 2...Person.maximum { try store.addPerson(name: "P\(i)", now: 0) }
        #expect(try store.people().count == 8)
        #expect(Set(try store.people().map(\.colour)).count == 8, "eight colours, none twice")
        let error = try #require(expectError(StoreError.self) { try store.addPerson(name: "Ninth", now: 0) })
        #expect(error.kind == .invalidArgument && error.message.contains("at most 8") && error.message.contains("'Ninth'"))
        #expect(error.message.contains("1 Me") && error.message.contains("8 P8") && error.message.contains("remove one"))
        #expect(try store.people().count == 8)
        #expect(try store.removePerson(5))
        #expect(try store.addPerson(name: "Ninth", now: 0).id == 9)
    }

    /// Everything of days, samples and goals a schema-4 store holds, row by row (every column as
    /// SQLite gives it back, reals exactly), ordered by key.
    static func rows(_ db: Connection, _ table: String, columns: String, order: String, where condition: String = "1")
        throws -> [String]
    {
        let statement = try db.prepare("SELECT \(columns) FROM \(table) WHERE \(condition) ORDER BY \(order)")
        let count = Int32(columns.split(separator: ",").count)
        var rows: [String] = []
        while try statement.step() {
            rows.append(
                (0..<count).map { (i: Int32) -> String in
                    if statement.isNull(i) { return "NULL" }
                    if let d = statement.double(i), statement.text(i).flatMap(Double.init) != nil { return "\(d)" }
                    return statement.text(i) ?? "NULL"
                }.joined(separator: "|"))
        }
        return rows
    }

    static let dayColumns4 = Store.dayColumns + ", source"
    static let sampleColumns4 = "metric, start, feed, source, quantity, unit, value, day"
    static let goalColumns4 = "start, move, move_unit, exercise, stand, updated, steps"

    @Test(
        "a store of the release before (schema 4) holding real exports, samples and goals: migrated, every day, sample and goal person 1's, the same",
        .enabled(if: Fixtures.available, Fixtures.absent))
    func migratesASchema4Store() throws {
        let scratch = Scratch()
        // The real exports imported by today's code (the import as glance import runs it), with
        // samples of three feeds and standing goals: what a schema-4 store of a user holds.
        let made = scratch.file("made.db")
        do {
            let store = try Store(path: made)
            for file in ["dogsheep-export.xml", "grll-export-v14.xml", "karanjain-activitysummary.csv"] {
                let report = try HealthImport.run(Fixtures.path(file), into: store, options: ImportOptions())
                #expect(report.days > 0, "\(file)")
            }
            try store.putSamples((0..<200).map { Self.sample(.activeEnergy, Int64($0), 1.25) })
            try store.putSamples((0..<24).map { Self.sample(.steps, Int64($0) * 60, 250, feed: .gadgetbridge) })
            try store.putSamples((0..<9).map { Self.sample(.standHours, Int64($0) * 60, 1, feed: .healthConnect) })
            try store.setGoals(Goals(move: .kilocalories(630), exercise: 30, stand: 12), from: CalendarDay(iso: "2016-11-01")!)
            try store.setGoals(Goals(move: Energy(2000, .kilojoule), steps: 8000), from: CalendarDay(iso: "2025-05-09")!)
        }
        let expected: (days: [String], samples: [String], goals: [String], shown: String)
        // The schema-4 store: migrations 1 to 4 as the release before ran them, its rows copied
        // in from what the import made.
        do {
            let db = try Connection(path: scratch.db, mode: .readWrite(create: true))
            for migration in Schema.migrations.prefix(4) { try db.execute(migration) }
            try db.execute(
                """
                PRAGMA user_version = 4;
                ATTACH DATABASE '\(made)' AS made;
                INSERT INTO day_summaries (\(Self.dayColumns4)) SELECT \(Self.dayColumns4) FROM made.day_summaries WHERE person = 1;
                INSERT INTO samples (\(Self.sampleColumns4)) SELECT \(Self.sampleColumns4) FROM made.samples WHERE person = 1;
                INSERT INTO goals (\(Self.goalColumns4)) SELECT \(Self.goalColumns4) FROM made.goals WHERE person = 1;
                INSERT INTO metrics SELECT * FROM made.metrics;
                INSERT INTO tasks SELECT * FROM made.tasks;
                DETACH DATABASE made;
                """)
            let days = try Self.rows(db, "day_summaries", columns: Self.dayColumns4, order: "date")
            let samples = try Self.rows(db, "samples", columns: Self.sampleColumns4, order: "metric, start, feed, source")
            let goals = try Self.rows(db, "goals", columns: Self.goalColumns4, order: "start")
            #expect(days.count == 2 + 3 + 194 && samples.count == 233 && goals.count == 2)
            var shown = ""
            try Store(path: made).exportCSV(.days) { shown += $0 }
            expected = (days, samples, goals, shown)
        }
        let store = try Store(path: scratch.db)
        #expect(try store.schemaVersion() == 5)
        #expect(try store.integrityCheck() == "ok")
        #expect(try store.people().map { [String(describing: $0.id), $0.name, $0.colour] } == [["1", "Me", Person.palette[0]]])
        let db = store.db
        #expect(try Self.rows(db, "day_summaries", columns: Self.dayColumns4, order: "date") == expected.days)
        #expect(try Self.rows(db, "samples", columns: Self.sampleColumns4, order: "metric, start, feed, source") == expected.samples)
        #expect(try Self.rows(db, "goals", columns: Self.goalColumns4, order: "start") == expected.goals)
        for table in ["day_summaries", "samples", "goals"] {
            #expect(try db.integer("SELECT count(*) FROM \(table) WHERE person IS NOT 1") == 0, "\(table): every row person 1's")
        }
        #expect(try db.integer("SELECT count(*) FROM pragma_foreign_key_check") == 0)
        var shown = ""
        try store.exportCSV(.days) { shown += $0 }
        #expect(shown == expected.shown, "the days as shown (and exported) are the same")
        #expect(try store.dayCount() == 199 && store.sampleCount() == 233 && store.goalHistory().count == 2)
        // Person first in every key and in the samples' index.
        for (table, key) in [("day_summaries", "person,date"), ("samples", "person,metric,start,feed,source"), ("goals", "person,start")] {
            let index = try #require(try Self.primaryIndex(db, table), "\(table) has its key's index")
            #expect(try Self.indexColumns(db, index).joined(separator: ",") == key, "\(table)")
        }
        #expect(try Self.indexColumns(db, "samples_by_day").first == "person")
        // A second person on the migrated store leaves person 1's days as they were.
        let ann = try store.addPerson(name: "Ann", now: 0)
        store.person = ann.id
        try store.putSamples((0..<200).map { Self.sample(.activeEnergy, Int64($0), 3) })
        store.person = 1
        var again = ""
        try store.exportCSV(.days) { again += $0 }
        #expect(again == expected.shown)
    }

    /// The name of the index of `table`'s primary key (WITHOUT ROWID: its table's own b-tree).
    static func primaryIndex(_ db: Connection, _ table: String) throws -> String? {
        let list = try db.prepare("SELECT name FROM pragma_index_list('\(table)') WHERE origin = 'pk'")
        return try list.step() ? list.text(0) : nil
    }

    static func indexColumns(_ db: Connection, _ index: String) throws -> [String] {
        let info = try db.prepare("SELECT name FROM pragma_index_info('\(index)') ORDER BY seqno")
        var names: [String] = []
        while try info.step() { names.append(info.text(0) ?? "") }
        return names
    }
}
