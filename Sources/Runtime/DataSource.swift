import Activity
import DeviceLogic
import Platform
import Screens

/// Where the numbers come from (`ShownData`: day summaries, gauges, the running task), as a
/// source of the session's events: its descriptors become readable when the data changes, and
/// its deadline is when it must be read again without one (a gauge read from a file).
public protocol DataSource: ShownData, ReadingSource {}

/// Fixed data: one day's summary, fixed gauges, maybe a fixed task (the command line's).
public final class FixedData: DataSource {
    public var days: [CalendarDay: ActivitySummary]
    public var fixedGauges: [Gauge]
    public var fixedTask: ProgressContent?
    public private(set) var cancelRequested = false
    /// Set by whoever changes the data (tests); the next `handle` reports the change.
    public var changed = false

    public init(days: [CalendarDay: ActivitySummary], gauges: [Gauge] = [], task: ProgressContent? = nil) {
        self.days = days
        fixedGauges = gauges
        fixedTask = task
    }

    public func summary(for day: CalendarDay) -> ActivitySummary? { days[day] }
    public func summaries(_ list: [CalendarDay]) -> [CalendarDay: ActivitySummary] {
        days.filter { list.contains($0.key) }
    }
    public func gauges(now: Duration) -> [Gauge] { fixedGauges }
    public func task() -> ProgressContent? { fixedTask }
    public func cancelTask() { cancelRequested = true }
    public var descriptors: [FileDescriptor] { [] }
    public func handle(ready: [FileDescriptor], now: Duration) -> Bool {
        defer { changed = false }
        return changed
    }
    public func nextDeadline(now: Duration) -> Duration? { nil }
    public func showGauges(_ shown: Bool, now: Duration) -> Bool { false }
    /// Kept in memory only (the command line's data has no store).
    public var preferences: [String: String] = [:]
    public func preference(_ name: String) -> String? { preferences[name] }
    public func keep(_ values: [(name: String, value: String?)]) {
        for (name, value) in values { preferences[name] = value }
    }
}
