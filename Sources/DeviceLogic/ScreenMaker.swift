import Raster
import Activity
import Screens

/// The screens made from data: the one place where days, gauges and a task become the ring,
/// gauge and progress screens, for the panel (`DeviceState`), `glance watch` and
/// `glance render --db` alike.
public struct ScreenMaker {
    /// Fonts (nil: no labels can be drawn), language, panel shape, whose rings, and whether the
    /// rings are drawn alone.
    public var text: (any TextRenderer)?
    public var locale: AppLocale
    public var shape: PanelShape
    public var name: String
    public var ringsOnly: Bool
    /// The labels are laid out but not drawn (`glance bench --no-text`).
    public var drawsText = true
    /// How the time is written (off: no time on the ring screen); a tiny panel's ring screen
    /// shows it instead of the day only with `clockOnTiny`.
    public var clockFormat: ClockFormat = .off
    public var clockOnTiny = false
    /// How large the panel is and how far away its viewer: the smallest text.
    public var viewing = Viewing()
    /// The household's (issue 39): seconds without a push after which a person is drawn stale;
    /// the competition's first and last day (nil: none; no last: seven days) and who takes part
    /// (names or ids; none: everyone).
    public var staleAfter = 12.0 * 3600
    public var competitionStart: CalendarDay?
    public var competitionEnd: CalendarDay?
    public var competitionPeople: [String] = []

    public init(
        text: (any TextRenderer)?, locale: AppLocale, shape: PanelShape = .rectangle, name: String = "",
        ringsOnly: Bool = false
    ) {
        self.text = text
        self.locale = locale
        self.shape = shape
        self.name = name
        self.ringsOnly = ringsOnly
    }

    public var context: ScreenContext {
        ScreenContext(text: text, locale: locale, shape: shape, viewing: viewing, drawsText: drawsText)
    }

    /// The summary the ring screen shows for `day`: none for a day still to come.
    public static func shownSummary(day: CalendarDay, today: CalendarDay, data: any ShownData) -> ActivitySummary? {
        day > today ? nil : data.summary(for: day)
    }

    /// The ring screen for `day` with `summary` (the day's, or a stage of the intro), and the
    /// week strip's other days up to today from `data`.
    public func ringScreen(
        day: CalendarDay, today: CalendarDay, summary: ActivitySummary?, data: any ShownData, time: TimeOfDay? = nil,
        page: Int = 0
    ) -> any Screen {
        if ringsOnly { return RingScreen(summary: summary) }
        var content = RingScreenContent(name: name, day: day, today: today, summary: summary, page: page)
        content.week = data.summaries(content.weekDays.filter { $0 <= today && $0 != day })
        // The hint of an empty store (asked only where the day has nothing: a day with figures
        // says the store has some, without a query).
        if summary == nil && content.week.isEmpty && data.isEmpty { content.hint = context.strings.noDataHint }
        content.clock = time.flatMap { ClockFace(time: $0, format: clockFormat) }
        content.clockOnTiny = clockOnTiny
        return RingScreen(content: content, context: context)
    }

    /// Whether the ring screen on a picture of `size` has the time on it.
    public func ringScreenShowsTime(size: Size) -> Bool {
        guard !ringsOnly, clockFormat != .off else { return false }
        return RingLayoutKind.showsTime(size: size, context: context, clockOnTiny: clockOnTiny)
    }

    /// The clock screen: `time`, the date of `day` and its rings. Written on a 24-hour clock when
    /// the configured format is off (the screen is the time).
    public func clockScreen(day: CalendarDay, summary: ActivitySummary?, time: TimeOfDay) -> any Screen {
        let face = ClockFace(time: time, twelveHour: clockFormat == .twelveHour)
        return ClockScreen(content: ClockScreenContent(face: face, day: day, summary: summary), context: context)
    }

    /// The gauges, showing `page` where they are in pages.
    public func gaugeScreen(_ gauges: [Gauge], page: Int = 0) -> any Screen {
        GaugeScreen(gauges: gauges, context: context, page: page)
    }

    public func progressScreen(_ content: ProgressContent) -> any Screen {
        ProgressScreen(content: content, context: context)
    }
}
