// The settings the command line alone gives (no member of the file): how glance run goes about
// it this time, and what is shown — the first screen, the day, and a day, gauge or task instead
// of the store's. Declared as the file's settings are, so `run`, `watch` and `render` take them
// from the same declarations.
import Activity
import CLI
import Raster
import Faces

extension Setting {
    /// A setting of the command line alone, whose value `apply` puts in place.
    static func commandLine<V: Sendable>(
        _ options: [String], _ form: Form<V>, help: String, default defaultText: String? = nil,
        apply: @escaping @Sendable (inout Root, V) -> Void
    ) -> Setting {
        Setting(
            key: nil, options: options, placeholder: form.placeholder, completion: form.completion, expected: form.expected,
            help: help, defaultText: defaultText ?? "", reload: .commandLine, read: { _, _, _, _ in },
            assignment: { (text, option) throws(UsageError) in
                let value = try form.parse(text, option: option)
                return { apply(&$0, value) }
            }, differs: { _, _ in false })
    }

    /// A flag of the command line alone.
    static func commandLineFlag(_ options: [String], help: String, apply: @escaping @Sendable (inout Root) -> Void) -> Setting {
        Setting(
            key: nil, options: options, placeholder: nil, completion: .none, expected: "", help: help, defaultText: "",
            reload: .commandLine, read: { _, _, _, _ in }, assignment: { _, _ in apply }, differs: { _, _ in false })
    }
}

extension RunOptions: Defaulted {
    static var defaults: RunOptions { RunOptions() }

    /// The options, in the order `--help` says them.
    static let options = [
        "--intro", "--single-buffer", "--report-startup", "--report-frames", "--no-input", "--input-dir", "--socket",
    ]

    static var settings: [Setting<RunOptions>] {
        var made: [Setting<RunOptions>] = []
        for option in options { made.append(setting(option: option)!) }
        return made
    }

    /// One option's setting, made alone: the packaged unit's `glance run --report-startup` makes
    /// the one it is given, not the table (code run once at every start: docs/speed.md).
    static func setting(option: String) -> Setting<RunOptions>? {
        switch option {
        case "--intro":
            return .value(
                nil, Field({ $0.intro }, { $0.intro = $1 }), .bool, options: ["--intro"], flag: true,
                help: "the rings fill up when the app starts, as on the watch (ring screen)", reload: .commandLine)
        case "--single-buffer":
            return .value(
                nil, Field({ $0.singleBuffered }, { $0.singleBuffered = $1 }), .bool,
                options: ["--single-buffer"], flag: true,
                help: "draw into the buffer on screen and report the changed area (DirtyFB / damage clips) instead of flipping two buffers",
                reload: .display)
        case "--report-startup":
            return .value(
                nil, Field({ $0.reportStartup }, { $0.reportStartup = $1 }), .bool,
                options: ["--report-startup"], flag: true,
                help: "print the time from process start to the first frame on screen", reload: .commandLine)
        case "--report-frames":
            return .value(
                nil, Field({ $0.reportFrames }, { $0.reportFrames = $1 }), .bool, options: ["--report-frames"], flag: true,
                help: "print a line per frame before it is presented: its animation time (what glance render --time draws) and "
                    + "the areas drawn and presented",
                reload: .commandLine)
        case "--no-input":
            return .value(nil, Field({ $0.readInput }, { $0.readInput = $1 }), .bool,
                options: ["--no-input"], flag: false, help: "do not read input devices",
                reload: .input)
        case "--input-dir":
            return .value(
                nil, Field({ $0.inputDirectory }, { $0.inputDirectory = $1 }), .nonEmpty("FOLDER"),
                options: ["--input-dir"], help: "where the input devices are",
                reload: .input)
        case "--socket":
            return .value(
                nil, Field({ $0.controlSocket }, { $0.controlSocket = $1 }), Form<String>.nonEmpty("PATH").optional,
                options: ["--socket"],
                help: "the panel's control socket, where glance screenshot asks for the frame and glance mqtt sends Home "
                    + "Assistant's commands",
                default: .means(
                    "$RUNTIME_DIRECTORY/glance.sock (the service's /run/glance), /run/glance/glance.sock for root, "
                        + "else $XDG_RUNTIME_DIR/glance/glance.sock"),
                reload: .commandLine)
        default:
            return nil
        }
    }
}

