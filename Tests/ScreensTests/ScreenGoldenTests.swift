import Activity
import Raster
import Screens
import Testing
import Text

/// Goldens of every screen and style at the panel sizes, in English and Simplified Chinese.
@Suite("Screen goldens (text, gauges, progress)", .timeLimit(.minutes(20)))
struct ScreenGoldenTests {
    static let today = CalendarDay(year: 2026, month: 11, day: 29)!

    static func renderer(_ locale: AppLocale) throws -> FreeTypeTextRenderer { try LayoutCheck.renderer(locale) }

    static func sizeName(_ size: Size, _ shape: PanelShape) -> String { shape == .round ? "\(size)-round" : "\(size)" }

    /// A realistic week: Monday to Saturday done, Sunday (today) in progress.
    static let week: [CalendarDay: ActivitySummary] = {
        let numbers: [(Double, Double, Double)] = [(420, 32, 10), (515, 45, 12), (180, 5, 7), (610, 62, 13), (330, 22, 9), (750, 80, 14)]
        var week: [CalendarDay: ActivitySummary] = [:]
        for (i, n) in numbers.enumerated() {
            week[today.adding(days: i - 6)] = ActivitySummary(
                activeEnergyBurned: .kilocalories(n.0), activeEnergyBurnedGoal: .kilocalories(500), exerciseTime: n.1,
                exerciseTimeGoal: 30, standHours: n.2, standHoursGoal: 12)
        }
        return week
    }()

    static let todaySummary = ActivitySummary(
        activeEnergyBurned: .kilocalories(375), activeEnergyBurnedGoal: .kilocalories(500), exerciseTime: 15,
        exerciseTimeGoal: 30, standHours: 14.4, standHoursGoal: 12)

    static let stepsSummary = ActivitySummary(
        exerciseTime: 34, exerciseTimeGoal: 30, standHours: 9, standHoursGoal: 12, moveMode: .steps, steps: 8_432,
        stepsGoal: 10_000)

    @Test("ring screen at every size", arguments: AppLocale.allCases, LayoutCheck.sizes.indices)
    func rings(locale: AppLocale, sizeIndex: Int) throws {
        let (size, shape) = LayoutCheck.sizes[sizeIndex]
        let content = RingScreenContent(name: locale == .english ? "Karan" : "小林", day: Self.today, today: Self.today,
                                        summary: Self.todaySummary, week: Self.week)
        let screen = RingScreen(content: content, context: ScreenContext(text: try Self.renderer(locale), locale: locale, shape: shape))
        GoldenImage.expectMatches(FrameComposer(panel: size).render(screen),
                                  named: "screen-rings-\(Self.sizeName(size, shape))-\(locale.rawValue)")
    }

    @Test("ring screen: another day, Move only, no data")
    func ringVariants() throws {
        let en = try Self.renderer(.english), zh = try Self.renderer(.simplifiedChinese)
        let cases: [(String, Size, AppLocale, FreeTypeTextRenderer, RingScreenContent)] = [
            ("screen-rings-wednesday-800x480-en", Size(width: 800, height: 480), .english, en,
             RingScreenContent(name: "Karan", day: Self.today.adding(days: -4), today: Self.today,
                               summary: Self.week[Self.today.adding(days: -4)], week: Self.week)),
            ("screen-rings-moveonly-480x480-zh-Hans", Size(width: 480, height: 480), .simplifiedChinese, zh,
             RingScreenContent(name: "小林", day: Self.today.adding(days: -1), today: Self.today,
                               summary: ActivitySummary(activeEnergyBurned: .kilocalories(313), activeEnergyBurnedGoal: .kilocalories(300),
                                                        exerciseTime: 0, exerciseTimeGoal: 0, standHours: 0, standHoursGoal: 0))),
            // A band's day through Gadgetbridge: Move in steps, said with the source's word.
            ("screen-rings-steps-480x480-en", Size(width: 480, height: 480), .english, en,
             RingScreenContent(name: "Karan", day: Self.today, today: Self.today, summary: Self.stepsSummary)),
            ("screen-rings-steps-480x480-zh-Hans", Size(width: 480, height: 480), .simplifiedChinese, zh,
             RingScreenContent(name: "小林", day: Self.today, today: Self.today, summary: Self.stepsSummary)),
            ("screen-rings-nodata-720x1280-en", Size(width: 720, height: 1280), .english, en,
             RingScreenContent(name: "Karan", day: CalendarDay(year: 2025, month: 3, day: 2)!, today: Self.today, summary: nil)),
        ]
        for (name, size, locale, text, content) in cases {
            let screen = RingScreen(content: content, context: ScreenContext(text: text, locale: locale))
            GoldenImage.expectMatches(FrameComposer(panel: size).render(screen), named: name)
        }
    }

