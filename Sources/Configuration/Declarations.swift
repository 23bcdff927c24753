// Every setting, declared once: the file's reader, the command line's options, the layering,
// the reload's comparison and the settings' pages are made from this table.
import Activity
import CLI
import Controls
import JSON
import Raster
import Faces

extension Configuration: Defaulted {
    static var defaults: Configuration { Configuration() }

    /// Every setting, in the order the file and the pages list them.
    public static let settings: [Setting<Configuration>] = [
        .value(
            "name", Field({ $0.name }, { $0.name = $1 }), .string,
            options: ["--name"], help: "whose rings they are, shown on the ring screen (empty: no name)",
            reload: .name),
        .value(
            "locale", Field({ $0.locale }, { $0.locale = $1 }), .locale, options: ["--locale"],
            help: "the language of every label and date; zh_CN… (and zh-CN) give zh-Hans",
            default: .means("from LC_ALL, LC_MESSAGES or LANG"), reload: .fonts),
        .value(
            "screens", Field({ $0.screens }, { $0.screens = $1 }), .screens,
            help: "the screens, in the order the buttons step through them; \"clock\" adds the clock screen (the time large, "
                + "the date, the day's rings small), \"family\" everyone's rings (glance people), \"competition\" the "
                + "household's competition (household.start)", reload: .screens),
        .value(
            "gauges", Field({ $0.gauges }, { $0.gauges = $1 }),
            .list(GaugeSetting.form, expected: "gauges, each an object (below)", example: "gauges [{…}, …]"),
            help: "the gauges of the gauge screen: one fills the screen, several make a grid", reload: .data),
        .value("keys", Field({ $0.keys }, { $0.keys = $1 }), .keys,
            help: "key names to actions, over the built-in key map", reload: .keys),
        .value(
            "longPress", Field({ $0.longPress }, { $0.longPress = $1 }), .longPress,
            help: "what a long press does, by the action of the key's short press (on the progress screen a hold of any "
                + "button is its Cancel)", reload: .keys),
        .value(
            "longPressSeconds", Field({ $0.longPressSeconds }, { $0.longPressSeconds = $1 }),
            .number(0.2...10, what: "seconds"),
            help: "how long a press must be to be long", reload: .keys),
        .value(
            "grabInput", Field({ $0.grabInput }, { $0.grabInput = $1 }), .bool, options: ["--no-grab"], flag: false,
            help: "take the input devices for the app alone, so key presses do not also reach the console; --no-grab lets "
                + "them through (a grabbed keyboard's Power key and Ctrl+Alt+Fn do not reach the system; power buttons on "
                + "their own are never grabbed)", reload: .input),
        .object("touch", Field({ $0.touch }, { $0.touch = $1 }), TouchSetting.settings,
            help: "how the touch panel is mounted"),
        displayObject,
        .object(
            "idle", Field({ $0.idle }, { $0.idle = $1 }), IdleSchedule.settings, help: "what happens without input",
            check: { idle, at, reader in
                if let dim = idle.dimAfter, let blank = idle.blankAfter, blank < dim {
                    reader.issue(
                        "\(at).blankAfter", "expected at least dimAfter (\(NumberText.plain(dim)) s): the screen dims before it blanks")
                }
            }),
        .object("clock", Field({ $0.clock }, { $0.clock = $1 }), ClockSetting.settings,
            help: "how the time is written"),
        .value(
            "cycle", Field({ $0.cycle }, { $0.cycle = $1 }), CycleRule.form,
            help: CycleRule.settingsHelp, reload: .cycle),
        .value(
            "schedule", Field({ $0.schedule }, { $0.schedule = $1 }),
            .list(ScheduleWindowSetting.form, expected: "windows, each an object (below)", example: "windows [{\"from\": \"23:00\", …}, …]"),
            help: ScheduleWindowSetting.settingsHelp, reload: .schedule),
        .value(
            "database", Field({ $0.database }, { $0.database = $1 }),
            .optionalString("PATH", completion: .file(extensions: ["db"])), options: ["--db"],
            help: "the store (a SQLite file)",
            default: .means("/var/lib/glance/glance.db for root (the service), else $XDG_DATA_HOME/glance/glance.db"),
            reload: .data),
        .object("fonts", Field({ $0.fonts }, { $0.fonts = $1 }), FontFiles.settings,
            help: "font files instead of the packaged ones"),
        .object("serve", Field({ $0.serve }, { $0.serve = $1 }), ServeSetting.settings,
            help: "glance serve, the HTTP endpoint"),
        .object("import", Field({ $0.imports }, { $0.imports = $1 }), ImportSetting.settings,
            help: "glance import --watch, the watched folder"),
        .object("web", Field({ $0.web }, { $0.web = $1 }), WebSetting.settings,
            help: "glance web, the panel's own web page"),
        .object(
            "goals", Field({ $0.goals }, { $0.goals = $1 }), GoalSetting.settings,
            help: "the goals a day without its own is measured against until goals are set in the store (glance goals)"),
        .value(
            "refresh", Field({ $0.refresh }, { $0.refresh = $1 }), .commands,
            help: "programs run one after another when fresh data is asked for (a pull down, a key mapped to refresh), "
                + "each stopped after 60 s", reload: .refresh),
        .value(
            "mqtt", Field({ $0.mqtt }, { $0.mqtt = $1 }), MQTTSetting.form,
            help: "the MQTT broker the gauges' topics come from (glance mqtt connects to it); null: none",
            reload: .data),
        .object("homeAssistant", Field({ $0.homeAssistant }, { $0.homeAssistant = $1 }),
            HomeAssistantSetting.settings, help: "glance mqtt: the panel as a Home Assistant device"),
        .object(
            "household", Field({ $0.household }, { $0.household = $1 }), HouseholdSetting.settings,
            help: "several people's rings (glance people): the family screen and a competition between them",
            check: { household, at, reader in
                if let start = household.start, let end = household.end, end < start {
                    reader.issue("\(at).end", "expected a day on or after start (\(start)): the competition ends after it begins")
                }
                if let start = household.start, let end = household.end, end.daysSinceEpoch - start.daysSinceEpoch > 365 {
                    reader.issue("\(at).end", "expected at most a year after start (\(start))")
                }
            }),
    ] + runSettings + showSettings

