import Runtime
import DeviceLogic
import Activity
import Configuration
import Platform
import Store
import Clocks
import ConfigurationFile

/// `glance metric`'s work, in the store's frame (`StoreJobs.with`, in Store).
extension StoreJobs {
    // MARK: glance metric

    /// `glance metric`'s description (its help), beside what it does.
    public static let metricAbout = """
        Metrics are named numbers a gauge can show (a gauge binds to one by name). `set` changes the \
        value; the range and unit change only when given, so a cron job can send the value alone. A \
        running glance shows the change by itself. VALUE is a number, or - for unknown (the gauge shows —).
        """

    public enum MetricJob: Sendable {
        case set(name: String, value: Double?, minimum: FieldChange<Double>, maximum: FieldChange<Double>, unit: FieldChange<String>)
        case list
        case remove(String)
    }

    public static func metric(_ job: MetricJob, database: String?, console: Console) -> Outcome {
        let access: Store.Access
        switch job {
        case .set: access = .create
        case .list: access = .read
        case .remove: access = .write
        }
        return with(database, access: access, console: console) { store throws(StoreError) in
            switch job {
            case .set(let name, let value, let minimum, let maximum, let unit):
                console.say(describe(try store.setMetric(name, value: value, minimum: minimum, maximum: maximum, unit: unit)))
            case .list:
                for m in try store.metrics() { try console.writeResult(describe(m) + "\n") }
            case .remove(let name):
                guard try store.removeMetric(named: name) else { throw StoreError(.notFound, "no metric \(name)") }
            }
            return Outcome.ok
        }
    }

    static func describe(_ m: Metric) -> String {
        var line = "\(m.name) \(m.value.map(NumberText.plain) ?? "—")"
        if let unit = m.unit { line += " \(unit)" }
        if m.minimum != nil || m.maximum != nil {
            line += " (\(m.minimum.map(NumberText.plain) ?? "…") to \(m.maximum.map(NumberText.plain) ?? "…"))"
        }
        return line
    }
}
