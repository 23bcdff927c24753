import Activity
import Platform
import Screens

/// Where the numbers come from: day summaries for the rings, gauges, the running task. A source
/// of the session's events: its descriptors become readable when the data changes, and its
/// deadline is when it must be read again without one (a gauge read from a file).
public protocol DataSource: EventSource {
    func summary(for day: CalendarDay) -> ActivitySummary?
    /// Summaries of the days in `days` that have one.
    func summaries(_ days: [CalendarDay]) -> [CalendarDay: ActivitySummary]
    /// The gauges with their current values (empty: the gauge screen has nothing to show).
    func gauges(now: Duration) -> [Gauge]
    /// The task in progress, if any (the progress screen shows it).
    func task() -> ProgressContent?
    /// Asks the running task to stop (its Cancel).
    func cancelTask()
    /// The gauge screen is on the panel (or no longer): gauges read from files are read, and
    /// wake the loop, only while it is. True when that changed a gauge.
    func showGauges(_ shown: Bool, now: Duration) -> Bool
    /// Fresh data asked for now (the refresh control): read again whatever can be; true when that
    /// changed something.
    func refresh(now: Duration) -> Bool
    /// Set when the data can no longer be followed and the app should end (the store's file was
    /// replaced): what to tell the person.
    var endReason: String? { get }
    /// What the device remembers across restarts (the brightness chosen with its keys); nil:
    /// nothing kept (or nowhere to keep it).
    func preference(_ name: String) -> String?
    /// Keeps `values` (nil forgets the name), all together, where that can be done.
    func keep(_ values: [(name: String, value: String?)])
}

extension DataSource {
    public var endReason: String? { nil }
    /// Fresh data asked for now: sources read again whatever they can (gauge files). True when
    /// that changed something.
    public func refresh(now: Duration) -> Bool { false }
    public func preference(_ name: String) -> String? { nil }
    public func keep(_ values: [(name: String, value: String?)]) {}
}

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