    /// The display's settings (`--card`, `--mode`, `--rotate`), kept apart as the command line's
    /// own below: found without the other tables.
    static let displayObject: Setting<Configuration> = .object(
        "display", Field({ $0.display }, { $0.display = $1 }), DisplaySetting.settings,
        help: "which card, connector, mode, format and rotation")

    /// The command line's own settings of `glance run` (`--intro`, `--no-input`) and of what is
    /// shown (`--move`, `--screen`), as the configuration's: the last of `settings`, kept apart
    /// so that an option of theirs is found without making the file's tables.
    static let runSettings: [Setting<Configuration>] = RunOptions.settings.map(runSetting)
    static func runSetting(_ setting: Setting<RunOptions>) -> Setting<Configuration> {
        setting.lifted(Field({ $0.run }, { $0.run = $1 }), under: nil)
    }
    static let showSettings: [Setting<Configuration>] = ShowRequest.settings.map {
        $0.lifted(Field({ $0.show }, { $0.show = $1 }), under: nil)
    }

    /// The checks of several settings together, after the file and after the command line.
    public static let checks: [Check<Configuration>] = [
        Check("$.idle.blankAfter", options: ["--dim-after", "--blank-after"]) { c in
            guard let d = c.idle.dimAfter, let b = c.idle.blankAfter, b < d else { return nil }
            return "blank after \(NumberText.plain(b)) s comes before dim after \(NumberText.plain(d)) s: blank after at least the "
                + "dimming time (or never)"
        },
        Check(
            "$.cycle.screens",
            at: { c in "$.cycle.screens[\(c.cycle?.screens.firstIndex { !c.screens.contains($0) } ?? 0)]" }
        ) { c in
            guard let cycle = c.cycle else { return nil }
            let missing = cycle.screens.filter { !c.screens.contains($0) }
            guard let first = missing.first else { return nil }
            return "\"\(first.rawValue)\" is not one of the configured screens (\"screens\": "
                + c.screens.map { "\"\($0.rawValue)\"" }.joined(separator: ", ") + ")"
        },
        Check("$.household.start", options: []) { c in
            guard c.household.start == nil,
                c.screens.contains(.competition) || c.schedule.contains(where: { $0.screens?.contains(.competition) == true })
            else { return nil }
            return "the competition screen needs a competition: \"household\": {\"start\": \"YYYY-MM-DD\"} (seven days from it)"
        },
        Check("$.gauges", options: []) { c in
            guard c.mqtt == nil, let i = c.gauges.firstIndex(where: { if case .mqtt = $0.source { true } else { false } }) else {
                return nil
            }
            return "gauges[\(i)].source.mqtt: a topic needs the broker: \"mqtt\": {\"broker\": \"mqtt://HOST:1883\"}"
        },
    ] + scheduleChecks + ShowRequest.checks.map { check in Check(nil, options: check.options) { check.problem($0.show) } }

    /// The top-level members of the file.
    public static var fileKeys: [String] { settings.compactMap(\.key) }

    /// Every setting of the file and the command line, one by one (an object's members, not the
    /// object).
    /// (Made once: each command-line option and each reload looks settings up here, and making
    /// the list afresh each time was a fifth of a `glance render`, 14 M instructions.)
    public static let leaves: [Setting<Configuration>] = settings.flatMap(\.leaves)

    /// The setting a command-line option sets. The command line's own and the display's first:
    /// `glance run --report-startup` (or `--card`) finds its setting without making the file's
    /// other tables, a fifth of the code run before the first frame without a file
    /// (docs/speed.md). Each option is one setting's (DeclarationTests), so the order finds the
    /// same one.
    public static func setting(option: String) -> Setting<Configuration>? {
        func among(_ list: [Setting<Configuration>]) -> Setting<Configuration>? { list.first { $0.options.contains(option) } }
        // `glance run`'s own options made one alone: the packaged unit gives one of them.
        if let run = RunOptions.setting(option: option) { return runSetting(run) }
        return among(showSettings) ?? among(displayObject.leaves) ?? among(leaves)
    }

