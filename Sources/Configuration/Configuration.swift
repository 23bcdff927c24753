// A configuration is written in the controls' vocabulary (its screens, long presses and touch
// axes are Controls values): whoever reads one gets that vocabulary with it.
import Activity
import JSON
import Controls
import Raster
import Faces

/// Where a gauge's value comes from.
public enum GaugeSourceSetting: Sendable, Equatable {
    /// A metric in the store (`glance metric set NAME VALUE`).
    case metric(String)
    /// A file holding a number (e.g. `/sys/class/thermal/thermal_zone0/temp`), read every
    /// `interval` seconds; the value is number × scale + offset.
    case file(path: String, scale: Double, offset: Double, interval: Double)
    /// An MQTT topic (the configuration's broker): the payload is a number, or JSON from which
    /// `field` (a dotted path into objects and arrays) picks it; number × scale + offset.
    case mqtt(topic: String, field: String?, scale: Double, offset: Double)
    /// A program (no shell) run every `interval` seconds while the gauge screen is shown, stopped
    /// after `timeout`: the first number of its output, or `pattern`'s first group (POSIX
    /// extended regular expression); number × scale + offset.
    case command(arguments: [String], pattern: String?, scale: Double, offset: Double, interval: Double, timeout: Double)

    /// Seconds after which a value that has not been renewed shows as stale, by default: three
    /// intervals for files and commands, ten minutes for MQTT and the store's metrics.
    public var defaultStaleAfter: Double {
        switch self {
        case .metric, .mqtt: 600
        case .file(_, _, _, let interval), .command(_, _, _, _, let interval, _): 3 * interval
        }
    }
}

public struct GaugeSetting: Sendable, Equatable {
    public var style: GaugeStyle
    public var title: String
    public var unit: String
    /// The range the file gives ("min", "max"); nil: the source's own (a metric's --min and
    /// --max), else `minimum`/`maximum`'s 0 and 100.
    public var givenMinimum: Double?
    public var givenMaximum: Double?
    public var tint: [Color]
    /// The places its numbers are written to; nil: three significant digits.
    public var decimals: Int?
    public var source: GaugeSourceSetting
    /// Seconds after which an unrenewed value shows as stale: kept (the source's default), cleared
    /// (never), or set.
    public var givenStaleAfter = FieldChange<Double>.keep

    /// When a value goes stale (nil: never).
    public var staleAfter: Double? { givenStaleAfter.applied(to: source.defaultStaleAfter) }

    public var minimum: Double { givenMinimum ?? 0 }
    public var maximum: Double { givenMaximum ?? 100 }

    public init(
        style: GaugeStyle, title: String, unit: String, minimum: Double?, maximum: Double?, tint: [Color],
        source: GaugeSourceSetting
    ) {
        self.style = style
        self.title = title
        self.unit = unit
        givenMinimum = minimum
        givenMaximum = maximum
        self.tint = tint
        self.source = source
    }
}

/// The MQTT broker the gauges' topics come from.
public struct MQTTSetting: Sendable, Equatable {
    /// `mqtt://HOST[:PORT]` (1883) or `mqtts://HOST[:PORT]` (TLS, 8883).
    public var broker: String
    public var host: String
    public var port: Int
    public var tls: Bool
    public var username: String?
    /// A file holding the password (kept out of the configuration).
    public var passwordFile: String?
    /// A CA file for the broker's certificate (TLS); nil: the system's.
    public var caFile: String?
    public var certificateFile: String?
    public var keyFile: String?
    /// nil: "glance-" and the host name.
    public var clientId: String?
    /// Seconds between keep-alives.
    public var keepAlive = 60

    public init(broker: String, host: String, port: Int, tls: Bool) {
        self.broker = broker
        self.host = host
        self.port = port
        self.tls = tls
    }