    static func title(_ locale: AppLocale) -> String { locale == .english ? "CPU temperature" : "处理器温度" }

    @Test("every gauge style, large", arguments: AppLocale.allCases, GaugeStyle.allCases)
    func gaugeStyles(locale: AppLocale, style: GaugeStyle) throws {
        let gauge = Gauge(style: style, value: 72, minimum: 30, maximum: 90, title: Self.title(locale), unit: "°")
        let screen = GaugeScreen(gauges: [gauge], context: ScreenContext(text: try Self.renderer(locale), locale: locale))
        GoldenImage.expectMatches(FrameComposer(panel: Size(width: 480, height: 480)).render(screen),
                                  named: "screen-gauge-\(style.rawValue)-480x480-\(locale.rawValue)")
    }

    @Test("gauges: out of range pins and shows the number; missing shows — and no marker")
    func gaugeEdgeCases() throws {
        let text = try Self.renderer(.english)
        let cases: [(String, [Gauge])] = [
            ("outofrange", [Gauge(style: .circular, value: 104.5, minimum: 30, maximum: 90, title: "CPU temperature", unit: "°")]),
            ("below", [Gauge(style: .linear, value: -12, minimum: 0, maximum: 40, title: "Outside", unit: "°")]),
            ("missing", [Gauge(style: .circularCapacity, value: nil, minimum: 0, maximum: 100, title: "Battery", unit: "%")]),
            ("missing-linear", [Gauge(style: .linearCapacity, value: .nan, minimum: 0, maximum: 100, title: "Battery", unit: "%")]),
        ]
        for (name, gauges) in cases {
            let screen = GaugeScreen(gauges: gauges, context: ScreenContext(text: text))
            GoldenImage.expectMatches(FrameComposer(panel: Size(width: 480, height: 480)).render(screen),
                                      named: "screen-gauge-\(name)-480x480-en")
        }
    }

    static func grid(_ locale: AppLocale) -> [Gauge] {
        let en = locale == .english
        return [
            Gauge(style: .accessoryCircular, value: 61, minimum: 30, maximum: 90, unit: "°"),
            Gauge(style: .accessoryCircularCapacity, value: 72, minimum: 0, maximum: 100, unit: "%"),
            Gauge(style: .accessoryLinear, value: 3.4, minimum: 0, maximum: 8, title: en ? "Load" : "负载"),
            Gauge(style: .accessoryLinearCapacity, value: 41, minimum: 0, maximum: 100, title: en ? "Disk" : "磁盘", unit: "%"),
        ]
    }

    @Test("a grid of accessory gauges at every size", arguments: AppLocale.allCases, LayoutCheck.sizes.indices)
    func gaugeGrid(locale: AppLocale, sizeIndex: Int) throws {
        let (size, shape) = LayoutCheck.sizes[sizeIndex]
        let screen = GaugeScreen(gauges: Self.grid(locale),
                                 context: ScreenContext(text: try Self.renderer(locale), locale: locale, shape: shape))
        GoldenImage.expectMatches(FrameComposer(panel: size).render(screen),
                                  named: "screen-gauge-grid-\(Self.sizeName(size, shape))-\(locale.rawValue)")
    }