    /// The setting at a dotted path of the file (`display.mode`) or with a command-line name
    /// (`intro`).
    public static func setting(named name: String) -> Setting<Configuration>? {
        leaves.first { $0.name == name }
    }

    /// What a reload must do to go from `old` to `new`, in the order the log line says it.
    public static func reloads(from old: Configuration, to new: Configuration) -> [Reload] {
        Array(Set(leaves.filter { $0.changed(old, new) }.map(\.reload))).sorted()
    }
}

extension TouchSetting: Defaulted {
    static var defaults: TouchSetting { TouchSetting() }

    static let settings: [Setting<TouchSetting>] = [
        .value(
            "swapXY", Field({ $0.swapXY }, { $0.swapXY = $1 }), .bool,
            help: "swap the axes, for a touch sensor mounted turned by 90° (before the rotation)",
            reload: .keys),
        .value("invertX", Field({ $0.invertX }, { $0.invertX = $1 }), .bool, help: "mirror the x axis", reload: .keys),
        .value("invertY", Field({ $0.invertY }, { $0.invertY = $1 }), .bool, help: "mirror the y axis", reload: .keys),
    ]
}

extension DisplaySetting: Defaulted {
    static var defaults: DisplaySetting { DisplaySetting() }

    static let settings: [Setting<DisplaySetting>] = [
        .value(
            "card", Field({ $0.output.card }, { $0.output.card = $1 }), .card, options: ["--card"],
            help: "the DRM card; a card is chosen by its connected connectors, never by its number",
            default: .means("the first card with a connected display"), reload: .display),
        .value(
            "connector", Field({ $0.output.connector }, { $0.output.connector = $1 }), .optionalString("NAME"),
            options: ["--connector"],
            help: "the connector, e.g. HDMI-A-1, DSI-1, DSI-2, SPI-1", default: .means("the first connected one"),
            reload: .display),
        .value(
            "mode", Field({ $0.output.mode }, { $0.output.mode = $1 }), .mode, options: ["--mode"],
            help: "the mode; a refresh with decimals takes only that rate (59.94), a whole one any rate that rounds to it",
            default: .means("the display's preferred mode"), reload: .display),
        .value(
            "format", Field({ $0.output.format }, { $0.output.format = $1 }),
            .optionalChoice(PixelFormat.self, expected: "xrgb8888 or rgb565", anyCase: true),
            options: ["--format"], help: "the pixel format; rgb565 (16-bit SPI panels) is drawn with ordered dithering",
            default: .means("XRGB8888 where the display plane takes it, else RGB565"), reload: .display),
        .value(
            "rotate", Field({ $0.rotation }, { $0.rotation = $1 }), .rotation, options: ["--rotate"],
            help: "how the panel is mounted, turned clockwise: the picture is drawn upright and turned onto it, and touch "
                + "with it", reload: .rotation),
        .value(
            "legacy", Field({ $0.output.forceLegacy }, { $0.output.forceLegacy = $1 }), .bool,
            options: ["--legacy"], flag: true,
            help: "SetCrtc and PageFlip even where atomic mode setting is offered", reload: .display),
        .value(
            "shape", Field({ $0.shape }, { $0.shape = $1 }),
            .choice(PanelShape.self, expected: "rectangle or round", anyCase: true), options: ["--shape"],
            help: "a round panel keeps everything inside its inscribed circle", reload: .shape),
        .value(
            "diagonal", Field({ $0.diagonal }, { $0.diagonal = $1 }),
            .optionalNumber(0.5...120, what: "a diagonal in inches", null: "the display's own"),
            options: ["--diagonal"],
            help: "the visible area's diagonal in inches (a round panel's diameter), e.g. 1.3: with the viewing distance "
                + "it sets the smallest text (figures 20′ at the eye, other text 12′)",
            default: .means(
                "the size the display reports (DRM's millimetres; an SPI panel's from its overlay's width-mm and "
                    + "height-mm), else the usual panel of its pixels (240x240 1.3\", round 1.28\"; 320x240 2.4\"; 800x480 7\"; …)"),
            reload: .shape),
        .value(
            "viewingDistance", Field({ $0.viewingDistance }, { $0.viewingDistance = $1 }),
            .optionalNumber(10...1000, what: "a distance in centimetres", null: "the usual one"),
            options: ["--distance"],
            help: "how far the viewer's eyes are from the panel, in centimetres (a watch about 30, a panel across a room "
                + "200 or more)",
            default: .means(
                "by the panel's size: 50 under 2\" (a gadget at arm's length), 60 under 4.5\" (a desk clock), 80 under 9\" "
                    + "(a 7\" panel on a shelf), else 100 (a wall panel)"),
            reload: .shape),
        .value(
            "brightness", Field({ $0.brightness }, { $0.brightness = $1 }), .awakeBrightness,
            help: "the awake brightness, in percent of full (80: 80 %); the brighter and darker keys step it by 10 (70, 80, "
                + "90) and the level they choose is kept in the store until this setting changes",
            default: .means("the backlight's as found at start"), reload: .brightness),
    ]
}

extension IdleSchedule: Defaulted {
    static var defaults: IdleSchedule { IdleSchedule() }

