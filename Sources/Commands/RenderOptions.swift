import Activity
import Raster
import Screens
import Store
import Text

/// What to draw and how the panel takes it: the options `render` and `bench` share.
struct ScreenOptions {
    var screen = "rings"
    var sizes: [Size] = []
    var rotation = Rotation.none
    var format = PixelFormat.xrgb8888
    var summary: ActivitySummary? = ActivitySummary()
    var summaryGiven = false
    var noSummary = false
    var ringsOnly = false
    var name = ""
    var date: CalendarDay?
    var today: CalendarDay?
    var locale: AppLocale?
    var shape = PanelShape.rectangle
    var fontFile: String?
    var cjkFontFile: String?
    // Gauge and progress screens.
    var style: String?
    var gaugeValue: Double? = nil
    var gaugeValueGiven = false
    var gaugeMin = 0.0
    var gaugeMax = 100.0
    var title = ""
    var unit = ""
    var tint: [Color] = []
    var fraction: Double?
    var indeterminate = false
    var label = ""
    var cancellable = false
    var cancelNote: String?
    var time = 0.0

    /// Consumes `option` if it is one of these; false if it is not.
    mutating func parse(_ option: String, _ args: inout Arguments) throws(UsageError) -> Bool {
        switch option {
        case "--screen":
            let name = try args.value(for: option)
            guard Self.screens.contains(name) else {
                throw UsageError("--screen '\(name)': expected one of \(Self.screens.joined(separator: ", "))")
            }
            screen = name
        case "--size":
            for part in try args.value(for: option).split(separator: ",", omittingEmptySubsequences: false) {
                sizes.append(try Parse.size(String(part), option: option))
            }
        case "--rotate": rotation = try Parse.rotation(try args.value(for: option), option: option)
        case "--format": format = try Parse.format(try args.value(for: option), option: option)
        case "--move":
            let (v, g) = try Parse.energy(try args.value(for: option), option: option)
            summary?.activeEnergyBurned = v
            summary?.activeEnergyBurnedGoal = g
            summaryGiven = true
        case "--move-time":
            let (v, g) = try Parse.valueGoal(try args.value(for: option), option: option)
            summary?.moveTime = v
            summary?.moveTimeGoal = g
            summary?.moveMode = .moveTime
            summaryGiven = true
        case "--exercise":
            let (v, g) = try Parse.valueGoal(try args.value(for: option), option: option)
            summary?.exerciseTime = v
            summary?.exerciseTimeGoal = g
            summaryGiven = true
        case "--stand":
            let (v, g) = try Parse.valueGoal(try args.value(for: option), option: option)
            summary?.standHours = v
            summary?.standHoursGoal = g
            summaryGiven = true
        case "--no-summary":
            noSummary = true
        case "--rings-only":
            ringsOnly = true
        case "--name":
            name = try args.value(for: option)
        case "--date":
            let text = try args.value(for: option)
            guard let d = CalendarDay(iso: text) else {
                throw UsageError("--date '\(text)': expected a date as YYYY-MM-DD, e.g. 2026-11-29")
            }
            date = d
        case "--today":
            let text = try args.value(for: option)
            guard let d = CalendarDay(iso: text) else {
                throw UsageError("--today '\(text)': expected a date as YYYY-MM-DD, e.g. 2026-11-29")
            }
            today = d
        case "--locale":
            let text = try args.value(for: option)
            guard let l = AppLocale(name: text) else { throw UsageError("--locale '\(text)': expected en or zh-Hans") }
            locale = l
        case "--shape":
            let text = try args.value(for: option)
            guard let s = PanelShape(rawValue: text.lowercased()) else {
                throw UsageError("--shape '\(text)': expected rectangle or round")
            }
            shape = s
        case "--style":
            style = try args.value(for: option)
        case "--value":
            let text = try args.value(for: option)
            gaugeValueGiven = true
            if text == "-" || text.lowercased() == "nan" {
                gaugeValue = nil
            } else {
                gaugeValue = try Parse.real(text, option: option)
            }
        case "--min": gaugeMin = try Parse.real(try args.value(for: option), option: option)
        case "--max": gaugeMax = try Parse.real(try args.value(for: option), option: option)
        case "--title": title = try args.value(for: option)
        case "--unit": unit = try args.value(for: option)
        case "--tint":
            tint = try Parse.colors(try args.value(for: option), option: option)
        case "--fraction":
            let text = try args.value(for: option)
            let f = try Parse.real(text, option: option)
            guard (0...1).contains(f) else { throw UsageError("--fraction '\(text)': expected a fraction from 0 to 1") }
            fraction = f
        case "--indeterminate": indeterminate = true
        case "--label": label = try args.value(for: option)
        case "--cancellable": cancellable = true
        case "--cancel-note":
            cancelNote = try args.value(for: option)
            cancellable = true
        case "--time": time = try Parse.real(try args.value(for: option), option: option)
        case "--font":
            fontFile = try args.value(for: option)
        case "--cjk-font":
            cjkFontFile = try args.value(for: option)
        default:
            return false
        }
        return true
    }

