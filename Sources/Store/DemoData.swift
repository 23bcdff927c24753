import Activity

/// The bundled demo data set: four weeks of an Apple Watch wearer's days
/// (`Resources/demo-activity.csv`, the CSV form of an export) and three metrics for gauges
/// (`Resources/demo-metrics.csv`; a gauge shows one once the configuration names it). Nothing
/// shows it unless `glance demo-data` loads it.
public enum DemoData {
    public static var activityCSV: [UInt8] { PackageResources.demo_activity_csv }
    public static var metricsCSV: [UInt8] { PackageResources.demo_metrics_csv }

    /// The names of the bundled metrics, in the file's order.
    public static var metricNames: [String] {
        String(decoding: metricsCSV, as: UTF8.self).split(separator: "\n").dropFirst()
            .compactMap { $0.split(separator: ",").first.map(String.init) }
    }

    /// The last date in the bundled days.
    static var lastDay: CalendarDay? {
        let text = String(decoding: activityCSV, as: UTF8.self)
        return text.split(separator: "\n").last.flatMap { CalendarDay(iso: $0.prefix(10)) }
    }

    /// The first date in the bundled days.
    static var firstDay: CalendarDay? {
        let text = String(decoding: activityCSV, as: UTF8.self)
        return text.split(separator: "\n").dropFirst().first.flatMap { CalendarDay(iso: $0.prefix(10)) }
    }

    /// Whether the bundled days moved to end on `end` all land on dates the store and its readers
    /// take (demo-data --end 0001-01-05 stored 0000-12-xx days that nothing else accepted and
    /// export dropped): the bundled data's last day when they do. Checked before any store is
    /// opened, as every bad argument is.
    @discardableResult
    public static func check(end: CalendarDay) throws(StoreError) -> CalendarDay {
        guard let first = firstDay, let last = lastDay else {
            throw StoreError(.badData, "demo-activity.csv: no days in the bundled data")
        }
        let span = last.days(since: first)
        guard let earliestEnd = CalendarDay.earliest.shifted(by: span), end >= earliestEnd else {
            throw StoreError(
                .invalidArgument,
                "--end \(end): the \(span + 1) demo days would begin before \(CalendarDay.earliest); give \(CalendarDay.earliest.adding(days: span)) or later"
            )
        }
        return last
    }

    /// Loads the days, moved so the last one falls on `endingOn` (today, usually), and the metrics,
    /// in one transaction: a failure part way leaves neither changed.
    public static func load(into store: Store, endingOn end: CalendarDay, options: ImportOptions = ImportOptions())
        throws(StoreError) -> ImportReport
    {
        let last = try check(end: end)
        var options = options
        options.dateShift = end.days(since: last)
        return try store.transaction { () throws(StoreError) -> ImportReport in
            let report = try HealthImport.run(csv: activityCSV, name: "demo-activity.csv", into: store, options: options)
            try loadMetrics(into: store)
            return report
        }
    }

    private static func loadMetrics(into store: Store) throws(StoreError) {
        for (i, line) in String(decoding: metricsCSV, as: UTF8.self).split(separator: "\n").enumerated().dropFirst() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard cells.count == 5, let value = Double(cells[1]) else {
                throw StoreError(.badData, "demo-metrics.csv:\(i + 1):1: expected name,value,min,max,unit")
            }
            try store.setMetric(
                cells[0], value: value, minimum: Double(cells[2]).map { .set($0) } ?? .clear,
                maximum: Double(cells[3]).map { .set($0) } ?? .clear, unit: cells[4].isEmpty ? .clear : .set(cells[4]))
        }
    }
}
