import DeviceLogic
import Activity
import Configuration
import Controls
import Input
import Raster
import Screens
import Clocks

/// What a session runs on: the configuration (the built-in defaults, the file over them, the
/// command line over that: `Configuration` and its `Layer`), and what is made of it once it is
/// known to be whole (the key map, whose names only the input library knows). Every setting is
/// read through it as the configuration's (`settings.name`, `settings.display.rotation`).
@dynamicMemberLookup
public struct Settings: Sendable {
    public private(set) var configuration: Configuration
    public private(set) var keyMap: KeyMap

    /// The built-in defaults.
    public init() {
        // The configuration's own defaults are the built-in ones, and they always make a key map.
        self = try! Settings(Configuration())
    }

    /// A whole configuration. A key map it gets wrong is reported with every problem's JSON path.
    public init(_ configuration: Configuration) throws(ConfigurationIssues) {
        switch KeyMap.make(configuration) {
        case .success(let map): keyMap = map
        case .failure(let issues): throw issues
        }
        self.configuration = configuration
    }

    public subscript<T>(dynamicMember path: KeyPath<Configuration, T>) -> T { configuration[keyPath: path] }

    /// A setting changed in place (tests, a command's own adjustments); the key map follows when
    /// what it is made of changed and still makes one.
    public subscript<T>(dynamicMember path: WritableKeyPath<Configuration, T>) -> T {
        get { configuration[keyPath: path] }
        set {
            configuration[keyPath: path] = newValue
            if case .success(let map) = KeyMap.make(configuration) { keyMap = map }
        }
    }

    /// The same settings with `change` made to the configuration (`glance watch`: nothing dims).
    public func with(_ change: (inout Configuration) -> Void) -> Settings {
        var c = configuration
        change(&c)
        // A change of the key map's settings is made again; the others keep it.
        return (try? Settings(c)) ?? self
    }

    /// How the panel is mounted (the picture is drawn upright and turned onto it).
    public var rotation: Rotation { configuration.display.rotation }

    /// The household's hours, as the device's logic follows them.
    public var hours: Schedule {
        Schedule(
            configuration.schedule.map { w in
                ScheduleWindow(
                    from: w.from, to: w.to, days: Set(w.days), state: ScheduledState(brightness: w.brightness, screens: w.screens, cycle: w.cycle))
            })
    }

    /// The screens in order, the one the command line asks for first.
    public var screenOrder: [ScreenKind] {
        var screens = configuration.screens
        if let first = configuration.show.screen { screens = [first] + screens.filter { $0 != first } }
        return screens
    }

    /// A day, gauge or task given on the command line, shown instead of the store's; nil: the store.
    public var content: FixedContent? {
        let show = configuration.show
        guard show.givesContent else { return nil }
        var content = FixedContent(summary: show.shownSummary, day: show.day)
        switch show.screen {
        case .gauges?: content.gauges = [show.gauge]
        case .progress?: content.task = show.progress
        default: break
        }
        return content
    }

    /// A today that never ends (the command line's `--today`); nil: the system's calendar.
    public var fixedToday: CalendarDay? { configuration.show.today.map { $0.day(today: SystemLocalClock().today()) } }

    /// A time of day that never changes (nil: the system's clock).
    public var fixedTime: TimeOfDay? { configuration.show.clockTime }

    /// A day, gauges or a task fixed on the command line.
    public struct FixedContent: Sendable {
        /// The day's summary (nil: a day without one), on `day` (nil: today when shown).
        public var summary: ActivitySummary?
        public var day: DaySpec?
        public var gauges: [Gauge] = []
        public var task: ProgressContent?

        /// As data for a session whose today is `today`.
        public func data(today: CalendarDay) -> FixedData {
            var days: [CalendarDay: ActivitySummary] = [:]
            if let summary { days[day?.day(today: today) ?? today] = summary }
            return FixedData(days: days, gauges: gauges, task: task)
        }
    }
}