    static let settings: [Setting<IdleSchedule>] = [
        .value(
            "dimAfter", Field({ $0.dimAfter }, { $0.dimAfter = $1 }), .secondsOrNever(1...86400),
            options: ["--dim-after"],
            help: "seconds without input before the picture dims (the command line's 0: never)", reload: .idle),
        .value(
            "blankAfter", Field({ $0.blankAfter }, { $0.blankAfter = $1 }), .secondsOrNever(1...86400),
            options: ["--blank-after"],
            help: "seconds without input before the panel goes black and powers down, at least dimAfter (the command "
                + "line's 0: never)", reload: .idle),
        .value(
            "dimLevel", Field({ $0.dimLevel }, { $0.dimLevel = $1 }),
            .brightness(of: "the awake brightness", off: "dark"),
            help: "the brightness when dimmed, in percent of the awake brightness (30 of an awake 80 %: 24 % of full; "
                + "0: dark until input or the blank)", reload: .idle),
    ]
}

extension ClockSetting: Defaulted {
    static var defaults: ClockSetting { ClockSetting() }

    static let settings: [Setting<ClockSetting>] = [
        .value(
            "format", Field({ $0.format }, { $0.format = $1 }),
            .optionalChoice(ClockFormat.self, expected: "24h, 12h or off"), options: ["--clock"],
            help: "how the time is written: 24h (15:05), 12h (3:05 PM) or off (no time on the ring screen)",
            default: .means("as LC_TIME's language and region write it"), reload: .clock),
        .value(
            "tiny", Field({ $0.onTiny }, { $0.onTiny = $1 }),
            .choice(TinyHeader.self, expected: "\"day\" or \"time\"").mapped(\.showsTime, TinyHeader.init),
            help: "what a tiny panel (shorter side under 300 pixels) shows above its rings",
            reload: .clock),
    ]

    /// What a tiny panel's header shows.
    enum TinyHeader: String, CaseIterable, Sendable {
        case day, time
        var showsTime: Bool { self == .time }
        init(_ showsTime: Bool) { self = showsTime ? .time : .day }
    }
}

extension CycleRule: Defaulted {
    static var defaults: CycleRule { CycleRule() }

    static let settingsHelp =
        "screens that turn by themselves, for a wall panel; null: they stay until a button or a task changes them"

    static let settings: [Setting<CycleRule>] = [
        .value("every", Field({ $0.every }, { $0.every = $1 }), .number(1...86400, what: "seconds"),
            help: "seconds each screen stays", reload: .cycle),
        .value(
            "screens", Field({ $0.screens }, { $0.screens = $1 }), .cycleScreens,
            help: "the screens to turn through, in order, each one of the configured screens (never \"progress\"); []: "
                + "all of them but progress", reload: .cycle),
        .value(
            "pauseOnInput", Field({ $0.pauseOnInput }, { $0.pauseOnInput = $1 }), .number(0...86400, what: "seconds"),
            help: "seconds without input before the turning goes on", reload: .cycle),
    ]

    /// `{"every": 15, "screens": [...], "pauseOnInput": 60}`, or null for none.
    static var form: Form<CycleRule?> {
        Form<CycleRule>.object("an object", settings) { _, read, reader in read.clean(reader) }
            .orNull(expected: "an object {\"every\", \"screens\", \"pauseOnInput\"}, or null")
    }
}

extension Form where Value == [ScreenKind] {
    /// The cycle's screens: each once, never progress (it shows itself while a task runs).
    static var cycleScreens: Form<[ScreenKind]> {
        Form<[ScreenKind]>(
            "", expected: "screen names, each once, never \"progress\"",
            json: { json, at, reader in
                guard case .array(let items) = json else {
                    reader.issue(at, "expected an array of screen names like [\"rings\", \"clock\"], found \(json.kind)")
                    return nil
                }
                var list: [ScreenKind] = []
                for (i, item) in items.enumerated() {
                    let ip = "\(at)[\(i)]"
                    guard let s = Form<ScreenKind?>.screenWord(item, ip, &reader) else { continue }
                    if s == .progress {
                        reader.issue(ip, "\"progress\" shows itself while a task runs (and stops the turning); it is not turned to")
                    } else if list.contains(s) {
                        reader.issue(ip, "\"\(s.rawValue)\" is listed twice")
                    } else {
                        list.append(s)
                    }
                }
                return list
            }, text: nil, write: { .json(.array($0.map { .string($0.rawValue) })) })
    }
}

/// The font files (`fonts` in the file).
public struct FontFiles: Sendable, Equatable {
    /// For all text instead of Inter.
    public var file: String?
    /// For Chinese instead of WenQuanYi Micro Hei.
    public var cjkFile: String?

    public init(file: String? = nil, cjkFile: String? = nil) {
        self.file = file
        self.cjkFile = cjkFile
    }

    static let settings: [Setting<FontFiles>] = [
        .value(
            "file", Field({ $0.file }, { $0.file = $1 }),
            .optionalString("FILE", completion: .file(extensions: ["ttf", "otf", "ttc"])), options: ["--font"],
            help: "a font file for all text instead of Inter", default: .means("Inter (fonts-inter)"), reload: .fonts),
        .value(
            "cjkFile", Field({ $0.cjkFile }, { $0.cjkFile = $1 }),
            .optionalString("FILE", completion: .file(extensions: ["ttf", "otf", "ttc"])),
            options: ["--cjk-font"], help: "a font file for Chinese instead of WenQuanYi Micro Hei",
            default: .means("WenQuanYi Micro Hei (fonts-wqy-microhei)"), reload: .fonts),
    ]
}