    /// Checks the combination once every option is read.
    mutating func finish() throws(UsageError) {
        switch screen {
        case "gauge":
            let name = style ?? GaugeStyle.circular.rawValue
            guard GaugeStyle(rawValue: name) != nil else {
                throw UsageError("--style '\(name)': a gauge style is one of \(GaugeStyle.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard gaugeMax > gaugeMin else {
                throw UsageError("--min \(gaugeMin) and --max \(gaugeMax): the maximum must be above the minimum")
            }
        case "progress":
            let name = style ?? ProgressStyle.bar.rawValue
            guard ProgressStyle(rawValue: name) != nil else {
                throw UsageError("--style '\(name)': a progress style is one of \(ProgressStyle.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if fraction != nil && indeterminate {
                throw UsageError("--fraction and --indeterminate: give one (the amount of work is known or it is not)")
            }
            if fraction == nil && !indeterminate {
                throw UsageError("progress: give --fraction F (0 to 1) or --indeterminate")
            }
        default:
            if style != nil { throw UsageError("--style is for --screen gauge or progress") }
        }
        if noSummary {
            if summaryGiven {
                throw UsageError("--no-summary draws a day without data; drop --move/--move-time/--exercise/--stand")
            }
            summary = nil
        }
    }

    static let screens = ["rings", "gauge", "progress"]

    /// The language: --locale, else the environment's (LC_ALL, LC_MESSAGES, LANG).
    var resolvedLocale: AppLocale { locale ?? AppLocale(environment: SystemClock.languageVariable()) }

    /// The fonts when the screen draws text (nil when it does not); on a missing font, the
    /// complaint is made and the exit status (69) comes back.
    func loadText(needed: Bool? = nil) -> Result<FreeTypeTextRenderer?, ExitStatus> {
        guard needed ?? needsText else { return .success(nil) }
        do {
            return .success(try makeTextRenderer())
        } catch {
            complain(error.message)
            return .failure(ExitStatus(ExitCode.unavailable))
        }
    }

    /// The fonts for the language (FontError names what is missing and the Debian package).
    func makeTextRenderer() throws(FontError) -> FreeTypeTextRenderer {
        var fonts = FreeTypeTextRenderer.Fonts(file: fontFile)
        if resolvedLocale == .simplifiedChinese {
            fonts.languages = [.simplifiedChinese]
            if let cjkFontFile { fonts.languageFiles[.simplifiedChinese] = cjkFontFile }
        }
        return try FreeTypeTextRenderer(fonts: fonts)
    }

    /// The screen to draw; with `drawsText` false its labels are laid out but not drawn.
    func makeScreen(text: (any TextRenderer)?, drawsText: Bool = true) -> any Screen {
        let context = ScreenContext(text: text, locale: resolvedLocale, shape: shape, drawsText: drawsText)
        switch screen {
        case "gauge":
            let gauge = Gauge(
                style: GaugeStyle(rawValue: style ?? "circular") ?? .circular, value: gaugeValue, minimum: gaugeMin,
                maximum: gaugeMax, title: title, unit: unit, tint: tint)
            return GaugeScreen(gauges: [gauge], context: context)
        case "progress":
            let content = ProgressContent(
                amount: fraction.map { .determinate($0) } ?? .indeterminate,
                style: ProgressStyle(rawValue: style ?? "bar") ?? .bar, label: label, cancellable: cancellable,
                cancelNote: cancelNote)
            return ProgressScreen(content: content, context: context)
        default:
            break
        }
        if ringsOnly { return RingScreen(summary: summary) }
        let today = self.today ?? SystemClock.today()
        let content = RingScreenContent(name: name, day: date ?? today, today: today, summary: summary)
        return RingScreen(content: content, context: context)
    }

    /// The ring screen for `--date` with its summary and week from `store`.
    func ringScreen(from store: Store, text: (any TextRenderer)?) throws(StoreError) -> any Screen {
        let today = self.today ?? SystemClock.today()
        let day = date ?? today
        let summary = day > today ? nil : try store.summary(for: day)
        if ringsOnly { return RingScreen(summary: summary) }
        var content = RingScreenContent(name: name, day: day, today: today, summary: summary)
        for (d, s) in try store.summaries(from: content.weekDays[0], through: content.weekDays[6])
        where d != day && d <= today {
            content.week[d] = s
        }
        return RingScreen(content: content, context: ScreenContext(text: text, locale: resolvedLocale, shape: shape))
    }

    /// Whether the screen draws text (and so needs fonts).
    var needsText: Bool { !(ringsOnly && screen == "rings") }
}