    /// `mqtt://host:1883` → (host, port, tls); nil when it is not such a URL.
    public static func parse(_ url: String) -> (host: String, port: Int, tls: Bool)? {
        let tls: Bool
        var rest: Substring
        if url.hasPrefix("mqtt://") {
            tls = false
            rest = url.dropFirst(7)
        } else if url.hasPrefix("mqtts://") {
            tls = true
            rest = url.dropFirst(8)
        } else {
            return nil
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        var host = rest, port = tls ? 8883 : 1883
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let p = Int(after.dropFirst()) else { return nil }
                port = p
            }
        } else if let colon = rest.lastIndex(of: ":") {
            guard let p = Int(rest[rest.index(after: colon)...]) else { return nil }
            host = rest[..<colon]
            port = p
        }
        guard !host.isEmpty, !host.contains("/"), !host.contains(" "), (1...65535).contains(port) else { return nil }
        return (String(host), port, tls)
    }
}

public struct DisplaySetting: Sendable, Equatable {
    /// How the panel is seen, as the settings give it; `measured` is the display's own diagonal
    /// (from DRM), used where the setting gives none.
    public func viewing(measured: Double? = nil) -> Viewing {
        if let diagonal { return Viewing(diagonal: diagonal, source: .setting, distance: viewingDistance) }
        return Viewing(diagonal: measured, source: .display, distance: viewingDistance)
    }

    /// The card, connector, mode and format asked of the display (`card`, `connector`, `mode`,
    /// `format` and `legacy` in the file): the display's own value.
    public var output = OutputRequest()
    public var rotation: Rotation = .none
    public var shape: PanelShape = .rectangle
    /// The visible area's diagonal in inches (a round panel's diameter); nil: the display's own
    /// size (DRM's millimetres), else the usual panel of its pixels (`Viewing.usualDiagonal`).
    public var diagonal: Double?
    /// From the eye to the panel in centimetres; nil: the usual distance for its size
    /// (`Viewing.usualDistance`).
    public var viewingDistance: Double?
    /// The awake brightness, 0.05...1 of full (the file writes a whole percentage, 5 to 100; the
    /// keys change it, and the level they choose is kept); nil: the backlight's as found.
    public var brightness: Double?
}

/// The time on the panel: the ring screen's header and the clock screen.
public struct ClockSetting: Sendable, Equatable {
    /// nil: as the language and region write it (LC_TIME).
    public var format: ClockFormat?
    /// A tiny panel (shorter side under 300 pixels) shows the time above its rings instead of the
    /// day.
    public var onTiny = false

    public init(format: ClockFormat? = nil, onTiny: Bool = false) {
        self.format = format
        self.onTiny = onTiny
    }
}

/// `glance serve`: where it listens, its token, its limits, TLS.
public struct ServeSetting: Sendable, Equatable {
    /// `HOST:PORT`; the default is loopback only.
    public var listen = "127.0.0.1:8127"
    /// The file that holds the bearer token (the package makes a random one).
    public var tokenFile = "/etc/glance/serve.token"
    /// The largest request body, in bytes.
    public var maxBody = 8 << 20
    /// Requests a second from one address (more are answered 429).
    public var perSecond = 10.0
    /// Seconds a connection may stay idle before it is closed (a slow client is cut off).
    public var timeout = 10.0
    /// How many days before today a pushed day or sample may be (after tomorrow none may be):
    /// older history comes in with `glance import`.
    public var pastDays = 92
    /// The store's largest size, in MiB, that a push may grow it to (more is answered 507).
    public var maxStore = 1024
    /// A PEM certificate and key for HTTPS; nil: plain HTTP.
    public var tlsCertificate: String?
    public var tlsKey: String?

    public init() {}
}

/// `glance web`: the panel's web page (docs/web.md), off until it is given an address.
public struct WebSetting: Sendable, Equatable {
    /// `HOST:PORT` it listens on; nil: off (glance web says so and ends).
    public var listen: String?
    /// The page's address as a phone reaches it, for the one-time link (`http://glance.local:8128`);
    /// nil: made from the board's host name and the port.
    public var url: String?
    /// Hours a login lasts.
    public var sessionHours = 12
    /// Where `glance web link` leaves the one-time link's secret for the page to take.
    public var linkFile = "/var/lib/glance-web/login"

    public init() {}
}

/// `glance import --watch`: the folder whose files are imported when they change.
public struct ImportSetting: Sendable, Equatable {
    /// A folder (Syncthing's, say) whose files are imported when one is written or moved in; nil:
    /// none (`glance import --watch` without a folder says so and ends, exit 0).
    public var watch: String?

