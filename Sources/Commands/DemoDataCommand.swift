import Activity
import Store

/// `glance demo-data`: loads the bundled demo data set into the store.
struct DemoDataCommand {
    var store = StoreSelection()
    var end: CalendarDay?
    var printOnly = false

    static let help = """
        Usage: glance demo-data [--end D] [--print] [--db PATH]

        Loads the demo data set that ships with Glance into the store: four weeks of an Apple
        Watch wearer's days (busy days, rest days, a goal change, today part-way) and a few
        metrics for gauges. The days are moved so the last one is today (or D). Loading again
        replaces the same days; your other days are left alone. Nothing shows demo data unless
        this command loads it.

          --end D      the date of the last demo day: YYYY-MM-DD, today or yesterday (default: today)
          --print      print the bundled days as CSV instead of loading them
        \(StoreSelection.help)
        """

    static func parse(_ argv: [String]) throws(UsageError) -> DemoDataCommand? {
        var command = DemoDataCommand()
        var args = Arguments(argv)
        while let option = try args.nextOption() {
            if option == "--help" || option == "-h" { return nil }
            if try command.store.parse(option, &args) { continue }
            switch option {
            case "--end": command.end = try Parse.day(try args.value(for: option), option: option)
            case "--print": command.printOnly = true
            default: throw UsageError("demo-data: unknown option '\(option)' (see glance demo-data --help)")
            }
        }
        return command
    }

    func run() -> Int32 {
        if printOnly {
            writeOut(String(decoding: DemoData.activityCSV, as: UTF8.self))
            return ExitCode.ok
        }
        return store.run { store throws(StoreError) in
            var options = ImportOptions()
            options.taskName = nil
            let report = try DemoData.load(into: store, endingOn: end ?? Parse.today(), options: options)
            let range = report.firstDay.map { " (\($0) to \(report.lastDay!))" } ?? ""
            writeOut(
                "loaded \(report.days) demo days\(range) and \(try store.metrics().count) metrics into \(store.path)\n")
            return ExitCode.ok
        }
    }
}