extension FontFiles: Defaulted {
    static var defaults: FontFiles { FontFiles() }
}

extension ServeSetting: Defaulted {
    static var defaults: ServeSetting { ServeSetting() }

    static let settings: [Setting<ServeSetting>] = [
        .value(
            "listen", Field({ $0.listen }, { $0.listen = $1 }), .listen, options: ["--listen"],
            help: "where glance serve listens; \"0.0.0.0:8127\" (or \"[::]:8127\") for the local network", reload: .serve),
        .value(
            "tokenFile", Field({ $0.tokenFile }, { $0.tokenFile = $1 }), .nonEmpty("FILE"),
            help: "the file holding person 1's bearer token, which every request but /v1/health must send (the package makes a random one); the household's others are in people/ beside it (glance people)",
            reload: .serve),
        .value(
            "maxBody", Field({ $0.maxBody }, { $0.maxBody = $1 }), .whole(1024...268_435_456, what: "bytes"),
            help: "the largest request body; a larger one is answered 413 before it is read",
            reload: .serve),
        .value(
            "perSecond", Field({ $0.perSecond }, { $0.perSecond = $1 }), .requestRate,
            help: "requests a second from one address (bursts of as many); more are answered 429; 0: no limit",
            reload: .serve),
        .value(
            "timeout", Field({ $0.timeout }, { $0.timeout = $1 }), .number(1...3600, what: "seconds"),
            help: "seconds a connection may stay idle before it is closed", reload: .serve),
        .value(
            "pastDays", Field({ $0.pastDays }, { $0.pastDays = $1 }), .whole(1...3_652_059, what: "days"),
            help: "how many days before today a pushed day or sample may be (none after tomorrow); older history: glance import",
            reload: .serve),
        .value(
            "maxStore", Field({ $0.maxStore }, { $0.maxStore = $1 }), .whole(1...1_048_576, what: "MiB"),
            help: "the store's largest size a push may grow it to; a push beyond is answered 507 and keeps nothing",
            reload: .serve),
        .value(
            "tls", Field({ $0.tlsFiles }, { $0.tlsFiles = $1 }), .optionalPair("cert", "key", what: "PEM files"),
            help: "{\"cert\": PEM file, \"key\": PEM file}: HTTPS instead of HTTP", reload: .serve),
    ]

    /// The certificate and key, both or neither.
    var tlsFiles: FilePair? {
        get { tlsCertificate.map { FilePair(first: $0, second: tlsKey ?? "") } }
        set {
            tlsCertificate = newValue?.first
            tlsKey = newValue?.second
        }
    }
}

/// Two files given together (a certificate and its key).
struct FilePair: Sendable, Equatable {
    var first: String
    var second: String
}

extension Form where Value == FilePair? {
    /// `{"cert": FILE, "key": FILE}` (both), or null.
    static func optionalPair(_ a: String, _ b: String, what: String) -> Form<FilePair?> {
        Form<FilePair?>(
            "", expected: "{\"\(a)\": FILE, \"\(b)\": FILE} (\(what)), or null",
            json: { json, at, reader in
                if json == .null { return .some(nil) }
                guard let members = reader.members(json, at, known: [a, b]) else { return nil }
                var first: String?, second: String?
                for (k, v) in members {
                    let value = reader.string(v, "\(at).\(k)", nonEmpty: true)
                    if k == a { first = value } else { second = value }
                }
                guard let first, let second else {
                    reader.issue(at, "give both \"\(a)\" and \"\(b)\" (\(what))")
                    return nil
                }
                return FilePair(first: first, second: second)
            }, text: nil,
            write: { pair in .json(pair.map { .object([(a, .string($0.first)), (b, .string($0.second))]) } ?? .null) })
    }
}

extension WebSetting: Defaulted {
    static var defaults: WebSetting { WebSetting() }

    static let settings: [Setting<WebSetting>] = [
        .value(
            "listen", Field({ $0.listen }, { $0.listen = $1 }), .optionalListen,
            help: "where glance web serves the panel's page; \"0.0.0.0:8128\" for the local network",
            default: .means("off (glance web says so and ends)"), reload: .web),
        .value(
            "url", Field({ $0.url }, { $0.url = $1 }), .optionalString("URL"),
            help: "the page's address as a phone reaches it, written in the one-time login link (glance web link)",
            default: .means("http:// and the board's host name with .local, and the port"), reload: .web),
        .value(
            "sessionHours", Field({ $0.sessionHours }, { $0.sessionHours = $1 }), .whole(1...720, what: "hours"),
            help: "hours a login lasts on a browser", reload: .web),
        .value(
            "linkFile", Field({ $0.linkFile }, { $0.linkFile = $1 }), .nonEmpty("FILE"),
            help: "where glance web link leaves the one-time link's secret (0640) for the page to take", reload: .web),
    ]
}

extension ImportSetting: Defaulted {
    static var defaults: ImportSetting { ImportSetting() }