    @Test("stale values (dimmed, with their age) and a value never seen, in both languages", arguments: AppLocale.allCases)
    func staleGauges(locale: AppLocale) throws {
        let en = locale == .english
        let gauges = [
            Gauge(style: .accessoryCircular, value: 7.5, minimum: -10, maximum: 35, unit: "°", age: 720),
            Gauge(style: .accessoryCircularCapacity, value: nil, minimum: 0, maximum: 100, unit: "%"),
            Gauge(style: .accessoryLinear, value: 3.4, minimum: 0, maximum: 8, title: en ? "Load" : "负载", age: 3 * 3600),
            Gauge(style: .accessoryLinearCapacity, value: 41, minimum: 0, maximum: 100, title: en ? "Disk" : "磁盘", unit: "%"),
        ]
        let context = ScreenContext(text: try Self.renderer(locale), locale: locale)
        GoldenImage.expectMatches(FrameComposer(panel: Size(width: 480, height: 480)).render(GaugeScreen(gauges: gauges, context: context)),
                                  named: "screen-gauge-stale-480x480-\(locale.rawValue)")
        let one = GaugeScreen(gauges: [Gauge(style: .circular, value: 21.5, minimum: 10, maximum: 30, title: en ? "Living room" : "客厅", unit: "°", age: 2 * 86400)], context: context)
        GoldenImage.expectMatches(FrameComposer(panel: Size(width: 480, height: 480)).render(one),
                                  named: "screen-gauge-stale-large-480x480-\(locale.rawValue)")
    }

    static func label(_ locale: AppLocale) -> String { locale == .english ? "Importing health data" : "正在导入健康数据" }
    static func note(_ locale: AppLocale) -> String { locale == .english ? "Cancelling leaves your data as it was" : "取消不会改动已有数据" }

    @Test("every progress style, known and unknown amounts", arguments: AppLocale.allCases, ProgressStyle.allCases)
    func progressStyles(locale: AppLocale, style: ProgressStyle) throws {
        let text = try Self.renderer(locale)
        for (name, amount) in [("determinate", ProgressAmount.determinate(0.41)), ("indeterminate", .indeterminate)] {
            let content = ProgressContent(amount: amount, style: style, label: Self.label(locale), cancellable: true,
                                          cancelNote: Self.note(locale))
            let screen = ProgressScreen(content: content, context: ScreenContext(text: text, locale: locale))
            GoldenImage.expectMatches(FrameComposer(panel: Size(width: 480, height: 480)).render(screen, at: 0.3),
                                      named: "screen-progress-\(style.rawValue)-\(name)-480x480-\(locale.rawValue)")
        }
    }

    @Test("progress at every size", arguments: AppLocale.allCases, LayoutCheck.sizes.indices)
    func progressSizes(locale: AppLocale, sizeIndex: Int) throws {
        let (size, shape) = LayoutCheck.sizes[sizeIndex]
        let content = ProgressContent(amount: .determinate(0.67), style: .circular, label: Self.label(locale), cancellable: true)
        let screen = ProgressScreen(content: content,
                                    context: ScreenContext(text: try Self.renderer(locale), locale: locale, shape: shape))
        GoldenImage.expectMatches(FrameComposer(panel: size).render(screen),
                                  named: "screen-progress-\(Self.sizeName(size, shape))-\(locale.rawValue)")
    }