extension ShowRequest: Defaulted {
    static var defaults: ShowRequest { ShowRequest() }

    static let settings: [Setting<ShowRequest>] = [
        .value(
            nil, Field({ $0.screen }, { $0.screen = $1 }), .screen, options: ["--screen"],
            help: "the screen shown first (gauges: the configured gauges, or the one the gauge options describe; progress: "
                + "the running task, or the one the progress options describe)",
            default: .means("the configuration's first"), reload: .commandLine),
        .value(
            nil, Field({ $0.day }, { $0.day = $1 }), Form<DaySpec>.day.optional, options: ["--date"],
            help: "the day shown (at midnight today moves on, and a day given as today or yesterday with it)",
            default: .means("today"), reload: .commandLine),
        .value(
            nil, Field({ $0.today }, { $0.today = $1 }), Form<DaySpec>.day.optional,
            options: ["--today"], help: "the date taken as today, which then never ends",
            default: .means("the system's local date"), reload: .commandLine),
        .commandLine(
            ["--time"], .timeOrSeconds,
            help: "HH:MM: the time of day the clock shows (the ring screen's header, the clock screen), fixed, on a 24-hour "
                + "clock (default: the system's); SECONDS: the animation clock a picture is drawn at (glance render; default 0)"
        ) {
            switch $1 {
            case .clock(let t): $0.clockTime = t
            case .seconds(let s): $0.time = s
            }
        },
        .commandLine(
            ["--page"], .whole(1...99, what: "a page"),
            help: "the page of the screen shown first where it is in pages (a small or round panel's ring screen: 1 the "
                + "rings, 2–4 each figure; a grid of gauges too large for one page); past the last, the last (default: 1)"
        ) { $0.page = $1 - 1 },
        .value(
            nil, Field({ $0.ringsOnly }, { $0.ringsOnly = $1 }), .bool, options: ["--rings-only"], flag: true,
            help: "the rings alone, filling the picture (no text, no fonts needed)", reload: .fonts),
        // A day's figures instead of the store's.
        .commandLine(
            ["--move"], .energyPair,
            help: "active energy and goal, VALUE/GOAL in kcal; a unit may follow a number: kcal, Cal (= kcal) or kJ, e.g. "
                + "1460kJ/2090kJ"
        ) {
            $0.summary.activeEnergyBurned = $1.value
            $0.summary.activeEnergyBurnedGoal = $1.goal
            $0.summaryGiven = true
        },
        .commandLine(["--move-time"], .figurePair(.minutes), help: "move minutes and goal; sets move-time mode") {
            $0.summary.moveTime = $1.value
            $0.summary.moveTimeGoal = $1.goal
            $0.summary.moveMode = .moveTime
            $0.summaryGiven = true
        },
        .commandLine(["--steps"], .figurePair(.steps), help: "steps and goal; sets steps mode (a step counter's Move)") {
            $0.summary.steps = $1.value
            $0.summary.stepsGoal = $1.goal
            $0.summary.moveMode = .steps
            $0.summaryGiven = true
        },
        .commandLine(["--exercise"], .figurePair(.minutes), help: "exercise minutes and goal") {
            $0.summary.exerciseTime = $1.value
            $0.summary.exerciseTimeGoal = $1.goal
            $0.summaryGiven = true
        },
        .commandLine(["--stand"], .figurePair(.hours), help: "stand hours and goal") {
            $0.summary.standHours = $1.value
            $0.summary.standHoursGoal = $1.goal
            $0.summaryGiven = true
        },
        .commandLineFlag(["--no-summary"], help: "a day with no summary at all (every ring empty)") { $0.noSummary = true },
        // A gauge, or a task.
        .commandLine(
            ["--style"],
            Form<String>(
                "STYLE", expected: "",
                completion: .choices(GaugeStyle.allCases.map(\.rawValue) + ProgressStyle.allCases.map(\.rawValue)),
                json: { _, _, _ in nil }, text: { text, _ in text }),
            help: "a gauge: circular (default), circularCapacity, linear, linearCapacity, accessoryCircular, "
                + "accessoryCircularCapacity, accessoryLinear, accessoryLinearCapacity; progress: bar (default), circular, or "
                + "toolbar (a thin bar at the top without track)"
        ) { $0.style = $1 },
        .commandLine(
            ["--value"], .gaugeValue,
            help: "the gauge's value; - or nan for none (shown as —); outside the range it pins to the end and the real "
                + "number is shown"
        ) {
            $0.gaugeValue = $1
            $0.gaugeValueGiven = true
        },
        .commandLine(["--min"], Form<Double>.real.named("A"), help: "the gauge's range, its low end", default: "0") { $0.gaugeMinimum = $1 },
        .commandLine(["--max"], Form<Double>.real.named("B"), help: "the gauge's range, its high end", default: "100") { $0.gaugeMaximum = $1 },
        .commandLine(["--title"], Form<String>.string.named("T"), help: "the gauge's title, e.g. --title CPU") { $0.title = $1 },
        .commandLine(["--unit"], Form<String>.string.named("U"), help: "the value's unit, e.g. --unit °") { $0.unit = $1 },
        .commandLine(
            ["--decimals"], .whole(0...9, what: "places"),
            help: "the places the gauge's numbers are written to (default: three significant digits)"
        ) { $0.decimals = $1 },
        .commandLine(["--tint"], .colors, help: "colours along the gauge, low to high, as #RRGGBB") { $0.tint = $1 },
        .commandLine(["--fraction"], .fraction, help: "progress: work done, 0 to 1; or") { $0.fraction = $1 },
        .commandLineFlag(["--indeterminate"], help: "progress: the amount of work is not known (sliding bar, spinner)") {
            $0.indeterminate = true
        },
        .commandLine(["--label"], Form<String>.string, help: "progress: what is happening") { $0.label = $1 },
        .commandLineFlag(["--cancellable"], help: "progress: show the Cancel hint") { $0.cancellable = true },
        .commandLine(["--cancel-note"], Form<String>.string, help: "progress: what stopping costs (shows the Cancel hint too)") {
            $0.cancelNote = $1
            $0.cancellable = true
        },
        .commandLineFlag(["--cancelling"], help: "progress: the cancel was asked for (\"Cancelling…\" where the button was)") {
            $0.cancelling = true
            $0.cancellable = true
        },
    ]

