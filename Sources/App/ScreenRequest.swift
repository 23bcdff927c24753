import Activity
import CLI
import Raster
import Screens

/// The screen, the day and the look as the command line gives them (`glance render`, `glance
/// run`, `glance bench`): each field nil or empty when it was not given.
public struct ScreenRequest: Sendable {
    public enum Kind: String, CaseIterable, Sendable {
        case rings, gauge, progress, clock
    }

    public var screen = Kind.rings
    public var rotation: Rotation?
    public var format: PixelFormat?
    /// The day's figures, as far as they were given.
    public var summary = ActivitySummary()
    public var summaryGiven = false
    /// A day with no summary at all.
    public var noSummary = false
    public var ringsOnly = false
    public var name: String?
    public var date: CalendarDay?
    public var today: CalendarDay?
    public var locale: AppLocale?
    public var shape: PanelShape?
    public var fontFile: String?
    public var cjkFontFile: String?
    // The gauge screen.
    public var style: String?
    public var gaugeValue: Double?
    public var gaugeValueGiven = false
    public var gaugeMinimum = 0.0
    public var gaugeMaximum = 100.0
    public var title = ""
    public var unit = ""
    public var tint: [Color] = []
    // The progress screen.
    public var fraction: Double?
    public var indeterminate = false
    public var label = ""
    public var cancellable = false
    public var cancelNote: String?
    /// The animation clock, in seconds.
    public var time = 0.0
    /// The time of day the clock shows (nil: the system's), and how it is written (nil: as the
    /// language and region write it).
    public var clockTime: TimeOfDay?
    public var clockFormat: ClockFormat?

    public init() {}

    /// Checks the combination once every option is read.
    public func check() throws(UsageError) {
        switch screen {
        case .gauge:
            let name = style ?? GaugeStyle.circular.rawValue
            guard GaugeStyle(rawValue: name) != nil else {
                throw UsageError(
                    "--style '\(name)': a gauge style is one of \(GaugeStyle.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard gaugeMaximum > gaugeMinimum else {
                throw UsageError("--min \(gaugeMinimum) and --max \(gaugeMaximum): the maximum must be above the minimum")
            }
        case .progress:
            let name = style ?? ProgressStyle.bar.rawValue
            guard ProgressStyle(rawValue: name) != nil else {
                throw UsageError(
                    "--style '\(name)': a progress style is one of \(ProgressStyle.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if fraction != nil && indeterminate {
                throw UsageError("--fraction and --indeterminate: give one (the amount of work is known or it is not)")
            }
            if fraction == nil && !indeterminate { throw UsageError("progress: give --fraction F (0 to 1) or --indeterminate") }
        case .rings, .clock:
            if style != nil { throw UsageError("--style is for --screen gauge or progress") }
        }
        if noSummary && summaryGiven {
            throw UsageError("--no-summary draws a day without data; drop --move/--move-time/--exercise/--stand")
        }
    }

    /// The command line gives what to show (a day, a gauge, a task) instead of the store.
    public var givesContent: Bool { summaryGiven || noSummary || screen == .gauge || screen == .progress }

    /// The day's summary as given (nil: a day without one).
    public var shownSummary: ActivitySummary? { noSummary ? nil : summary }

    /// The request with `summary` as the day's (nil: a day without one).
    func with(summary: ActivitySummary?) -> ScreenRequest {
        var o = self
        if let summary {
            o.summary = summary
            o.noSummary = false
        } else {
            o.noSummary = true
        }
        return o
    }

    /// The language: the one given, else the environment's (LC_ALL, LC_MESSAGES, LANG).
    public func resolvedLocale(environment: String?) -> AppLocale { locale ?? AppLocale(environment: environment) }

    /// Whether the screen draws text (and so needs fonts).
    public var needsText: Bool { !(ringsOnly && screen == .rings) }

    /// The time the clock shows: the one given, else the system's.
    public var shownTime: TimeOfDay { clockTime ?? SystemLocalClock().timeOfDay() }

    public var gauge: Gauge {
        Gauge(
            style: GaugeStyle(rawValue: style ?? "circular") ?? .circular, value: gaugeValue, minimum: gaugeMinimum,
            maximum: gaugeMaximum, title: title, unit: unit, tint: tint)
    }

    public var progress: ProgressContent {
        ProgressContent(
            amount: fraction.map { .determinate($0) } ?? .indeterminate,
            style: ProgressStyle(rawValue: style ?? "bar") ?? .bar, label: label, cancellable: cancellable,
            cancelNote: cancelNote)
    }

    /// The screen as given: the day (with no week: render's), the gauge or the task.
    public func makeScreen(with maker: ScreenMaker, today systemToday: CalendarDay) -> any Screen {
        let today = self.today ?? systemToday
        switch screen {
        case .gauge: return maker.gaugeScreen([gauge])
        case .progress: return maker.progressScreen(progress)
        case .rings:
            let days = FixedData(days: [:])
            return maker.ringScreen(day: date ?? today, today: today, summary: shownSummary, data: days, time: shownTime)
        case .clock:
            return maker.clockScreen(day: date ?? today, summary: shownSummary, time: shownTime)
        }
    }
}
