import Activity
import ImageFile
import Raster
import Screens
import Testing
import Text

#if canImport(Glibc)
    import Glibc
#endif

/// The layout check over the whole matrix (issue 23): every panel size and shape × every screen
/// and gauge and progress style × no refresh control, a spinning and a failed one × hard data
/// (six-digit and negative values, 1013.25 in 950–1050, long names and titles, zh-Hans, missing
/// values, a long task description). What each screen drew is its `Explanation`, from the same
/// code that draws; `LayoutCheck.check` holds the rules. On round panels the pictures are drawn
/// too, and no pixel may be lit outside the inscribed circle.
@Suite("Layout matrix: every size × screen × style × refresh control × hard data", .timeLimit(.minutes(20)))
struct LayoutMatrixTests {
    static let today = CalendarDay(year: 2026, month: 11, day: 29)!

    /// One case: what is drawn, and what must be in it.
    struct Case {
        var name: String
        var screen: any Screen
        /// Elements that must be drawn (the values of the figures and gauges).
        var required: [String] = []
        /// Whether the refresh control may be laid over it.
        var refreshable = true
    }

    static func week(_ today: CalendarDay) -> [CalendarDay: ActivitySummary] {
        var week: [CalendarDay: ActivitySummary] = [:]
        for i in 1...6 {
            week[today.adding(days: -i)] = ActivitySummary(
                activeEnergyBurned: .kilocalories(Double(100 * i)), activeEnergyBurnedGoal: .kilocalories(500),
                exerciseTime: Double(8 * i), exerciseTimeGoal: 30, standHours: Double(2 * i), standHoursGoal: 12)
        }
        return week
    }

    static func ringCases(_ locale: AppLocale, _ context: ScreenContext) -> [Case] {
        let en = locale == .english
        let long = en ? "Maximilian Alexander Featherstonehaugh" : "欧阳娜娜与司马相如的家庭活动记录"
        let lastYear = CalendarDay(year: 2025, month: 9, day: 17)!
        let all = ["rings.figure.move.value", "rings.figure.exercise.value", "rings.figure.stand.value"]
        let days: [(String, RingScreenContent, [String])] = [
            ("today", RingScreenContent(
                name: en ? "Karan" : "小林", day: today, today: today,
                summary: ActivitySummary(
                    activeEnergyBurned: .kilocalories(375), activeEnergyBurnedGoal: .kilocalories(500), exerciseTime: 15,
                    exerciseTimeGoal: 30, standHours: 14.4, standHoursGoal: 12), week: week(today)), all),
            ("six-digit figures, long name, last year", RingScreenContent(
                name: long, day: lastYear, today: today,
                summary: ActivitySummary(
                    activeEnergyBurned: Energy(123_456, .kilojoule), activeEnergyBurnedGoal: Energy(104_600, .kilojoule),
                    exerciseTime: 1245, exerciseTimeGoal: 30, standHours: 23, standHoursGoal: 12)), all),
            ("missing values, a Wednesday", RingScreenContent(
                name: long, day: CalendarDay(year: 2026, month: 9, day: 30)!, today: CalendarDay(year: 2026, month: 12, day: 1)!,
                summary: ActivitySummary(
                    activeEnergyBurned: nil, activeEnergyBurnedGoal: .kilocalories(500), exerciseTime: 20,
                    exerciseTimeGoal: nil, standHours: nil, standHoursGoal: 12)), all),
            ("no data, no name", RingScreenContent(name: "", day: today.adding(days: -40), today: today, summary: nil), all),
            ("move time only, yesterday", RingScreenContent(
                name: long, day: today.adding(days: -1), today: today,
                summary: ActivitySummary(moveTime: 48, moveTimeGoal: 60, moveMode: .moveTime)), ["rings.figure.move.value"]),
            // A step counter's day (Gadgetbridge, Health Connect without energy): Move in steps,
            // five-digit figures against a five-digit goal.
            ("steps, a band's day", RingScreenContent(
                name: long, day: today, today: today,
                summary: ActivitySummary(
                    exerciseTime: 34, exerciseTimeGoal: 30, standHours: 11, standHoursGoal: 12, moveMode: .steps,
                    steps: 12_847, stepsGoal: 10_000)), all),
            ("the time in the header", RingScreenContent(
                name: long, day: today, today: today,
                summary: ActivitySummary(
                    activeEnergyBurned: .kilocalories(1_375), activeEnergyBurnedGoal: .kilocalories(1_050),
                    exerciseTime: 15, exerciseTimeGoal: 30, standHours: 9, standHoursGoal: 12),
                week: week(today), clock: ClockFace(time: TimeOfDay(hour: 12, minute: 59)!, twelveHour: en)), all),
            ("the time instead of the day", RingScreenContent(
                name: "", day: today, today: today, summary: nil,
                clock: ClockFace(time: TimeOfDay(hour: 23, minute: 59)!, twelveHour: true), clockOnTiny: true), all),
        ]
        // A store with nothing yet: the hint says how to get data, in place of the "—" figures.
        let empty = RingScreenContent(name: "", day: today, today: today, summary: nil, hint: locale.strings.noDataHint)
        return days.map { Case(name: "rings \($0.0)", screen: RingScreen(content: $0.1, context: context), required: $0.2) }
            + [Case(name: "rings an empty store", screen: RingScreen(content: empty, context: context), required: ["rings.hint.1"])]
    }