    /// The combinations the command line may not give.
    static let checks: [Check<ShowRequest>] = [
        Check(nil, options: ["--style"]) { s in
            guard let style = s.style else { return nil }
            switch s.screen {
            case .gauges?:
                return GaugeStyle(rawValue: style) == nil
                    ? "--style '\(Quote.clip(style))': a gauge style is one of \(GaugeStyle.allCases.map(\.rawValue).joined(separator: ", "))"
                    : nil
            case .progress?:
                return ProgressStyle(rawValue: style) == nil
                    ? "--style '\(Quote.clip(style))': a progress style is one of \(ProgressStyle.allCases.map(\.rawValue).joined(separator: ", "))"
                    : nil
            default: return "--style is for --screen gauges or progress"
            }
        },
        Check(nil, options: ["--min", "--max"]) { s in
            s.gaugeMaximum > s.gaugeMinimum
                ? nil
                : "--min \(NumberText.plain(s.gaugeMinimum)) and --max \(NumberText.plain(s.gaugeMaximum)): the maximum must be above the minimum"
        },
        Check(nil, options: ["--fraction", "--indeterminate"]) { s in
            s.fraction != nil && s.indeterminate
                ? "--fraction and --indeterminate: give one (the amount of work is known or it is not)" : nil
        },
        Check(nil, options: ["--no-summary"]) { s in
            s.noSummary && s.summaryGiven ? "--no-summary draws a day without data; drop --move/--move-time/--exercise/--stand" : nil
        },
    ]
}

