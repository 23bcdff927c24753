import Controls
import Activity
import CLI
import Configuration
import Display
import Input
import Raster
import Screens

/// Everything a session is told, in layers, each a plain value: the built-in defaults
/// (`Settings()`), then the configuration file (`Settings(configuration:)`), then the command line
/// (`apply(_:)` with a `CommandLineLayer`, whose fields are nil where nothing was given).
public struct Settings: Sendable {
    // How it looks.
    public var name: String
    /// nil: from the environment (LC_ALL, LC_MESSAGES, LANG).
    public var locale: AppLocale?
    public var shape: PanelShape
    /// How the panel is mounted (the picture is drawn upright and turned onto it).
    public var rotation: Rotation
    public var fontFile: String?
    public var cjkFontFile: String?
    /// The rings alone, without labels.
    public var ringsOnly = false
    /// The rings fill up when the app starts.
    public var intro = false
    /// How the time is written (nil: as LC_TIME's language and region write it), and whether a
    /// tiny panel shows it instead of the day.
    public var clockFormat: ClockFormat?
    public var clockOnTiny = false

    // The display.
    public var display: OutputRequest
    public var singleBuffered = false
    /// Print the time from the process's start to the first frame.
    public var reportStartup = false
    /// Print a line for each frame: its animation time and where it was drawn and presented.
    public var reportFrames = false

    // What it shows.
    public var screens: [ScreenKind]
    public var gauges: [GaugeSetting]
    /// The broker the gauges' MQTT topics come from.
    public var mqtt: MQTTSetting?
    /// A day, gauge or task given on the command line, shown instead of the store's; nil: the store.
    public var content: FixedContent?
    /// The day shown first (nil: today) and a today that never ends (nil: the system's calendar).
    public var startDay: CalendarDay?
    public var fixedToday: CalendarDay?
    /// A time of day that never changes (nil: the system's clock).
    public var fixedTime: TimeOfDay?
    /// The store's file; nil: the default place (`StoreLocation`).
    public var database: String?

    // Input and idle.
    public var keyMap: KeyMap
    public var touch: TouchSetting
    public var grabInput: Bool
    public var readInput = true
    public var inputDirectory = "/dev/input"
    /// Where the running app answers `glance screenshot` (nil: `ControlServer.defaultPath()`).
    public var controlSocket: String?
    public var idle: IdleSchedule
    /// The refresh control's commands (the configuration's "refresh").
    public var refreshCommands: [[String]] = []
    /// Screens that turn by themselves (nil: they stay).
    public var cycle: CycleSetting?
    /// The awake brightness, 0...1 (nil: the backlight's as found).
    public var brightness: Double?

    /// A day, gauges or a task fixed on the command line.
    public struct FixedContent: Sendable {
        /// The day's summary (nil: a day without one), on `day` (nil: today when shown).
        public var summary: ActivitySummary?
        public var day: CalendarDay?
        public var gauges: [Gauge] = []
        public var task: ProgressContent?

        /// As data for a session whose today is `today`.
        public func data(today: CalendarDay) -> FixedData {
            var days: [CalendarDay: ActivitySummary] = [:]
            if let summary { days[day ?? today] = summary }
            return FixedData(days: days, gauges: gauges, task: task)
        }
    }

    /// The built-in defaults.
    public init() {
        // The configuration's own defaults are the built-in ones, and they always make a key map.
        self = try! Settings(configuration: Configuration())
    }

    /// The defaults with the configuration file over them. A key map the file gets wrong is
    /// reported with every problem's JSON path.
    public init(configuration c: Configuration) throws(ConfigurationIssues) {
        switch KeyMap.make(c) {
        case .success(let map): keyMap = map
        case .failure(let issues): throw issues
        }
        name = c.name
        locale = c.locale
        shape = c.display.shape
        rotation = c.display.rotation
        fontFile = c.fontFile
        cjkFontFile = c.cjkFontFile
        display = OutputRequest(
            card: c.display.card, connector: c.display.connector, mode: c.display.mode.flatMap(ModeRequest.init(parsing:)),
            format: c.display.format, forceLegacy: c.display.legacy)
        screens = c.screens
        gauges = c.gauges
        mqtt = c.mqtt
        database = c.database
        touch = c.touch
        grabInput = c.grabInput
        idle = IdleSchedule(dimAfter: c.idle.dimAfter, blankAfter: c.idle.blankAfter, dimLevel: c.idle.dimLevel)
        refreshCommands = c.refresh
        clockFormat = c.clock.format
        clockOnTiny = c.clock.onTiny
        cycle = c.cycle
        brightness = c.display.brightness
    }