    @Test("issue 23's hard cases on the small panels: whole numbers, the six-gauge grid, Cancelling…, a long task")
    func smallPanels() throws {
        let en = try Self.renderer(.english), zh = try Self.renderer(.simplifiedChinese)
        let small240 = Size(width: 240, height: 240), wide = Size(width: 320, height: 240), tall = Size(width: 240, height: 320)
        let six: (AppLocale) -> [Gauge] = { locale in
            let en = locale == .english
            return [
                Gauge(style: .accessoryCircular, value: -10, minimum: -20, maximum: 40, title: en ? "Outside" : "室外", unit: "°"),
                Gauge(style: .accessoryCircularCapacity, value: 100, minimum: 0, maximum: 100, title: en ? "Battery" : "电池", unit: "%"),
                Gauge(style: .accessoryCircular, value: 54, minimum: 30, maximum: 90, title: "CPU", unit: "°", age: 180),
                Gauge(style: .accessoryCircular, value: 1013.25, minimum: 950, maximum: 1050, title: en ? "Pressure" : "气压", unit: "hPa"),
                Gauge(style: .accessoryLinear, value: 3.4, minimum: 0, maximum: 8, title: en ? "Load" : "负载"),
                Gauge(style: .accessoryLinearCapacity, value: 41, minimum: 0, maximum: 100, title: en ? "Disk" : "磁盘", unit: "%"),
            ]
        }
        let longLabel: (AppLocale) -> String = {
            $0 == .english ? "Importing 14 years of Apple Health records from export.zip"
                : "正在从 export.zip 导入十四年的健康记录"
        }
        let cases: [(String, Size, PanelShape, AppLocale, any Screen)] = [
            ("screen-gauge-pressure-240x240-en", small240, .rectangle, .english, GaugeScreen(gauges: [
                Gauge(style: .accessoryCircular, value: 1013.25, minimum: 950, maximum: 1050, title: "Pressure", unit: "hPa"),
            ], context: ScreenContext(text: en))),
            ("screen-gauge-energy-320x240-zh-Hans", wide, .rectangle, .simplifiedChinese, GaugeScreen(gauges: [
                Gauge(style: .circular, value: 123_456, minimum: 0, maximum: 200_000, title: "今年用电", unit: "kWh"),
            ], context: ScreenContext(text: zh, locale: .simplifiedChinese))),
            ("screen-gauge-outside-240x320-en", tall, .rectangle, .english, GaugeScreen(gauges: [
                Gauge(style: .linear, value: -12.5, minimum: -20, maximum: 40, title: "Outside", unit: "°"),
            ], context: ScreenContext(text: en))),
            ("screen-gauge-six-240x240-en", small240, .rectangle, .english,
             GaugeScreen(gauges: six(.english), context: ScreenContext(text: en))),
            ("screen-gauge-six-240x240-round-zh-Hans", small240, .round, .simplifiedChinese,
             GaugeScreen(gauges: six(.simplifiedChinese), context: ScreenContext(text: zh, locale: .simplifiedChinese, shape: .round))),
            ("screen-progress-cancelling-240x240-round-zh-Hans", small240, .round, .simplifiedChinese, ProgressScreen(
                content: ProgressContent(amount: .determinate(0.41), style: .circular, label: longLabel(.simplifiedChinese),
                                         cancelNote: Self.note(.simplifiedChinese), cancelling: true),
                context: ScreenContext(text: zh, locale: .simplifiedChinese, shape: .round))),
            ("screen-progress-cancelling-320x240-en", wide, .rectangle, .english, ProgressScreen(
                content: ProgressContent(amount: .indeterminate, style: .bar, label: longLabel(.english),
                                         cancelNote: Self.note(.english), cancelling: true),
                context: ScreenContext(text: en))),
        ]
        for (name, size, shape, _, screen) in cases {
            let frame = FrameComposer(panel: size).render(screen, at: 0.3)
            LayoutCheck.check(Explanation(of: screen, size: size, shape: shape, at: 0.3), name)
            GoldenImage.expectMatches(frame, named: name)
        }
        // The refresh control over the smallest ring screens, where it finds room beside the day.
        for (locale, size, shape, state) in [
            (AppLocale.english, small240, PanelShape.rectangle, RefreshOverlay.State.failed),
            (.simplifiedChinese, small240, .round, .spinning), (.english, wide, .rectangle, .failed),
        ] {
            let base = try RefreshOverlayTests.ringScreen(locale, shape: shape)
            let overlay = RefreshOverlay(screen: base, state: state, context: base.context)
            let name = "refresh-\(state == .spinning ? "spinning" : "failed")-\(Self.sizeName(size, shape))-\(locale.rawValue)"
            LayoutCheck.check(Explanation(of: overlay, size: size, shape: shape, at: 0.25), name)
            GoldenImage.expectMatches(FrameComposer(panel: size).render(overlay, at: 0.25), named: name)
        }
    }

    @Test("spinner frames at fixed times", arguments: [0.0, 0.25, 0.5, 0.75])
    func spinnerFrames(time: Double) throws {
        let content = ProgressContent(amount: .indeterminate, style: .circular, label: "Reading export.zip")
        let screen = ProgressScreen(content: content, context: ScreenContext(text: try Self.renderer(.english)))
        let ms = Int(time * 1000)
        GoldenImage.expectMatches(FrameComposer(panel: Size(width: 240, height: 240)).render(screen, at: time),
                                  named: "screen-progress-spinner-t\(ms)ms-240x240-en")
    }
}