/// A day's figure and its goal, either missing.
public struct FigurePair<T: Sendable & Equatable>: Sendable, Equatable {
    public var value: T?
    public var goal: T?
}

/// What `--time` gives: the clock's time of day (`HH:MM`), or the animation clock in seconds.
public enum TimeGiven: Sendable, Equatable {
    case clock(TimeOfDay)
    case seconds(Double)
}

extension Form {
    /// The same reading under another placeholder.
    func named(_ placeholder: String) -> Form {
        Form(placeholder, expected: expected, completion: completion, json: json, text: text)
    }
}

extension Form where Value == DaySpec {
    /// `today`, `yesterday` or `YYYY-MM-DD`.
    public static var day: Form<DaySpec> {
        Form<DaySpec>(
            "D", expected: "\"today\", \"yesterday\" or \"YYYY-MM-DD\"", completion: .choices(["today", "yesterday"]),
            json: { json, at, reader in
                guard let s = reader.string(json, at) else { return nil }
                guard let d = DaySpec(parsing: s) else {
                    reader.issue(at, "expected YYYY-MM-DD, today or yesterday, found \"\(Quote.clip(s))\"")
                    return nil
                }
                return d
            },
            text: { (text, option) throws(UsageError) in
                guard let d = DaySpec(parsing: text) else {
                    throw UsageError("\(option) '\(Quote.clip(text))': expected YYYY-MM-DD, today or yesterday")
                }
                return d
            })
    }
}

extension Form where Value == TimeOfDay {
    /// `HH:MM` on a 24-hour clock (the command line only).
    public static var clock: Form<TimeOfDay> {
        Form<TimeOfDay>(
            "HH:MM", expected: "", json: { _, _, _ in nil },
            text: { (text, option) throws(UsageError) in
                guard let t = TimeOfDay(parsing: text) else {
                    throw UsageError("\(option) '\(Quote.clip(text))': expected a time of day as HH:MM on a 24-hour clock, e.g. 15:05")
                }
                return t
            })
    }
}

extension Form where Value == TimeGiven {
    /// `HH:MM` (24-hour) or a number of seconds.
    static var timeOrSeconds: Form<TimeGiven> {
        Form<TimeGiven>(
            "HH:MM|SECONDS", expected: "", json: { _, _, _ in nil },
            text: { (text, option) throws(UsageError) in
                if text.contains(":") { return .clock(try Form<TimeOfDay>.clock.parse(text, option: option)) }
                guard DecimalText.isDecimal(text), let v = Double(text), v.isFinite, v >= 0 else {
                    throw UsageError("\(option) '\(Quote.clip(text))': expected HH:MM (the clock, e.g. 15:05) or seconds of the animation clock")
                }
                return .seconds(v)
            })
    }
}

extension Form where Value == Double {
    /// A fraction from 0 to 1.
    static var fraction: Form<Double> {
        Form<Double>(
            "F", expected: "", json: { _, _, _ in nil },
            text: { (text, option) throws(UsageError) in
                try Form<Double>.number(text, option: option, range: 0...1, what: "a fraction")
            })
    }
}

extension Form where Value == Double? {
    /// A gauge's value: a number, or - or nan for none.
    static var gaugeValue: Form<Double?> {
        Form<Double?>(
            "V", expected: "", json: { _, _, _ in nil },
            text: { (text, option) throws(UsageError) in
                text == "-" || text.lowercased() == "nan"
                    ? nil : try Form<Double>.number(text, option: option, range: -1e15...1e15, what: "a number")
            })
    }
}