    static let settings: [Setting<ImportSetting>] = [
        .value(
            "watch", Field({ $0.watch }, { $0.watch = $1 }), .optionalString("FOLDER", completion: .directory),
            help: "a folder whose files glance import --watch (glance-import-watch.service) imports whenever one is "
                + "written or moved in (a Syncthing folder with Gadgetbridge's export, an Apple Health export or a "
                + "glance-readings file), all or nothing as every import",
            default: .means("off (glance import --watch says it has no folder and ends)"), reload: .watch),
    ]
}

extension HouseholdSetting: Defaulted {
    static var defaults: HouseholdSetting { HouseholdSetting() }

    static let settings: [Setting<HouseholdSetting>] = [
        .value(
            "staleAfter", Field({ $0.staleAfter }, { $0.staleAfter = $1 }), .number(0.25...24 * 31, what: "hours"),
            help: "hours without a push from a person's phone after which the family screen draws their rings as stale",
            reload: .data),
        .value(
            "start", Field({ $0.start }, { $0.start = $1 }), .optionalDay,
            help: "the competition's first day (the competition screen; points the Apple way)",
            default: .means("no competition"), reload: .data),
        .value(
            "end", Field({ $0.end }, { $0.end = $1 }), .optionalDay, help: "the competition's last day",
            default: .means("six days after start: seven days"), reload: .data),
        .value(
            "people", Field({ $0.people }, { $0.people = $1 }),
            .list(.nonEmpty("NAME"), expected: "names or ids of people (glance people)", example: "names"),
            help: "who takes part in the competition, by name or id", default: .means("everyone (glance people)"),
            reload: .data),
    ]
}

extension GoalSetting: Defaulted {
    static var defaults: GoalSetting { GoalSetting() }

    static let settings: [Setting<GoalSetting>] = [
        .value("move", Field({ $0.move }, { $0.move = $1 }), goal(.energy), help: "kcal", reload: .data),
        .value("exercise", Field({ $0.exercise }, { $0.exercise = $1 }), goal(.minutes),
            help: "minutes", reload: .data),
        .value("stand", Field({ $0.stand }, { $0.stand = $1 }), goal(.hours), help: "hours", reload: .data),
        .value(
            "steps", Field({ $0.steps }, { $0.steps = $1 }), goal(.steps),
            help: "steps: Move on a day whose source counts steps and no energy (a band or watch through Gadgetbridge)",
            reload: .data),
    ]

    /// A goal as the store takes goals (`FigureRange`: 0 for none, or 1 up to the top), or null for
    /// none: a goal the store refused would fail every day written later, and blame the phone.
    static func goal(_ range: FigureRange) -> Form<Double?> {
        Form<Double?>(
            "G", expected: "0 (no goal) or from 1 to \(NumberText.plain(range.maximum)), or null for none",
            json: { json, at, reader in
                if json == .null { return .some(nil) }
                guard let x = reader.number(json, at, what: "a goal (or null for none)") else { return nil }
                if let problem = range.problem(x, goal: true) {
                    reader.issue(at, "\(NumberText.plain(x)) \(problem)")
                    return nil
                }
                return .some(x)
            },
            text: { (text, option) throws(UsageError) in
                .some(try FigureText.figure(Substring(text), option: option, whole: text, range: range, goal: true))
            }, write: { .json($0.map(JSON.number) ?? .null) })
    }
}

extension Form where Value == Double {
    /// Requests a second from one address: 0 (no limit), or 1 to 10000 (a bucket under one request
    /// never lets one through).
    static var requestRate: Form<Double> {
        Form<Double>(
            "N", expected: "0 (no limit), or from 1 to 10000 requests a second",
            json: { json, at, reader in
                guard let n = reader.number(json, at, range: 0...10000, what: "requests a second (0: no limit)") else { return nil }
                guard n == 0 || n >= 1 else {
                    reader.issue(
                        at, "expected 0 (no limit) or from 1 to 10000 requests a second, found \(NumberText.plain(n)): under 1, "
                            + "no request would ever be let through")
                    return nil
                }
                return n
            },
            text: { (text, option) throws(UsageError) in
                let n = try Form<Double>.number(text, option: option, range: 0...10000, what: "requests a second")
                guard n == 0 || n >= 1 else {
                    throw UsageError("\(option) '\(Quote.clip(text))': 0 (no limit) or at least 1 request a second")
                }
                return n
            }, write: { .json(.number($0)) })
    }
}

extension GaugeSetting: Defaulted {
    /// A gauge before the file's members are read (its `source` is required: none is a problem).
    static var defaults: GaugeSetting {
        GaugeSetting(style: .circular, title: "", unit: "", minimum: nil, maximum: nil, tint: Gauge.defaultTint, source: .metric(""))
    }

