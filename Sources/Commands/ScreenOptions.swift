import Activity
import App
import CLI
import Raster
import Screens

/// The options that say what to draw and how (`glance render`, `run`, `bench`), declared once.
enum ScreenOptions {
    typealias O = Option<ScreenRequest>

    static let screen = O.value(
        "--screen", as: Value.choice(ScreenRequest.Kind.self), help: "the screen to draw", default: "rings"
    ) { $0.screen = $1 }
    static let rotate = O.value(
        "--rotate", as: Value.rotation,
        help: "the panel is mounted turned clockwise by this much; the picture is drawn upright for the viewer and turned onto the panel"
    ) { $0.rotation = $1 }
    static let format = O.value(
        "--format", as: Value.format, help: "the panel's pixel format; rgb565 is dithered", default: "xrgb8888"
    ) { $0.format = $1 }

    static let day = OptionGroup<ScreenRequest>(
        "The day (rings screen). VALUE/GOAL, either side may be - for missing; an omitted ring quantity is missing, "
            + "and a ring whose value or goal is missing is empty",
        [
            .value(
                "--move", as: Value.energy,
                help: "active energy and goal in kcal; a unit may follow a number: kcal, Cal (= kcal) or kJ, e.g. 1460kJ/2090kJ"
            ) {
                $0.summary.activeEnergyBurned = $1.0
                $0.summary.activeEnergyBurnedGoal = $1.1
                $0.summaryGiven = true
            },
            .value("--move-time", as: Value.valueGoal(.minutes), help: "move minutes and goal; sets move-time mode") {
                $0.summary.moveTime = $1.0
                $0.summary.moveTimeGoal = $1.1
                $0.summary.moveMode = .moveTime
                $0.summaryGiven = true
            },
            .value("--exercise", as: Value.valueGoal(.minutes), help: "exercise minutes and goal") {
                $0.summary.exerciseTime = $1.0
                $0.summary.exerciseTimeGoal = $1.1
                $0.summaryGiven = true
            },
            .value("--stand", as: Value.valueGoal(.hours), help: "stand hours and goal") {
                $0.summary.standHours = $1.0
                $0.summary.standHoursGoal = $1.1
                $0.summaryGiven = true
            },
            .flag("--no-summary", help: "a day with no summary at all (every ring empty)") { $0.noSummary = true },
            .flag("--rings-only", help: "the rings alone, filling the picture (no text, no fonts needed)") {
                $0.ringsOnly = true
            },
        ])

    static let around = OptionGroup<ScreenRequest>(
        "Around the rings",
        note: "Energy is 0 to 100000 (kcal or kJ), minutes 0 to 1440, hours 0 to 24; a goal is 0 (it carries no "
            + "progress) or from 1 up to the same.",
        [
            .value("--name", as: Value.name, help: "whose rings they are") { $0.name = $1 },
            .value("--date", as: Value.date, help: "the day shown", default: "today") { $0.date = $1 },
            .value("--today", as: Value.date, help: "the date taken as today", default: "the system's local date") {
                $0.today = $1
            },
            .value(
                "--locale", as: Value.locale,
                help: "language of every label and date (default: from LC_ALL, LC_MESSAGES or LANG; zh_CN… gives zh-Hans)"
            ) { $0.locale = $1 },
            .value(
                "--shape", as: Value.choice(PanelShape.self, expected: "rectangle or round", anyCase: true),
                help: "a round panel keeps everything inside its inscribed circle", default: "rectangle"
            ) { $0.shape = $1 },
            .value("--font", as: Value.file(extensions: ["ttf", "otf", "ttc"]), help: "a font file for all text instead of Inter (found by fontconfig)") {
                $0.fontFile = $1
            },
            .value(
                "--cjk-font", as: Value.file(extensions: ["ttf", "otf", "ttc"]),
                help: "a font file for Chinese instead of the one fontconfig finds"
            ) { $0.cjkFontFile = $1 },
            .value(
                "--time", as: Value.timeOrSeconds,
                help: "HH:MM: the time of day the clock shows (the ring screen's header, --screen clock), fixed, on a "
                    + "24-hour clock (default: the system's); SECONDS: the animation clock, which the spinner and the "
                    + "sliding bar are functions of (default 0)"
            ) {
                switch $1 {
                case .clock(let t): $0.clockTime = t
                case .seconds(let s): $0.time = s
                }
            },
            .value(
                "--clock", as: Value.choice(ClockFormat.self, expected: "24h, 12h or off"),
                help: "how the time is written: 24h, 12h, or off (no time on the ring screen)",
                default: "as LC_TIME's language and region write it"
            ) { $0.clockFormat = $1 },
        ])

    static let gauge = OptionGroup<ScreenRequest>(
        "Gauge screen (--screen gauge) and progress screen (--screen progress)",
        [
            .value(
                "--style", as: ValueParser("STYLE", completion: .choices(GaugeStyle.allCases.map(\.rawValue) + ProgressStyle.allCases.map(\.rawValue))) { text, _ in text },
                help: "a gauge: circular (default), circularCapacity, linear, linearCapacity, accessoryCircular, "
                    + "accessoryCircularCapacity, accessoryLinear, accessoryLinearCapacity; progress: bar (default), "
                    + "circular, or toolbar (a thin bar at the top without track)"
            ) { $0.style = $1 },
            .value(
                "--value", as: Value.gaugeValue,
                help: "the gauge's value; - or nan for none (shown as —); outside the range it pins to the end and the real number is shown"
            ) {
                $0.gaugeValue = $1
                $0.gaugeValueGiven = true
            },
            .value("--min", as: Value.real("A"), help: "the range's low end", default: "0") { $0.gaugeMinimum = $1 },
            .value("--max", as: Value.real("B"), help: "the range's high end", default: "100") { $0.gaugeMaximum = $1 },
            .value("--title", as: Value.text.named("T"), help: "the gauge's title, e.g. --title CPU") { $0.title = $1 },
            .value("--unit", as: Value.text.named("U"), help: "the value's unit, e.g. --unit °") { $0.unit = $1 },
            .value("--tint", as: Value.colors, help: "colours along the path, low to high, as #RRGGBB") { $0.tint = $1 },
            .value("--fraction", as: Value.fraction, help: "progress: work done, 0 to 1; or") { $0.fraction = $1 },
            .flag("--indeterminate", help: "progress: the amount of work is not known (sliding bar, spinner)") {
                $0.indeterminate = true
            },
            .value("--label", as: Value.text, help: "progress: what is happening") { $0.label = $1 },
            .flag("--cancellable", help: "progress: show the Cancel hint") { $0.cancellable = true },
            .value("--cancel-note", as: Value.text, help: "progress: what stopping costs (shows the Cancel hint too)") {
                $0.cancelNote = $1
                $0.cancellable = true
            },
        ])

    /// Every option above, for commands that take them all.
    static func groups<Outer>(_ path: WritableKeyPath<Outer, ScreenRequest> & Sendable, picture: [Option<Outer>]) -> [OptionGroup<Outer>] {
        [OptionGroup("Picture", picture + [screen.lifted(path), rotate.lifted(path), format.lifted(path)])]
            + [day, around, gauge].map { $0.lifted(path) }
    }
}