    public init(watch: String? = nil) { self.watch = watch }
}

/// The goals a day without its own is measured against before any standing goals are set in the
/// store (`glance goals`): the default of the goals' history.
public struct GoalSetting: Sendable, Equatable {
    /// kcal.
    public var move: Double? = 500
    /// Minutes.
    public var exercise: Double? = 30
    /// Hours.
    public var stand: Double? = 12
    /// Steps: Move on a day that counts steps and no energy (a band or watch through Gadgetbridge).
    public var steps: Double? = 10_000

    public init() {}
}

extension GoalSetting {
    /// The configured goals as standing goals: the default before any are set in the store.
    public var standing: Goals { Goals(move: move.map(Energy.kilocalories), exercise: exercise, stand: stand, steps: steps) }
}

/// The household: several people's rings on one panel (`glance people`), the family screen and
/// a competition between them.
public struct HouseholdSetting: Sendable, Equatable {
    /// Hours without a push after which a person's rings are drawn as stale on the family screen.
    public var staleAfter = 12.0
    /// The competition's first day; nil: none.
    public var start: CalendarDay?
    /// Its last day; nil: six days after the first (seven days, as Apple's).
    public var end: CalendarDay?
    /// Who takes part, by name or id; empty: everyone in the store.
    public var people: [String] = []

    public init() {}

    /// The competition's last day, when it has a first.
    public var lastDay: CalendarDay? { end ?? start.map { $0.adding(days: 6) } }
}

/// Everything the device can be told. Defaults cover everything: no file is needed to start.
public struct Configuration: Sendable, Equatable {
    /// Whose rings they are.
    public var name = ""
    /// nil: from LC_ALL, LC_MESSAGES or LANG.
    public var locale: AppLocale?
    public var screens: [ScreenKind] = ScreenKind.standard
    public var gauges: [GaugeSetting] = []
    /// Key names (`KEY_RIGHT`) to actions, over the built-in map; "none" unmaps a key.
    public var keys: [String: String] = [:]
    /// Action on a long press of the key that does `key` (e.g. select → today).
    public var longPress: [Action: Action] = Action.defaultLongPress
    public var longPressSeconds = 0.8
    /// Take input devices for the app alone (keys do not also reach the console).
    public var grabInput = true
    public var touch = TouchSetting()
    public var display = DisplaySetting()
    public var idle = IdleSchedule()
    public var clock = ClockSetting()
    /// nil: the screens stay until a button or a task changes them.
    public var cycle: CycleRule?
    /// The household's hours: windows of the local clock (empty: none).
    public var schedule: [ScheduleWindowSetting] = []
    /// nil: `/var/lib/glance/glance.db` for root, `$XDG_DATA_HOME/glance/glance.db` otherwise.
    public var database: String?
    public var fontFile: String?
    public var cjkFontFile: String?
    /// The two font files, as the file's `fonts` gives them.
    public var fonts: FontFiles {
        get { FontFiles(file: fontFile, cjkFile: cjkFontFile) }
        set {
            fontFile = newValue.file
            cjkFontFile = newValue.cjkFile
        }
    }
    public var serve = ServeSetting()
    /// `glance import --watch`'s folder (the file's `"import"`).
    public var imports = ImportSetting()
    /// The panel's web page (`glance web`).
    public var web = WebSetting()
    /// The MQTT broker, when a gauge follows a topic.
    public var mqtt: MQTTSetting?
    /// glance mqtt's Home Assistant discovery.
    public var homeAssistant = HomeAssistantSetting()
    /// Programs (each a path and its arguments, no shell) run one after another when fresh data
    /// is asked for (a pull down on the screen, the refresh key).
    public var refresh: [[String]] = []
    public var goals = GoalSetting()
    public var household = HouseholdSetting()

    // The command line's own: no member of the file.
    /// How `glance run` goes about it this time (`--intro`, `--single-buffer`, …).
    public var run = RunOptions()
    /// What is shown: the first screen, the day, and what the command line shows instead of the
    /// store (a day's figures, a gauge, a task).
    public var show = ShowRequest()

    public init() {}