    static let settings: [Setting<GaugeSetting>] = [
        .value(
            "style", Field({ $0.style }, { $0.style = $1 }), .choice(GaugeStyle.self),
            help: "circular, circularCapacity, linear, linearCapacity, or their accessory variants",
            reload: .data),
        .value("title", Field({ $0.title }, { $0.title = $1 }), .string, help: "the label", reload: .data),
        .value("unit", Field({ $0.unit }, { $0.unit = $1 }), .string,
            help: "shown after the value, e.g. \"°C\", \"%\"", reload: .data),
        .value(
            "min", Field({ $0.givenMinimum }, { $0.givenMinimum = $1 }), Form<Double>.real.optional,
            help: "the range's low end",
            default: .means("the metric's own (glance metric set --min), else 0"), reload: .data),
        .value(
            "max", Field({ $0.givenMaximum }, { $0.givenMaximum = $1 }), Form<Double>.real.optional,
            help: "the range's high end",
            default: .means("the metric's own (glance metric set --max), else 100"), reload: .data),
        .value(
            "decimals", Field({ $0.decimals }, { $0.decimals = $1 }), Form<Int>.whole(0...9, what: "places").optional,
            help: "the places the value and the range's ends are written to (0: whole numbers); a value is never rounded "
                + "onto an end of the range it does not reach (99.95 of 100 at one place: 99.9)",
            default: .means("as many as show three significant digits (21.5, 0.045, 1013)"), reload: .data),
        .value("tint", Field({ $0.tint }, { $0.tint = $1 }), .colors,
            help: "the gradient along the gauge", default: .means("blue, yellow, orange"),
            reload: .data),
        .value(
            "source", Field({ $0.sourceSpec }, { $0.sourceSpec = $1 }), .gaugeSource,
            help: "where the value comes from: {\"metric\": NAME}, {\"file\": PATH}, {\"mqtt\": TOPIC} or "
                + "{\"command\": [PROGRAM, …]}",
            default: .required, reload: .data),
    ]

    /// A gauge in the file: an object of the settings above, `source` required, the maximum above
    /// the minimum.
    static var form: Form<GaugeSetting> {
        .object("an object", settings) { gauge, read, reader in
            if !read.keys.contains("source") {
                reader.issue(
                    "\(read.path).source",
                    "missing: a gauge needs {\"metric\": NAME}, {\"file\": PATH}, {\"mqtt\": TOPIC} or {\"command\": [PROGRAM, …]}")
            }
            let ok = read.clean(reader)
            if ok && gauge.maximum <= gauge.minimum {
                reader.issue("\(read.path).max", "expected a maximum above the minimum (\(NumberText.plain(gauge.minimum)))")
                return false
            }
            return ok
        }
    }

    /// The source and its staleness, read together.
    var sourceSpec: GaugeSourceSpec {
        get { GaugeSourceSpec(source: source, staleAfter: givenStaleAfter) }
        set {
            source = newValue.source
            givenStaleAfter = newValue.staleAfter
        }
    }
}

/// A gauge's source as the file gives it, with its `staleAfter` (nil: the source's default;
/// .some(nil): never).
struct GaugeSourceSpec: Sendable, Equatable {
    var source: GaugeSourceSetting
    var staleAfter: FieldChange<Double>
}

extension Form {
    /// The same, or nothing (a missing member stays nil; the file has no null for it).
    var optional: Form<Value?> {
        let json = self.json, write = self.write
        var text: (@Sendable (String, String) throws(UsageError) -> Value?)? = nil
        if let read = self.text { text = { (t, o) throws(UsageError) in try read(t, o) } }
        // Nothing is left out; a value is written as the form writes it.
        let written: @Sendable (Value?) -> Written = { value in value.map { write?($0) ?? .absent } ?? .absent }
        return Form<Value?>(
            placeholder, expected: expected, completion: completion,
            json: { j, at, reader in json(j, at, &reader).map { .some($0) } }, text: text, write: written)
    }

    /// The same, or null for none (`"cycle"`, `"mqtt"`: an object or null).
    func orNull(expected: String) -> Form<Value?> {
        let json = self.json
        var written: (@Sendable (Value?) -> Written)? = nil
        if let write = self.write { written = { value in value.map(write) ?? .json(.null) } }
        return Form<Value?>(
            "", expected: expected,
            json: { j, at, reader in j == .null ? .some(nil) : json(j, at, &reader).map { .some($0) } }, text: nil,
            write: written)
    }

    /// The same reading, as another type (`tiny`'s words as a flag).
    func mapped<Other: Sendable>(
        _ forward: @escaping @Sendable (Value) -> Other, _ backward: @escaping @Sendable (Other) -> Value
    ) -> Form<Other> {
        let json = self.json
        var text: (@Sendable (String, String) throws(UsageError) -> Other)? = nil
        if let read = self.text { text = { (t, o) throws(UsageError) in forward(try read(t, o)) } }
        var written: (@Sendable (Other) -> Written)? = nil
        if let write = self.write { written = { value in write(backward(value)) } }
        return Form<Other>(
            placeholder, expected: expected, completion: completion,
            json: { j, at, reader in json(j, at, &reader).map(forward) }, text: text, write: written)
    }
}

extension MQTTSetting: Defaulted {
    /// A broker before the file's members are read (its `broker` is required: none is a problem).
    static var defaults: MQTTSetting { MQTTSetting(broker: "", host: "", port: 1883, tls: false) }

