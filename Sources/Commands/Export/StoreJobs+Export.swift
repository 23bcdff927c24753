import Runtime
import DeviceLogic
import Activity
import Configuration
import Platform
import Store
import Clocks
import ConfigurationFile
import Feeds

/// `glance export`'s work, in the store's frame (`StoreJobs.with`, in Store).
extension StoreJobs {
    // MARK: glance export

    /// `glance export`'s description (its help), beside what it does.
    public static let exportAbout = """
        Writes a table of the store as CSV or JSON to standard output (or FILE, written whole or not at \
        all). As CSV the days come out in the CSV form of an Apple Health export, with two more columns \
        (activeEnergyBurnedGoalUnit when it differs, moveMode), so `glance import` reads them back to \
        exactly the same store. As JSON: {"days": [{"date", "move", "moveGoal", "moveTime", \
        "moveTimeGoal", "exercise", "exerciseGoal", "stand", "standGoal", "moveMode"}]} (move in kcal; \
        what glance serve's GET /v1/days gives and PUT /v1/days/DATE takes), {"metrics": […]} or \
        {"tasks": […]} as metric list --json and task list --json write them. The JSON days are as the \
        panel shows them: a ring without a goal of its own has the standing goal in force on the day \
        (glance goals), else the configuration's ("goals", from --config or the default file); the CSV \
        carries the store's own goals only, so it imports to the same store. With --readings: the \
        samples (what glance serve keeps of Health Auto Export's, Health Connect's and readings' \
        pushes, for the days of serve.pastDays) as a glance-readings file (docs/data.md), which \
        glance import reads back to the same samples; the days' own figures and goals are in --csv.
        """

    /// A table as CSV (or JSON), to standard output or into `output` through `OutputFile` (a file
    /// written whole or not at all, never through a planted link; a device or FIFO written in place).
    public static func export(
        _ table: Store.Table, output: String?, database: String?, person: String? = nil, json: Bool = false, readings: Bool = false,
        config: String? = nil, console: Console
    ) -> Outcome {
        // The configuration is read only where it counts: the JSON days' goals.
        var goals = Goals()
        if json && table == .days {
            let (found, status) = configuredGoals(config, console: console)
            guard let found else { return status }
            goals = found
        }
        return with(database, access: .read, person: person, console: console) { store throws(StoreError) in
            func export(_ write: (String) throws(StoreError) -> Void) throws(StoreError) {
                if readings {
                    let samples = try store.allSamples().lazy.map { s in
                        FeedSample(
                            metric: s.metric, start: s.start, source: s.source, feed: s.feed.rawValue, quantity: s.quantity,
                            unit: s.unit, value: s.value, day: s.day, path: "")
                    }
                    try Readings.write(samples, calendar: .system, write: write)
                } else if json {
                    try ScriptJSON.export(table, store: store, goals: goals, write: write)
                } else {
                    // The CSV carries the store's own goals (the day's and the standing ones), so it
                    // imports to the same store; the configuration's stay with the configuration.
                    try store.exportCSV(table, write: write)
                }
            }
            guard let output else {
                try export(console.writeResult)
                return Outcome.ok
            }
            let file: OutputFile
            do throws(OutputFile.Failure) {
                file = try OutputFile(output)
            } catch {
                console.complain("--output '\(output)': cannot create: \(error.reason)")
                return error.outcome
            }
            try export { (text) throws(StoreError) in
                do throws(OutputFile.Failure) {
                    try file.write(text)
                } catch {
                    throw StoreError(.io, "--output '\(output)': \(error.reason)")
                }
            }
            do throws(OutputFile.Failure) {
                try file.commit()
            } catch {
                throw StoreError(.io, "--output '\(output)': \(error.reason)")
            }
            return Outcome.ok
        }
    }
}