/// Figures as a person types them: a plain decimal of 0 or more in its `FigureRange`.
public enum FigureText {
    /// A finite number ≥ 0, written as a plain decimal (as import files must).
    public static func quantity(_ text: Substring, option: String, whole: String) throws(UsageError) -> Double {
        guard DecimalText.isDecimal(text), let v = Double(text) else {
            throw UsageError("\(option) '\(Quote.clip(whole))': '\(Quote.clip(text))' is not a number")
        }
        guard v.isFinite else { throw UsageError("\(option) '\(Quote.clip(whole))': '\(Quote.clip(text))' is not a finite number") }
        guard v >= 0 else {
            throw UsageError("\(option) '\(Quote.clip(whole))': '\(Quote.clip(text))' is negative; values and goals are 0 or more")
        }
        return v
    }

    /// A day's figure: a quantity in its `FigureRange` (a goal: 0, or 1 to the top).
    public static func figure(
        _ text: Substring, option: String, whole: String, range: FigureRange, goal: Bool
    ) throws(UsageError) -> Double {
        let v = try quantity(text, option: option, whole: whole)
        if let problem = range.problem(v, goal: goal) {
            throw UsageError("\(option) '\(Quote.clip(whole))': \(Quote.clip(text)) \(problem)")
        }
        return v
    }

    /// A number and an optional energy unit (`350`, `1460kJ`); the unit may be missing.
    public static func energyParts(_ s: Substring, option: String, whole: String, goal: Bool) throws(UsageError)
        -> (Double, EnergyUnit?)
    {
        let digits = s.prefix { "0123456789.eE+-".contains($0) }
        let symbol = s.dropFirst(digits.count)
        guard !digits.isEmpty else { throw UsageError("\(option) '\(Quote.clip(whole))': '\(Quote.clip(s))' is not a number") }
        var unit: EnergyUnit? = nil
        if !symbol.isEmpty {
            guard let u = EnergyUnit(symbol: String(symbol)) else {
                throw UsageError("\(option) '\(Quote.clip(whole))': unknown energy unit '\(Quote.clip(symbol))' (use kcal, Cal or kJ)")
            }
            unit = u
        }
        return (try figure(digits, option: option, whole: whole, range: .energy, goal: goal), unit)
    }
}

extension Form where Value == FigurePair<Double> {
    /// `V/G` where either side may be `-` (missing), each in `range`.
    static func figurePair(_ range: FigureRange) -> Form<FigurePair<Double>> {
        Form<FigurePair<Double>>(
            "V/G", expected: "", json: { _, _, _ in nil },
            text: { (text, option) throws(UsageError) in
                let parts = text.split(separator: "/", omittingEmptySubsequences: false)
                guard parts.count == 2 else {
                    throw UsageError("\(option) '\(Quote.clip(text))': expected VALUE/GOAL, e.g. 350/500 (- for a missing side)")
                }
                func side(_ s: Substring, goal: Bool) throws(UsageError) -> Double? {
                    s == "-" ? nil : try FigureText.figure(s, option: option, whole: text, range: range, goal: goal)
                }
                return FigurePair(value: try side(parts[0], goal: false), goal: try side(parts[1], goal: true))
            })
    }
}

extension Form where Value == FigurePair<Energy> {
    /// `V/G` of energy, each side optionally with `kcal`, `Cal` or `kJ` (default kcal; a side
    /// without a unit takes the other side's).
    static var energyPair: Form<FigurePair<Energy>> {
        Form<FigurePair<Energy>>(
            "V/G", expected: "", json: { _, _, _ in nil },
            text: { (text, option) throws(UsageError) in
                let parts = text.split(separator: "/", omittingEmptySubsequences: false)
                guard parts.count == 2 else {
                    throw UsageError("\(option) '\(Quote.clip(text))': expected VALUE/GOAL, e.g. 350/500 or 1460kJ/2090kJ")
                }
                let v = parts[0] == "-" ? nil : try FigureText.energyParts(parts[0], option: option, whole: text, goal: false)
                let g = parts[1] == "-" ? nil : try FigureText.energyParts(parts[1], option: option, whole: text, goal: true)
                let unitV = v?.1 ?? g?.1 ?? .kilocalorie, unitG = g?.1 ?? v?.1 ?? .kilocalorie
                return FigurePair(value: v.map { Energy($0.0, unitV) }, goal: g.map { Energy($0.0, unitG) })
            })
    }
}