    /// The default place of the file.
    public static let defaultPath = "/etc/glance/config.json"
}

/// How `glance run` goes about it this time: the command line's alone.
public struct RunOptions: Sendable, Equatable {
    /// The rings fill up when the app starts.
    public var intro = false
    /// Draw into the buffer on screen (no flips).
    public var singleBuffered = false
    /// Print the time from the process's start to the first frame.
    public var reportStartup = false
    /// Print a line for each frame: its animation time and where it was drawn and presented.
    public var reportFrames = false
    public var readInput = true
    public var inputDirectory = "/dev/input"
    /// Where `glance screenshot` asks (nil: `ControlSocketLocation.defaultPath()`).
    public var controlSocket: String?

    public init() {}
}

/// What is shown, as the command line gives it: the first screen, the day, the time, and a day,
/// gauge or task shown instead of the store's.
public struct ShowRequest: Sendable, Equatable {
    /// The screen shown first (nil: the configuration's first).
    public var screen: ScreenKind?
    /// The day shown first (nil: today), and a today that never ends (nil: the system's).
    public var day: DaySpec?
    public var today: DaySpec?
    /// A time of day that never changes (nil: the system's clock).
    public var clockTime: TimeOfDay?
    /// The animation clock a picture is drawn at, in seconds (`glance render --time`).
    public var time = 0.0
    /// The rings alone, without labels.
    public var ringsOnly = false
    /// The page of the screen shown first, from 0 (a screen in pages: the rings, then each
    /// figure; the gauges a page at a time).
    public var page = 0

    // A day's figures, a gauge or a task, shown instead of the store's.
    public var summary = ActivitySummary()
    public var summaryGiven = false
    /// A day with no summary at all.
    public var noSummary = false
    /// The gauge's or the progress's style, as given.
    public var style: String?
    public var gaugeValue: Double?
    public var gaugeValueGiven = false
    public var gaugeMinimum = 0.0
    public var gaugeMaximum = 100.0
    public var title = ""
    public var unit = ""
    public var tint: [Color] = []
    public var decimals: Int?
    public var fraction: Double?
    public var indeterminate = false
    public var label = ""
    public var cancellable = false
    public var cancelNote: String?
    /// The cancel was asked for: "Cancelling…" shows where the button was.
    public var cancelling = false

    public init() {}

    /// The command line gives what to show (a day, a gauge, a task) instead of the store.
    public var givesContent: Bool { summaryGiven || noSummary || screen == .gauges && gaugeGiven || screen == .progress && progressGiven }

    /// A gauge was described (`--value`, `--style`, …): the gauge screen shows it.
    public var gaugeGiven: Bool {
        gaugeValueGiven || style.flatMap(GaugeStyle.init(rawValue:)) != nil || !title.isEmpty || !unit.isEmpty || !tint.isEmpty
            || decimals != nil
    }

    /// A task was described (`--fraction` or `--indeterminate`).
    public var progressGiven: Bool { fraction != nil || indeterminate }

    /// The day's summary as given (nil: a day without one).
    public var shownSummary: ActivitySummary? { noSummary ? nil : summary }

    /// The gauge the options describe.
    public var gauge: Gauge {
        Gauge(
            style: GaugeStyle(rawValue: style ?? "circular") ?? .circular, value: gaugeValue, minimum: gaugeMinimum,
            maximum: gaugeMaximum, title: title, unit: unit, tint: tint, decimals: decimals)
    }

    /// The task the options describe.
    public var progress: ProgressContent {
        ProgressContent(
            amount: fraction.map { .determinate($0) } ?? .indeterminate,
            style: ProgressStyle(rawValue: style ?? "bar") ?? .bar, label: label, cancellable: cancellable,
            cancelNote: cancelNote, cancelling: cancelling)
    }
}

/// One problem in a configuration file: where (a JSON path such as `$.gauges[1].max`) and what.
public struct ConfigurationIssue: Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let message: String
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }
    public var description: String { "\(path): \(message)" }
}

/// Every problem found in a configuration file.
public struct ConfigurationIssues: Error, Sendable, Equatable {
    public var issues: [ConfigurationIssue]
    public init(_ issues: [ConfigurationIssue]) { self.issues = issues }
}