    static func clockCases(_ locale: AppLocale, _ context: ScreenContext) -> [Case] {
        [true, false].map { twelve in
            let content = ClockScreenContent(
                face: ClockFace(time: TimeOfDay(hour: twelve ? 22 : 8, minute: 48)!, twelveHour: twelve),
                day: CalendarDay(year: 2026, month: 9, day: 30)!, summary: nil)
            return Case(name: "clock \(twelve ? "12h" : "24h")", screen: ClockScreen(content: content, context: context),
                        required: ["clock.time", "clock.date"])
        }
    }

    /// Hard values for a gauge: title, value, range and unit, an age.
    static func gaugeData(_ locale: AppLocale) -> [(String, String, Double?, Double, Double, String, Double?)] {
        let en = locale == .english
        return [
            ("pressure", en ? "Pressure" : "气压", 1013.25, 950, 1050, "hPa", nil),
            ("six digits", en ? "Energy this year" : "今年用电", 123_456, 0, 200_000, "kWh", nil),
            ("negative", en ? "Outside" : "室外", -12.5, -20, 40, "°", nil),
            ("long title", en ? "Living room temperature by the north window" : "客厅北侧窗边的温度传感器读数", 21.5, 10, 30, "°", nil),
            ("missing", en ? "Battery" : "电池", nil, 0, 100, "%", nil),
            ("stale", en ? "CPU" : "处理器", 54, 30, 90, "°", 3 * 60),
            // Numbers a shorter form would round into others (issue 34).
            ("at the top of its range", en ? "Pressure" : "气压", 1050, 950, 1050, "hPa", nil),
            ("a decimal below zero", en ? "Freezer" : "冰柜", -18.5, -30, 0, "°C", nil),
            ("a price", en ? "Electricity" : "电价", 0.045, 0, 0.5, "€/kWh", nil),
            ("nearly full", en ? "Battery" : "电池", 99.95, 0, 100, "%", nil),
            ("a tiny fraction", en ? "Dose" : "剂量", 0.000123, 0, 0.001, "Sv", nil),
        ]
    }

    /// What each gauge must show: its value, its title, a unit written apart as its own run.
    static func required(_ gauges: [Gauge]) -> [String] {
        gauges.enumerated().flatMap { i, g in
            ["gauge.\(i + 1).value"] + (g.title.isEmpty ? [] : ["gauge.\(i + 1).title"])
                + (g.unit.count > 1 && g.value != nil ? ["gauge.\(i + 1).value.unit"] : [])
        }
    }

