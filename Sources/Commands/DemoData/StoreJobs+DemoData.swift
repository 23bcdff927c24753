import Runtime
import DeviceLogic
import Activity
import Configuration
import Platform
import Store
import Clocks
import ConfigurationFile

/// `glance demo-data`'s work, in the store's frame (`StoreJobs.with`, in Store).
extension StoreJobs {
    // MARK: glance demo-data

    /// `glance demo-data`'s description (its help), beside what it does.
    public static let demoDataAbout = """
        Loads the demo data set that ships with Glance into the store: four weeks of an Apple Watch \
        wearer's days (busy days, rest days, a goal change, today part-way) and three metrics, \
        cpu-temperature, living-room and battery. The ring screen shows the days at once; a gauge shows \
        a metric once the configuration's "gauges" name it (the default configuration has none), e.g. \
        {"title": "Battery", "unit": "%", "source": {"metric": "battery"}}. The days are moved so the last \
        one is today (or D). Loading again replaces the same days and metrics; your other days are left \
        alone. Nothing shows demo data unless this command loads it.
        """

    /// `glance demo-data`'s command line: the last demo day (nil: today), print instead of load,
    /// the store, whose days (nil: person 1).
    public struct DemoDataLine: Sendable {
        public var end: CalendarDay?
        public var printOnly = false
        public var database: String?
        public var person: String?
        public init() {}
    }

    public static func demoData(_ line: DemoDataLine, console: Console) -> Outcome {
        if line.printOnly {
            let csv = String(decoding: DemoData.activityCSV, as: UTF8.self)
            return console.result(csv.hasSuffix("\n") ? String(csv.dropLast()) : csv)
        }
        let (end, database) = (line.end ?? SystemLocalClock().today(), line.database)
        do {
            try DemoData.check(end: end)
        } catch {
            return fail(error, console: console)
        }
        return with(database, person: line.person, console: console) { store throws(StoreError) in
            var options = ImportOptions()
            options.taskName = nil
            let report = try DemoData.load(into: store, endingOn: end, options: options)
            let range = report.firstDay.map { " (\($0) to \(report.lastDay!))" } ?? ""
            let names = DemoData.metricNames
            console.say("loaded \(report.days) demo days\(range) and \(names.count) metrics (\(names.joined(separator: ", "))) into \(store.path)")
            return Outcome.ok
        }
    }
}
