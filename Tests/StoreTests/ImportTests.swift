import Activity
import Foundation
import TestSupport
import Testing

@testable import Store
import HealthExport

@Suite(.timeLimit(.minutes(10))) struct ImportTests {
    static func importFile(_ path: String, into db: String, skipInvalid: Bool = false) throws -> ImportReport {
        var options = ImportOptions()
        options.skipInvalid = skipInvalid
        return try HealthImport.run(path, into: try Store(path: db), options: options)
    }

    static func day(_ s: String) -> CalendarDay { CalendarDay(iso: s)! }

    // MARK: the real files, and synthetic ones of the same shapes

    @Test func syntheticPlainExportImportsItsTwoDays() throws { try plainExport(.synthetic) }
    @Test(.enabled(if: Fixtures.available, Fixtures.absent)) func dogsheepExportImportsItsTwoDays() throws { try plainExport(.real) }

    func plainExport(_ set: FixtureSet) throws {
        let scratch = Scratch()
        let report = try Self.importFile(set.path(set.plainXML), into: scratch.db)
        #expect(report.format == .xml && report.days == 2 && report.newDays == 2)
        let store = try Store(path: scratch.db)
        #expect(try store.dayCount() == 2)
        for (day, summary) in set.plainDays {
            #expect(try store.summary(for: Self.day(day)) == summary, "\(day)")
        }
    }

    @Test func syntheticExportV14WithDTDImportsCalAndZeroMoveTime() throws { try exportV14(.synthetic) }
    @Test(.enabled(if: Fixtures.available, Fixtures.absent)) func grllExportV14WithDTDImportsCalAndZeroMoveTime() throws {
        try exportV14(.real)
    }

    func exportV14(_ set: FixtureSet) throws {
        let scratch = Scratch()
        let report = try Self.importFile(set.path(set.dtdXML), into: scratch.db)
        #expect(report.days == 3)
        let store = try Store(path: scratch.db)
        for (date, energy, exercise, stand) in set.dtdDays {
            let s = try store.summary(for: Self.day(date))
            #expect(
                s
                    == ActivitySummary(
                        activeEnergyBurned: Energy(energy, .largeCalorie),
                        activeEnergyBurnedGoal: Energy(set.dtdEnergyGoal, .largeCalorie),
                        moveTime: 0, moveTimeGoal: 0, exerciseTime: exercise, exerciseTimeGoal: 30,
                        standHours: stand, standHoursGoal: 12, moveMode: .activeEnergy))
        }
        #expect(try store.dayCount() == 3)
    }

    @Test func syntheticCSVImportsEveryIPhoneOnlyDay() throws { try iPhoneOnlyCSV(.synthetic) }
    @Test(.enabled(if: Fixtures.available, Fixtures.absent)) func karanjainCSVImportsAll194IPhoneOnlyDays() throws {
        try iPhoneOnlyCSV(.real)
    }

    func iPhoneOnlyCSV(_ set: FixtureSet) throws {
        let scratch = Scratch()
        let report = try Self.importFile(set.path(set.csv), into: scratch.db)
        #expect(report.format == .csv && report.days == set.csvDays)
        #expect(report.firstDay == Self.day(set.csvFirst) && report.lastDay == Self.day(set.csvLast))
        let store = try Store(path: scratch.db)
        let all = try store.summaries(from: Self.day(set.csvFirst), through: Self.day(set.csvLast))
        #expect(all.count == set.csvDays)
        #expect(all.reduce(0) { $0 + ($1.summary.activeEnergyBurned?.kilocalories ?? 0) } == set.csvEnergy)
        // Zero goals are kept as data; the model draws the Move ring alone.
        let first = try #require(try store.summary(for: Self.day(set.csvFirst)))
        #expect(first.moveTime == 0 && first.moveTimeGoal == 0 && first.exerciseTimeGoal == 0 && first.standHoursGoal == 0)
        #expect(first.activeEnergyBurnedGoal == .kilocalories(set.csvGoal))
        #expect(RingSet(first) == .moveOnly(.progress((first.activeEnergyBurned?.kilocalories ?? 0) / set.csvGoal)))
        #expect(try store.summary(for: Self.day(set.csvLast))?.activeEnergyBurned == .kilocalories(set.csvLastEnergy))
        #expect(
            all.allSatisfy {
                $0.summary.activeEnergyBurnedGoal == .kilocalories(set.csvGoal) && $0.summary.moveMode == .activeEnergy
            })
    }

    @Test func syntheticReimportIsIdempotent() throws { try reimport(.synthetic) }
    @Test(.enabled(if: Fixtures.available, Fixtures.absent)) func reimportIsIdempotent() throws { try reimport(.real) }

    func reimport(_ set: FixtureSet) throws {
        let scratch = Scratch()
        _ = try Self.importFile(set.path(set.csv), into: scratch.db)
        let before = try snapshot(scratch.db)
        let again = try Self.importFile(set.path(set.csv), into: scratch.db)
        #expect(again.unchangedDays == set.csvDays && again.newDays == 0 && again.changedDays == 0)
        #expect(try snapshot(scratch.db) == before)
    }

    @Test func theMergeCountsNewChangedAndUnchangedDays() throws {
        let scratch = Scratch()
        let store = try Store(path: scratch.db)
        try store.setSummary(ActivitySummary(exerciseTime: 20, exerciseTimeGoal: 30), for: Self.day("2024-01-02"))
        try store.setSummary(ActivitySummary(exerciseTime: 5, exerciseTimeGoal: 30), for: Self.day("2024-01-03"))
        try store.setSummary(ActivitySummary(standHours: 1), for: Self.day("2024-01-09"))  // not in the file
        let csv = scratch.write(
            "days.csv",
            """
            dateComponents,appleExerciseTime,appleExerciseTimeGoal
            2024-01-03,25,30
            2024-01-02,20,30
            2024-01-04,1,30
            2024-01-01,0,30
            2024-01-04,2,30

            """)
        let report = try HealthImport.run(csv, into: store)
        #expect(report.days == 4 && report.newDays == 2 && report.changedDays == 1 && report.unchangedDays == 1)
        #expect(report.firstDay == Self.day("2024-01-01") && report.lastDay == Self.day("2024-01-04"))
        #expect(try store.summary(for: Self.day("2024-01-03"))?.exerciseTime == 25)
        #expect(try store.summary(for: Self.day("2024-01-04"))?.exerciseTime == 2)  // the later row wins
        #expect(try store.summary(for: Self.day("2024-01-09")) == ActivitySummary(standHours: 1))
        #expect(try store.dayCount() == 5)
        let empty = try HealthImport.run(scratch.write("none.csv", "dateComponents,appleExerciseTime\n"), into: store)
        #expect(empty.days == 0 && empty.newDays == 0 && empty.unchangedDays == 0 && empty.firstDay == nil)
    }

    @Test func theZipFromTheHealthAppImportsLikeItsXMLSynthetic() throws { try zipLikeItsXML(.synthetic) }
    @Test(.enabled(if: Fixtures.available, Fixtures.absent)) func theZipFromTheHealthAppImportsLikeItsXML() throws {
        try zipLikeItsXML(.real)
    }

    func zipLikeItsXML(_ set: FixtureSet) throws {
        let scratch = Scratch()
        let zip = try makeZip(
            in: scratch,
            entries: [
                ("apple_health_export/export_cda.xml", "<ClinicalDocument/>"),
                (
                    "apple_health_export/export.xml",
                    try String(contentsOfFile: set.path(set.dtdXML), encoding: .utf8)
                ),
                ("apple_health_export/workout-routes/route_1.gpx", "<gpx/>"),
            ])
        let report = try Self.importFile(zip, into: scratch.db)
        #expect(report.format == .zip && report.days == 3)
        let other = scratch.file("xml.db")
        _ = try Self.importFile(set.path(set.dtdXML), into: other)
        #expect(
            try snapshot(scratch.db).split(separator: "\n").filter { !$0.hasPrefix("task") }
                == snapshot(other).split(separator: "\n").filter { !$0.hasPrefix("task") })
    }

    @Test func syntheticExportsExportAsCSVThatImportsBackToTheSameStore() throws { try roundTrip(.synthetic) }
    @Test(.enabled(if: Fixtures.available, Fixtures.absent)) func exportedCSVImportsBackToTheSameStore() throws {
        try roundTrip(.real)
    }

    func roundTrip(_ set: FixtureSet) throws {
        let scratch = Scratch()
        for name in [set.plainXML, set.dtdXML, set.csv] {
            _ = try Self.importFile(set.path(name), into: scratch.db)
        }
        let store = try Store(path: scratch.db)
        try store.setSummary(
            ActivitySummary(
                activeEnergyBurned: Energy(1460, .kilojoule), activeEnergyBurnedGoal: .kilocalories(500),
                moveTime: 30, moveTimeGoal: 45, moveMode: .moveTime), for: Self.day("2024-02-29"))
        var csv = ""
        try store.exportCSV(.days) { csv += $0 }
        let path = scratch.write("back.csv", csv)
        let copy = scratch.file("copy.db")
        _ = try Self.importFile(path, into: copy)
        var again = ""
        try Store(path: copy).exportCSV(.days) { again += $0 }
        #expect(again == csv)
        #expect(try Store(path: copy).summary(for: Self.day("2024-02-29"))?.moveMode == .moveTime)
    }

    // MARK: units and inference

    @Test func kilojoulesAndMoveTimeModeAreUnderstood() throws {
        let scratch = Scratch()
        let xml = scratch.write(
            "kids.xml",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ActivitySummary dateComponents="2024-06-01" activeEnergyBurned="2092" activeEnergyBurnedGoal="0" activeEnergyBurnedUnit="kJ" appleMoveTime="48" appleMoveTimeGoal="60" appleExerciseTime="20" appleExerciseTimeGoal="30"/>
             <ActivitySummary dateComponents="2024-06-02" activeEnergyBurned="2092" activeEnergyBurnedGoal="2092" activeEnergyBurnedUnit="kJ"/>
             <ActivitySummary dateComponents="2024-06-03"/>
            </HealthData>
            """)
        #expect(try Self.importFile(xml, into: scratch.db).days == 3)
        let store = try Store(path: scratch.db)
        let kid = try #require(try store.summary(for: Self.day("2024-06-01")))
        #expect(kid.moveMode == .moveTime && kid.moveTime == 48 && kid.moveTimeGoal == 60)
        #expect(kid.activeEnergyBurned == Energy(2092, .kilojoule))
        #expect(RingSet(kid) == .three(move: .progress(0.8), exercise: .progress(20.0 / 30), stand: .empty))
        let adult = try #require(try store.summary(for: Self.day("2024-06-02")))
        #expect(adult.moveMode == .activeEnergy && RingSet(adult) == .moveOnly(.progress(1)))
        #expect(try store.summary(for: Self.day("2024-06-03")) == ActivitySummary())
    }

    // MARK: bad input: a clear error and an unchanged store

    enum Damage: String, CaseIterable {
        case truncated, truncatedInDTD, invalidXML, badNumber, badDate, negative, zipWithoutExport, damagedZip,
            notAnExport,
            csvBadNumber, csvMissingCells, empty
    }

    /// The 1-based line of the first `needle` in `text`.
    static func line(of needle: String, in text: String) -> Int {
        guard let range = text.range(of: needle) else { return 0 }
        return text[..<range.lowerBound].filter { $0 == "\n" }.count + 1
    }

    /// Makes a damaged input from `set`'s files; returns its path and what the error must say
    /// (for the real files the exact line and column, for the synthetic ones the line).
    func damaged(_ damage: Damage, _ set: FixtureSet, in scratch: Scratch) throws -> (path: String, mentions: [String]) {
        let good = try String(contentsOfFile: set.path(set.plainXML), encoding: .utf8)
        let real = set.name == FixtureSet.real.name
        /// `good` with `old` replaced by `new` (the first occurrence), and where.
        func changed(_ old: String, _ new: String) -> (String, Int) {
            guard let range = good.range(of: old) else { return (good, 0) }
            return (good.replacingCharacters(in: range, with: new), Self.line(of: old, in: good))
        }
        switch damage {
        case .truncated:
            return (scratch.write("cut.xml", String(good.prefix(real ? 2500 : good.count * 5 / 6))), ["cut.xml:", "cut short"])
        case .truncatedInDTD:
            let v14 = try String(contentsOfFile: set.path(set.dtdXML), encoding: .utf8)
            let cut = real ? 2000 : v14.distance(from: v14.startIndex, to: v14.range(of: "<!ELEMENT ActivitySummary")!.lowerBound)
            return (
                scratch.write("cut14.xml", String(v14.prefix(cut))),
                ["cut14.xml:", "the file ends before the document does"]
            )
        case .invalidXML:
            let (text, line) = changed("<Workout ", "<Workout <")
            return (scratch.write("bad.xml", text), [real ? "bad.xml:14:" : "bad.xml:\(line):", "not a complete, well-formed"])
        case .badNumber:
            let value = real ? "\"590.252\"" : "\"512.125\""
            let (text, line) = changed(value, "\"5x0\"")
            return (scratch.write("num.xml", text), [real ? "num.xml:23:70:" : "num.xml:\(line):", "activeEnergyBurned '5x0' is not a number"])
        case .badDate:
            let date = real ? "2016-11-16" : "2021-03-02"
            let wrong = real ? "2016-13-16" : "2021-13-02"
            let (text, line) = changed("dateComponents=\"\(date)\"", "dateComponents=\"\(wrong)\"")
            return (scratch.write("date.xml", text), [real ? "date.xml:24:38:" : "date.xml:\(line):", "'\(wrong)' is not a date"])
        case .negative:
            let hours = real ? "13" : "11"
            let (text, line) = changed("appleStandHours=\"\(hours)\"", "appleStandHours=\"-\(hours)\"")
            return (scratch.write("neg.xml", text), [real ? "neg.xml:23:" : "neg.xml:\(line):", "appleStandHours '-\(hours)' is negative"])
        case .zipWithoutExport:
            return (
                try makeZip(in: scratch, entries: [("apple_health_export/export_cda.xml", "<x/>")]),
                ["export.zip: no apple_health_export/export.xml inside", "export_cda.xml"]
            )
        case .damagedZip:
            let zip = try makeZip(
                in: scratch, entries: [("apple_health_export/export.xml", String(repeating: good, count: 40))])
            let bytes = try Data(contentsOf: URL(fileURLWithPath: zip))
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: zip))
            return (zip, ["export.zip"])
        case .notAnExport:
            return (scratch.write("notes.txt", "shopping list\n"), ["notes.txt: not an Apple Health export"])
        case .csvBadNumber:
            return (
                scratch.write("n.csv", "dateComponents,activeEnergyBurned\n2020-01-01,12\n2020-01-02,1.2.3\n"),
                ["n.csv:3:12:", "'1.2.3' is not a number"]
            )
        case .csvMissingCells:
            return (
                scratch.write(
                    "m.csv", "dateComponents,activeEnergyBurned,activeEnergyBurnedGoal\n2020-01-01,12,300\n2020-01-02,1"
                ),
                ["m.csv:3:", "2 cells where the header has 3"]
            )
        case .empty:
            return (scratch.write("empty.xml", ""), ["empty.xml: the file is empty"])
        }
    }

    @Test(arguments: Damage.allCases)
    func badInputIsAClearErrorAndLeavesTheStoreUnchangedSynthetic(damage: Damage) throws {
        try badInput(damage, .synthetic)
    }

    @Test(.enabled(if: Fixtures.available, Fixtures.absent), arguments: Damage.allCases)
    func badInputIsAClearErrorAndLeavesTheStoreUnchanged(damage: Damage) throws {
        try badInput(damage, .real)
    }

    func badInput(_ damage: Damage, _ set: FixtureSet) throws {
        let scratch = Scratch()
        _ = try Self.importFile(set.path(set.csv), into: scratch.db)
        try Store(path: scratch.db).setMetric("cpu", value: 41)
        let before = try snapshot(scratch.db)
        let (path, mentions) = try damaged(damage, set, in: scratch)
        let error = expectError(StoreError.self) { try Self.importFile(path, into: scratch.db) }
        #expect(error?.kind == .badData)
        for text in mentions {
            #expect(error?.message.contains(text) == true, "\(error?.message ?? "no error") should mention \(text)")
        }
        // The data is exactly as before; the import's task records that it failed.
        let after = try snapshot(scratch.db)
        #expect(
            after.replacingOccurrences(of: "task import failed", with: "task import done")
                .split(separator: "\n").filter { !$0.hasPrefix("task import") }
                == before.split(separator: "\n").filter { !$0.hasPrefix("task import") })
        // The task, where the import got far enough to start one, says it failed.
        #expect(try Store(path: scratch.db).task(named: "import")?.state != .running)
    }

    @Test func skipInvalidSkipsAndCountsBadRowsOnly() throws {
        let scratch = Scratch()
        let csv = scratch.write(
            "mixed.csv",
            """
            dateComponents,activeEnergyBurned,activeEnergyBurnedGoal,activeEnergyBurnedUnit
            2020-01-01,100,300,kcal
            2020-01-32,100,300,kcal
            2020-01-03,abc,300,kcal
            2020-01-04,100,300,cal
            2020-01-05,150,300,Cal

            """)
        #expect(throws: StoreError.self) { try Self.importFile(csv, into: scratch.db) }
        #expect(try Store(path: scratch.db).dayCount() == 0)
        let report = try Self.importFile(csv, into: scratch.db, skipInvalid: true)
        #expect(report.days == 2 && report.skipped == 3)
        #expect(report.skippedExamples.first?.hasPrefix(csv + ":3:1: dateComponents '2020-01-32'") == true)
        // A broken file is not a bad row: --skip-invalid does not hide it.
        let cut = scratch.write("cut.xml", "<HealthData><ActivitySummary dateComponents=\"2020-01-01\"/>")
        #expect(throws: StoreError.self) { try Self.importFile(cut, into: scratch.db, skipInvalid: true) }
    }

    // MARK: progress and cancel

    @Test func cancellingTheTaskRollsBackAndMarksItCancelled() throws {
        let scratch = Scratch()
        writeLargeExport(to: scratch.file("big.xml"), megabytes: 4)
        let store = try Store(path: scratch.db)
        let other = try Store(path: scratch.db)  // the app's connection, where Cancel is pressed
        var options = ImportOptions()
        options.taskName = "import"
        var seen: [ImportProgress] = []
        options.progress = { progress in
            seen.append(progress)
            _ = try? other.requestCancel("import")
        }
        let error = expectError(StoreError.self) {
            try HealthImport.run(scratch.file("big.xml"), into: store, options: options)
        }
        #expect(error?.kind == .cancelled)
        #expect(try store.dayCount() == 0)
        #expect(try store.task(named: "import")?.state == .cancelled)
        // (read first: Swift 6.0 refuses a `try` on the right of == inside #expect)
        let size = Int64(try FileManager.default.attributesOfItem(atPath: scratch.file("big.xml"))[.size] as! Int)
        #expect(seen.first?.bytesTotal == size)
    }

    enum TaskMishap: CaseIterable { case removed, finished, restarted }

    @Test(arguments: TaskMishap.allCases)
    func aTaskRemovedOrEndedMidImportCancelsItNamingTheTask(mishap: TaskMishap) throws {
        let scratch = Scratch()
        writeLargeExport(to: scratch.file("big.xml"), megabytes: 4)
        let store = try Store(path: scratch.db)
        let other = try Store(path: scratch.db)  // `glance task remove health`, say
        var options = ImportOptions()
        options.taskName = "health"
        var done = false
        options.progress = { _ in
            guard !done else { return }
            done = true
            switch mishap {
            case .removed: _ = try? other.removeTask(named: "health")
            case .finished: _ = try? other.finishTask("health", state: .done)
            case .restarted:
                _ = try? other.removeTask(named: "health")
                _ = try? other.startTask("health", total: 3, description: "another", cancellable: false, pid: 1)
            }
        }
        let error = expectError(StoreError.self) {
            try HealthImport.run(scratch.file("big.xml"), into: store, options: options)
        }
        #expect(error?.kind == .cancelled)
        let why =
            switch mishap {
            case .removed: "was removed"
            case .finished: "was ended (done) by another process"
            case .restarted: "was restarted by another process"
            }
        #expect(error?.message == "import cancelled: its task health \(why) while it ran")
        #expect(try store.dayCount() == 0)
        let task = try store.task(named: "health")
        switch mishap {
        case .removed: #expect(task == nil)
        case .finished: #expect(task?.state == .cancelled)
        case .restarted: #expect(task?.description == "another" && task?.state == .running)  // not touched
        }
    }

    @Test func theDaysCommitWhenTheTaskRowVanishedJustBeforeTheMerge() throws {
        let scratch = Scratch()
        let store = try Store(path: scratch.db)
        let collector = try DayCollector(db: store.db, skipInvalid: false)
        var fields = ExportDayFields()
        fields.date = Self.day("2024-05-01")
        fields.exercise = 12
        try collector.add(fields, at: "test")
        // The task was never there (or was removed in the last instant): no error, the days land.
        let counts = try HealthImport.merge(collector, into: store, taskName: "import", pid: getpid())
        #expect(counts.days == 1 && counts.new == 1)
        #expect(try store.summary(for: Self.day("2024-05-01"))?.exerciseTime == 12)
        #expect(try store.task(named: "import") == nil)
    }

    @Test func progressIsReportedAndTheTaskEndsDone() throws {
        let scratch = Scratch()
        writeLargeExport(to: scratch.file("big.xml"), megabytes: 3, days: 5)
        let store = try Store(path: scratch.db)
        var options = ImportOptions()
        var last: ImportProgress?
        options.progress = { last = $0 }
        let report = try HealthImport.run(scratch.file("big.xml"), into: store, options: options)
        #expect(report.days == 5)
        #expect(last?.fraction == 1)
        let task = try #require(try store.task(named: "import"))
        #expect(task.state == .done && task.fraction == 1 && task.description == "Imported 5 days")
        #expect(ImportMonitor.describe(0.414) == "Importing health data — 41 %")
    }

    @Test func theBundledDemoDataEndsOnTheGivenDay() throws {
        let scratch = Scratch()
        let store = try Store(path: scratch.db)
        let end = Self.day("2026-07-04")
        let report = try DemoData.load(into: store, endingOn: end)
        #expect(report.days == 28 && report.lastDay == end && report.firstDay == end.adding(days: -27))
        #expect(try store.metrics().count == 3)
        let today = try #require(try store.summary(for: end))
        #expect(today.exerciseTimeGoal == 30 && today.standHoursGoal == 12)
        if case .three = RingSet(today) {} else { Issue.record("demo days show three rings") }
    }
}

/// Writes a zip (deflated, as the Health app's) with the entries; returns its path.
func makeZip(in scratch: Scratch, entries: [(String, String)]) throws -> String {
    let path = scratch.file("export.zip")
    let script = """
        import sys, zipfile
        z = zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED)
        for i in range(2, len(sys.argv), 2):
            z.writestr(sys.argv[i], open(sys.argv[i + 1], "rb").read())
        z.close()
        """
    var arguments = ["-c", script, path]
    for (i, entry) in entries.enumerated() {
        arguments += [entry.0, scratch.write("entry-\(i)", entry.1)]
    }
    let result = try runProcess("/usr/bin/env", ["python3"] + arguments, seconds: 120)
    #expect(result.status == 0, "python3 zipfile should write \(path): \(result.stderr)")
    return path
}
