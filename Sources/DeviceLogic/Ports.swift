// What the device's logic reads of the world, as protocols: the data shown; and the panel's
// light, which the runtime keeps (the local clock is Activity's `LocalClock`). App gives the real
// ones (the store, sysfs, the C library's calendar); the tests give their own. Nothing here
// touches the operating system.
import Activity
import Controls
import Screens

/// Where the numbers come from: day summaries for the rings, gauges, the running task; and the
/// few things the device keeps (its brightness, that the button hint was shown). `DeviceState`
/// only reads it; what changes it (`cancelTask`, `showGauges`, `refresh`, `keep`) the runtime
/// calls for the device's effects.
public protocol ShownData: AnyObject {
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
    /// What changed at the last look that found a change: the store, or a gauge's own source.
    var lastChange: DataChange { get }
    /// Nothing to show yet: no day and no sample ever (a store just made); the ring screen
    /// says how to get data.
    var isEmpty: Bool { get }
    /// A value kept for the device (its brightness, say); nil when none is.
    func preference(_ name: String) -> String?
    /// Keeps `values` (nil forgets the name), all together, where that can be done.
    func keep(_ values: [(name: String, value: String?)])
    /// The household's people, by id, each with the shown summaries of those of `days` they have
    /// (the family and competition screens); empty where the data has no people.
    func household(_ days: [CalendarDay]) -> [HouseholdPerson]
}

/// A person of the household as the family and competition screens show them (`glance people`).
public struct HouseholdPerson: Sendable, Equatable {
    public var id: Int
    public var name: String
    /// `#rrggbb`: their name bar's colour.
    public var colour: String
    /// When their phone last pushed, in seconds since 1970 (nil: never).
    public var lastPush: Int64?
    /// The days asked for that they have figures for, as the panel shows them.
    public var days: [CalendarDay: ActivitySummary]

    public init(id: Int, name: String, colour: String, lastPush: Int64? = nil, days: [CalendarDay: ActivitySummary] = [:]) {
        self.id = id
        self.name = name
        self.colour = colour
        self.lastPush = lastPush
        self.days = days
    }
}

extension ShownData {
    public var isEmpty: Bool { false }
    public var endReason: String? { nil }
    public var lastChange: DataChange { .store }
    /// Fresh data asked for now: sources read again whatever they can (gauge files). True when
    /// that changed something.
    public func refresh(now: Duration) -> Bool { false }
    public func preference(_ name: String) -> String? { nil }
    public func keep(_ values: [(name: String, value: String?)]) {}
    public func household(_ days: [CalendarDay]) -> [HouseholdPerson] { [] }
}

/// What changed in the data.
public enum DataChange: String, Sendable, Equatable {
    /// The store (another process's commit, an import).
    case store = "store changed"
    /// A gauge's value from its own source (MQTT, a file, a command).
    case gauges = "gauge values"
}

/// The panel's light, where it has one that can be set: the runtime's (App's `PanelController`
/// carries out the device's `setBacklight` and `restoreBacklight` on it).
public protocol PanelLight: AnyObject {
    /// Where it is (`/sys/class/backlight/10-0045`), for what is told.
    var path: String { get }
    /// Its levels: 1 for a light that is only on or off.
    var maximum: Int { get }
    /// The brightness it had when the app found it, 0...1.
    var foundLevel: Double { get }
    /// Sets it; nil when done, else why not (the light is then given up).
    func set(level: Int) -> String?
    /// Puts back the brightness it had.
    func restore()
}

extension PanelLight {
    /// What the device's decisions know of it.
    public var info: PanelLightInfo { PanelLightInfo(path: path, maximum: maximum, foundLevel: foundLevel) }
}

/// Where the refresh commands are.
public enum RefreshState: Equatable, Sendable {
    case idle
    case running
    /// The last run failed: the control says so until `until`.
    case failed(until: Duration)
}

/// What changed last, as `glance watch` says it beside each picture.
public enum Change: String, Sendable, Equatable {
    case start, input, idle, time, cycle, reload, schedule
    case newDay = "new day"
    case refresh
    case store = "store changed"
    case gauges = "gauge values"
    case gaugesRead = "gauges read"
    /// A message came, or went (`DeviceState.message`).
    case message

    init(_ data: DataChange) { self = data == .store ? .store : .gauges }
}