    static let settings: [Setting<MQTTSetting>] = [
        .value(
            "broker", Field({ $0.brokerURL }, { $0.brokerURL = $1 }), .broker,
            help: "mqtt://HOST[:PORT] (1883) or mqtts://HOST[:PORT] (TLS, 8883)",
            default: .required, reload: .data),
        .value("username", Field({ $0.username }, { $0.username = $1 }), Form<String>.nonEmpty().optional,
            help: "the account", reload: .data),
        .value(
            "passwordFile", Field({ $0.passwordFile }, { $0.passwordFile = $1 }),
            Form<String>.nonEmpty("FILE").optional,
            help: "a file holding the password (readable by group glance only)", reload: .data),
        .value(
            "tls", Field({ $0.tlsFiles }, { $0.tlsFiles = $1 }), .mqttTLS,
            help: "{\"ca\", \"cert\", \"key\"} files for mqtts://; without ca: the system's certificates",
            reload: .data),
        .value(
            "clientId", Field({ $0.clientId }, { $0.clientId = $1 }), .clientId,
            help: "the client id, at most 23 bytes",
            default: .means("\"glance-\", the host name and the process"), reload: .data),
        .value(
            "keepAlive", Field({ $0.keepAlive }, { $0.keepAlive = $1 }), .whole(5...3600, what: "seconds"),
            help: "seconds between keep-alives",
            reload: .data),
    ]

    /// The broker's URL, its host, port and TLS with it (a URL the form has checked).
    var brokerURL: String {
        get { broker }
        set {
            broker = newValue
            if let (h, p, t) = MQTTSetting.parse(newValue) {
                host = h
                port = p
                tls = t
            }
        }
    }

    /// The TLS files: a CA, a client certificate and its key.
    var tlsFiles: MQTTTLSFiles {
        get { MQTTTLSFiles(ca: caFile, cert: certificateFile, key: keyFile) }
        set {
            caFile = newValue.ca
            certificateFile = newValue.cert
            keyFile = newValue.key
        }
    }

    /// `{"broker": …, …}`, or null for none.
    static var form: Form<MQTTSetting?> {
        Form<MQTTSetting>.object("an object", settings) { m, read, reader in
            if !read.keys.contains("broker") { reader.issue("\(read.path).broker", "missing: e.g. \"mqtt://192.168.1.10:1883\"") }
            if (m.certificateFile == nil) != (m.keyFile == nil) {
                reader.issue("\(read.path).tls", "give both \"cert\" and \"key\", or neither")
            }
            if !m.tls && read.keys.contains("tls") { reader.issue("\(read.path).tls", "TLS settings need an mqtts:// broker") }
            return read.clean(reader)
        }.orNull(expected: "an object (below), or null")
    }
}

/// The MQTT broker's TLS files.
struct MQTTTLSFiles: Sendable, Equatable {
    var ca: String?
    var cert: String?
    var key: String?
}

extension Form where Value == MQTTTLSFiles {
    static var mqttTLS: Form<MQTTTLSFiles> {
        Form<MQTTTLSFiles>(
            "", expected: "{\"ca\": FILE, \"cert\": FILE, \"key\": FILE}",
            json: { json, at, reader in
                guard let t = reader.members(json, at, known: ["ca", "cert", "key"]) else { return nil }
                var files = MQTTTLSFiles()
                for (k, v) in t {
                    let value = reader.string(v, "\(at).\(k)", nonEmpty: true)
                    switch k {
                    case "ca": files.ca = value
                    case "cert": files.cert = value
                    default: files.key = value
                    }
                }
                return files
            }, text: nil,
            write: { files in
                let given = [("ca", files.ca), ("cert", files.cert), ("key", files.key)].compactMap { k, v in v.map { (k, JSON.string($0)) } }
                return given.isEmpty ? .absent : .json(.object(given))
            })
    }
}

extension Form where Value == String {
    /// `mqtt://HOST[:PORT]` or `mqtts://HOST[:PORT]`.
    static var broker: Form<String> {
        Form<String>(
            "URL", expected: "\"mqtt://HOST[:PORT]\" or \"mqtts://HOST[:PORT]\"",
            json: { json, at, reader in
                guard let url = reader.string(json, at, nonEmpty: true) else { return nil }
                guard MQTTSetting.parse(url) != nil else {
                    reader.issue(at, "expected mqtt://HOST[:PORT] or mqtts://HOST[:PORT], found \"\(Quote.clip(url))\"")
                    return nil
                }
                return url
            }, text: nil, write: { .json(.string($0)) })
    }
}

extension Form where Value == String? {
    /// An MQTT client id: at most 23 bytes (MQTT 3.1).
    static var clientId: Form<String?> {
        Form<String?>(
            "ID", expected: "a string of at most 23 bytes",
            json: { json, at, reader in
                guard let id = reader.string(json, at, nonEmpty: true) else { return nil }
                guard id.utf8.count <= 23 else {
                    reader.issue(at, "at most 23 bytes (MQTT 3.1)")
                    return nil
                }
                return id
            }, text: nil, write: { $0.map { .json(.string($0)) } ?? .absent })
    }
}

extension Configuration {
    /// Each gauge's settings (an item of `gauges`) with a gauge's defaults: the web page's gauge
    /// form is made of them.
    public static var gaugeSettings: [(key: String, setting: Setting<GaugeSetting>, defaults: GaugeSetting)] {
        GaugeSetting.settings.map { ($0.key!, $0, GaugeSetting.defaults) }
    }
}