    static func gaugeCases(_ locale: AppLocale, _ context: ScreenContext) -> [Case] {
        var cases: [Case] = []
        for style in GaugeStyle.allCases {
            for (name, title, value, low, high, unit, age) in gaugeData(locale) {
                let g = Gauge(style: style, value: value, minimum: low, maximum: high, title: title, unit: unit, age: age)
                cases.append(Case(name: "gauge \(style) \(name)", screen: GaugeScreen(gauges: [g], context: context),
                                  required: Self.required([g])))
            }
        }
        let en = locale == .english
        // The issue's six-gauge grid: −10° and 100 %, a stale value, a pressure.
        let six = [
            Gauge(style: .accessoryCircular, value: -10, minimum: -20, maximum: 40, title: en ? "Outside" : "室外", unit: "°"),
            Gauge(style: .accessoryCircularCapacity, value: 100, minimum: 0, maximum: 100, title: en ? "Battery" : "电池", unit: "%"),
            Gauge(style: .accessoryCircular, value: 54, minimum: 30, maximum: 90, title: "CPU", unit: "°", age: 180),
            Gauge(style: .accessoryCircular, value: 1013.25, minimum: 950, maximum: 1050, title: en ? "Pressure" : "气压", unit: "hPa"),
            Gauge(style: .accessoryLinear, value: 3.4, minimum: 0, maximum: 8, title: en ? "Load" : "负载", age: 3 * 3600),
            Gauge(style: .accessoryLinearCapacity, value: 123_456, minimum: 0, maximum: 200_000,
                  title: en ? "Energy" : "用电", unit: "kWh"),
        ]
        cases.append(Case(name: "gauge grid of six", screen: GaugeScreen(gauges: six, context: context),
                          required: Self.required(six)))
        let four = [
            Gauge(style: .accessoryCircular, value: 61, minimum: 30, maximum: 90, unit: "°"),
            Gauge(style: .accessoryCircularCapacity, value: nil, minimum: 0, maximum: 100, unit: "%"),
            Gauge(style: .circular, value: -0.5, minimum: -1, maximum: 1, title: en ? "Balance" : "余额", unit: "kW", age: 40),
            Gauge(style: .linearCapacity, value: 41, minimum: 0, maximum: 100, title: en ? "Disk" : "磁盘", unit: "%"),
        ]
        cases.append(Case(name: "gauge grid of four", screen: GaugeScreen(gauges: four, context: context),
                          required: Self.required(four)))
        return cases
    }

    static func progressCases(_ locale: AppLocale, _ context: ScreenContext) -> [Case] {
        let en = locale == .english
        let label = en ? "Importing health data" : "正在导入健康数据"
        let long = en ? "Importing 14 years of Apple Health records from export.zip (2.1 GB, 3,400,000 entries)"
            : "正在从 export.zip 导入十四年的健康记录（2.1 GB，三百四十万条）"
        let note = en ? "Cancelling leaves your data as it was" : "取消不会改动已有数据"
        var cases: [Case] = []
        for style in ProgressStyle.allCases {
            for (amountName, amount) in [("41 %", ProgressAmount.determinate(0.41)), ("indeterminate", .indeterminate)] {
                let contents: [(String, ProgressContent)] = [
                    ("plain", ProgressContent(amount: amount, style: style, label: label)),
                    ("cancellable, long", ProgressContent(amount: amount, style: style, label: long, cancellable: true,
                                                         cancelNote: note)),
                    ("cancelling", ProgressContent(amount: amount, style: style, label: long, cancelNote: note,
                                                   cancelling: true)),
                    ("no label", ProgressContent(amount: amount, style: style, cancellable: true)),
                ]
                for (name, content) in contents {
                    var required = ["progress.label.1"]
                    if content.cancelling { required.append("progress.cancelling") }
                    if content.cancellable { required.append("progress.cancel") }
                    if content.cancelNote != nil { required.append("progress.note.1") }
                    if case .determinate = amount { required.append("progress.percent") }
                    cases.append(Case(name: "progress \(style) \(amountName) \(name)",
                                      screen: ProgressScreen(content: content, context: context), required: required,
                                      refreshable: false))
                }
            }
        }
        return cases
    }