    /// The command line over the rest. Its idle times must fit with the configuration's (a blank
    /// before the dimming is refused, as the file's are).
    public mutating func apply(_ line: CommandLineLayer) throws(UsageError) {
        let request = line.screen
        if let v = request.name { name = v }
        if let v = request.locale { locale = v }
        if let v = request.shape { shape = v }
        if let v = request.rotation { rotation = v }
        if let v = request.fontFile { fontFile = v }
        if let v = request.cjkFontFile { cjkFontFile = v }
        if request.ringsOnly { ringsOnly = true }
        if let v = request.date { startDay = v }
        if let v = request.today { fixedToday = v }
        if let v = request.clockTime { fixedTime = v }
        if let v = request.clockFormat { clockFormat = v }
        if let v = request.format { display.format = v }
        if let v = line.card { display.card = v }
        if let v = line.connector { display.connector = v }
        if let v = line.mode { display.mode = v }
        if line.legacy { display.forceLegacy = true }
        if line.singleBuffered { singleBuffered = true }
        if line.intro { intro = true }
        if line.reportStartup { reportStartup = true }
        if line.reportFrames { reportFrames = true }
        if let v = line.database { database = v }
        if line.noInput { readInput = false }
        if line.noGrab { grabInput = false }
        if let v = line.inputDirectory { inputDirectory = v }
        if let first = line.firstScreen { screens = [first] + screens.filter { $0 != first } }
        if let v = line.controlSocket { controlSocket = v }
        if let v = line.dimAfter { idle.dimAfter = v }
        if let v = line.blankAfter { idle.blankAfter = v }
        if let d = idle.dimAfter, let b = idle.blankAfter, b < d {
            throw UsageError(
                "--dim-after/--blank-after: blank after \(NumberText.plain(b)) s comes before dim after "
                    + "\(NumberText.plain(d)) s (with the configuration's idle settings): give a --blank-after of at "
                    + "least the dimming time, or 0 for never")
        }
        // A day, a gauge or a task on the command line is shown instead of the store, its screen
        // first.
        if request.givesContent {
            var content = FixedContent(summary: request.shownSummary, day: request.date ?? fixedToday)
            switch request.screen {
            case .gauge:
                content.gauges = [request.gauge]
                screens = [.gauges] + screens.filter { $0 != .gauges }
            case .progress:
                content.task = request.progress
                screens = [.progress] + screens.filter { $0 != .progress }
            case .rings, .clock: break
            }
            self.content = content
        }
        if request.screen == .clock { screens = [.clock] + screens.filter { $0 != .clock } }
    }
}

/// The command line's layer of the settings: each field nil (or false) where it said nothing.
public struct CommandLineLayer: Sendable {
    /// The screen, the day, the look (as `glance render` takes them).
    public var screen = ScreenRequest()
    public var card: String?
    public var connector: String?
    public var mode: ModeRequest?
    public var legacy = false
    public var singleBuffered = false
    public var intro = false
    public var reportStartup = false
    public var reportFrames = false
    public var database: String?
    public var noInput = false
    public var noGrab = false
    public var inputDirectory: String?
    /// The screen shown first (glance watch --screen gauges).
    public var firstScreen: ScreenKind?
    /// The control socket `glance screenshot` asks (nil: the runtime directory's).
    public var controlSocket: String?
    /// Seconds, or .some(nil) for never.
    public var dimAfter: Double??
    public var blankAfter: Double??

    public init() {}
}