    @Test("every screen, style and refresh control at every size, in both languages",
          arguments: AppLocale.allCases, LayoutCheck.matrix.indices)
    func matrix(locale: AppLocale, sizeIndex: Int) throws {
        let (size, shape) = LayoutCheck.matrix[sizeIndex]
        let context = ScreenContext(text: try LayoutCheck.renderer(locale), locale: locale, shape: shape)
        let cases = Self.ringCases(locale, context) + Self.clockCases(locale, context) + Self.gaugeCases(locale, context)
            + Self.progressCases(locale, context)
        let composer = FrameComposer(panel: size)
        // GLANCE_LAYOUT_PICTURES=DIR writes the picture of every case whose name contains
        // GLANCE_LAYOUT_ONLY (every case without it) there, to look at.
        let pictures = getenv("GLANCE_LAYOUT_PICTURES").map { String(cString: $0) }
        let only = getenv("GLANCE_LAYOUT_ONLY").map { String(cString: $0) } ?? ""
        var checked = 0
        let capRatio = context.text?.capRatio ?? Legibility.usualCapRatio
        for c in cases {
            // Every page of it: what is required may be on any.
            let pages = c.screen.pageCount(for: size)
            var drawn: [TextRun] = []
            var omitted: [Omission] = []
            for page in 0..<pages {
                let paged = c.screen.showing(page: page)
                let overlays: [(String, any Screen)] = c.refreshable
                    ? [("", paged), (", refreshing", RefreshOverlay(screen: paged, state: .spinning, context: context)),
                       (", refresh failed", RefreshOverlay(screen: paged, state: .failed, context: context))]
                    : [("", paged)]
                for (overlay, screen) in overlays {
                    let what = "\(c.name)\(overlay) page \(page + 1) of \(pages) \(size) \(shape) \(locale)"
                    let e = Explanation(of: screen, size: size, shape: shape, capRatio: capRatio, at: 0.3)
                    #expect(e.pageCount == pages && e.page == page, "\(what): explained as page \(e.page + 1) of \(e.pageCount)")
                    LayoutCheck.check(e, what)
                    if overlay.isEmpty {
                        drawn += e.texts
                        omitted += e.omitted
                    }
                    if getenv("GLANCE_LAYOUT_EXPLAIN") != nil && what.contains(only) {
                        print("\(what):")
                        for t in e.texts {
                            print("  \(t.element) '\(t.text)' \(t.style.size) px \(e.capHeight(t).arcMinutes)′ \(t.box)\(t.full.map { " (whole: '\($0)')" } ?? "")")
                        }
                        for o in e.omitted { print("  omitted \(o)") }
                        for a in e.arcs { print("  arc \(a)") }
                        for s in e.shapes { print("  \(s.name) \(s.box)") }
                    }
                    if let pictures, only.isEmpty || what.contains(only) {
                        let file = "\(what)".map { $0.isLetter || $0.isNumber ? $0 : "-" }
                        try PNGFile.write(composer.render(screen, at: 0.3), to: "\(pictures)/\(String(file)).png")
                    }
                    if shape == .round {
                        let outside = LayoutCheck.litOutsideCircle(composer.render(screen, at: 0.3))
                        #expect(outside == 0, "\(what): \(outside) pixels lit outside the circle")
                    }
                    checked += 1
                }
            }
            for element in c.required {
                // Drawn on some page, or left out and said why (a note a small circle holds only
                // cut: `Explanation.omitted`).
                let said = omitted.contains { element.hasPrefix($0.element) }
                #expect(drawn.contains { $0.element == element } || said,
                        "\(c.name) \(size) \(shape) \(locale): no \(element) on any page")
            }
        }
        #expect(checked > 100)
    }
}
