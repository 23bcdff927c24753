import Activity
import Raster
import Screens
import Testing
import Text

/// Every screen at every panel size, in both languages: nothing clipped, nothing overlapping,
/// rings never crowded, round panels respected, nothing under the type scale's floor, no
/// number cut. Screens report what they placed (`Explanation`, from the drawing code itself).
enum LayoutCheck {
    /// The sizes the goldens are drawn at.
    static let sizes: [(Size, PanelShape)] = [
        (Size(width: 800, height: 480), .rectangle), (Size(width: 720, height: 1280), .rectangle),
        (Size(width: 480, height: 480), .rectangle), (Size(width: 720, height: 720), .rectangle),
        (Size(width: 480, height: 480), .round), (Size(width: 240, height: 240), .rectangle),
        (Size(width: 320, height: 240), .rectangle), (Size(width: 240, height: 240), .round),
        (Size(width: 240, height: 320), .rectangle),
    ]

    /// The panels the layout check covers: the small SPI panels (240x240 square and round,
    /// 240x320, 320x240), 480x320, square and round 480 ones, the official Pi panels and the
    /// HDMI sizes.
    static let matrix: [(Size, PanelShape)] = [
        (Size(width: 240, height: 240), .rectangle), (Size(width: 240, height: 240), .round),
        (Size(width: 240, height: 320), .rectangle), (Size(width: 320, height: 240), .rectangle),
        (Size(width: 480, height: 320), .rectangle), (Size(width: 480, height: 480), .rectangle),
        (Size(width: 480, height: 480), .round), (Size(width: 800, height: 480), .rectangle),
        (Size(width: 720, height: 1280), .rectangle), (Size(width: 1024, height: 600), .rectangle),
        (Size(width: 1280, height: 720), .rectangle), (Size(width: 1280, height: 800), .rectangle),
        (Size(width: 1920, height: 1080), .rectangle),
    ]

    static func renderer(_ locale: AppLocale) throws -> FreeTypeTextRenderer {
        try FreeTypeTextRenderer(fonts: .init(languages: locale == .simplifiedChinese ? [.simplifiedChinese] : []))
    }

    static func intersects(_ a: Rect, _ b: Rect, slack: Float = 0.5) -> Bool {
        min(a.maxX, b.maxX) - max(a.x, b.x) > slack && min(a.maxY, b.maxY) - max(a.y, b.y) > slack
    }

    /// Distance from a point to the nearest point of a rect (0 inside).
    static func distance(_ p: Point, _ r: Rect) -> Float {
        let dx = max(r.x - p.x, 0, p.x - r.maxX), dy = max(r.y - p.y, 0, p.y - r.maxY)
        return (dx * dx + dy * dy).squareRoot()
    }

    static func check(_ probe: LayoutProbe, size: Size, shape: PanelShape, _ what: String,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        check(Explanation(probe, size: size, shape: shape), what, sourceLocation: sourceLocation)
    }

    /// Whether `box` crosses the band of `arc` within its sweep (a point every pixel).
    static func onArc(_ box: Rect, _ arc: Explanation.Arc) -> Bool {
        // Wholly inside the band's hole or outside its circle: no.
        let far = [(box.x, box.y), (box.maxX, box.y), (box.x, box.maxY), (box.maxX, box.maxY)].map {
            let dx = $0.0 - arc.center.x, dy = $0.1 - arc.center.y
            return (dx * dx + dy * dy).squareRoot()
        }.max()!
        if far < arc.inner || distance(arc.center, box) > arc.outer { return false }
        var y = box.y + 0.5
        while y < box.maxY {
            var x = box.x + 0.5
            while x < box.maxX {
                let dx = Double(x - arc.center.x), dy = Double(y - arc.center.y)
                let d = Float((dx * dx + dy * dy).squareRoot())
                if d >= arc.inner && d <= arc.outer {
                    var rel = Trigonometry.turnsClockwiseFromUp(dx: dx, dy: dy) - arc.start
                    rel -= rel.rounded(.down)
                    if rel <= arc.sweep { return true }
                }
                x += 1
            }
            y += 1
        }
        return false
    }

    /// Every rule of the layout check on what a screen drew.
    static func check(_ e: Explanation, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let w = Float(e.size.width), h = Float(e.size.height)
        let texts = e.texts
        #expect(!texts.isEmpty || !e.rings.isEmpty || what.contains("no text"), "\(what): nothing drawn", sourceLocation: sourceLocation)
        let c = Point(x: w / 2, y: h / 2), r = min(w, h) / 2
        func insideCircle(_ box: Rect) -> Bool {
            [(box.x, box.y), (box.maxX, box.y), (box.x, box.maxY), (box.maxX, box.maxY)].allSatisfy {
                let dx = $0.0 - c.x, dy = $0.1 - c.y
                return (dx * dx + dy * dy).squareRoot() <= r + 1
            }
        }
        for run in texts {
            let box = run.box
            #expect(box.x >= -0.5 && box.y >= -0.5 && box.maxX <= w + 0.5 && box.maxY <= h + 0.5,
                    "\(what): \(run.element) '\(run.text)' at \(box) leaves the \(e.size) panel", sourceLocation: sourceLocation)
            if e.shape == .round {
                #expect(insideCircle(box), "\(what): \(run.element) '\(run.text)' \(box) leaves the round panel",
                        sourceLocation: sourceLocation)
            }
            // Legible: nothing under the floor (12′ capitals, 20′ for a primary figure).
            #expect(!e.illegible.contains(run),
                    "\(what): \(run.element) '\(run.text)' at \(run.style.size) px makes \(e.capHeight(run).arcMinutes)′, under the rule", sourceLocation: sourceLocation)
            // A number is never cut: none has an ellipsis, and no text is cut right after a digit.
            let cutAfterDigit = run.text.split(separator: "…", omittingEmptySubsequences: false).dropLast().contains {
                $0.reversed().first { $0 != " " }.map { $0.isASCII && $0.isNumber } ?? false
            }
            #expect(!(run.isNumber && run.text.contains("…")) && !cutAfterDigit,
                    "\(what): \(run.element) '\(run.text)' is a number cut short", sourceLocation: sourceLocation)
        }
        // No number drawn in a form that reads as another number than its whole.
        for run in e.rounded {
            #expect(Bool(false), "\(what): \(run.element) '\(run.text)' reads as another number than '\(run.full ?? "")'",
                    sourceLocation: sourceLocation)
        }
        for i in texts.indices {
            for j in texts.indices where j > i {
                #expect(!intersects(texts[i].box, texts[j].box),
                        "\(what): \(texts[i].element) '\(texts[i].text)' \(texts[i].box) overlaps \(texts[j].element) '\(texts[j].text)' \(texts[j].box)",
                        sourceLocation: sourceLocation)
            }
        }
        // Rings: inside the panel with their margin, and no text within a gap of them.
        for group in e.rings {
            let g = group.geometry
            let reach = g.diameter / 2 + g.gap
            #expect(g.center.x - g.diameter / 2 >= -0.01 && g.center.x + g.diameter / 2 <= w + 0.01
                    && g.center.y - g.diameter / 2 >= -0.01 && g.center.y + g.diameter / 2 <= h + 0.01,
                    "\(what): rings leave the panel", sourceLocation: sourceLocation)
            if e.shape == .round {
                let dx = g.center.x - w / 2, dy = g.center.y - h / 2
                #expect((dx * dx + dy * dy).squareRoot() + g.diameter / 2 <= min(w, h) / 2,
                        "\(what): rings leave the round panel", sourceLocation: sourceLocation)
            }
            for run in texts where !(run.element.hasPrefix("refresh.") && g.holeHolds(run.box)) {
                #expect(distance(g.center, run.box) >= reach - 0.5,
                        "\(what): \(run.element) '\(run.text)' crowds the rings (\(distance(g.center, run.box)) < \(reach))",
                        sourceLocation: sourceLocation)
            }
        }
        // Other shapes: bars, markers and the refresh control never under text (but their own);
        // a button holds its own label.
        for shape in e.shapes {
            if e.shape == .round && shape.name != "marker" {
                #expect(insideCircle(shape.box), "\(what): the \(shape.name) \(shape.box) leaves the round panel",
                        sourceLocation: sourceLocation)
            }
            for run in texts {
                if shape.name == "button" {
                    if intersects(shape.box, run.box) {
                        #expect(run.box.x >= shape.box.x && run.box.maxX <= shape.box.maxX,
                                "\(what): '\(run.text)' spills out of the button", sourceLocation: sourceLocation)
                    }
                } else if shape.name == "refresh" && run.element.hasPrefix("refresh.") {
                    #expect(run.box.x >= shape.box.x - 0.5 && run.box.maxX <= shape.box.maxX + 0.5,
                            "\(what): '\(run.text)' spills out of the refresh control", sourceLocation: sourceLocation)
                } else if shape.name == "marker" {
                    // A marker is a disc.
                    #expect(distance(shape.box.center, run.box) >= shape.box.width / 2 - 0.5,
                            "\(what): \(run.element) '\(run.text)' \(run.box) lies on the marker \(shape.box)",
                            sourceLocation: sourceLocation)
                } else {
                    #expect(!intersects(shape.box, run.box, slack: 1),
                            "\(what): \(run.element) '\(run.text)' \(run.box) lies on the \(shape.name) \(shape.box)",
                            sourceLocation: sourceLocation)
                }
            }
            if shape.name == "refresh" {
                for group in e.rings where !group.geometry.holeHolds(shape.box) {
                    let g = group.geometry
                    #expect(distance(g.center, shape.box) >= g.diameter / 2,
                            "\(what): the refresh control \(shape.box) covers rings", sourceLocation: sourceLocation)
                }
                // A dial closed all round a round panel, its hole full, leaves the control no
                // place but on its path (never on text).
                for arc in e.arcs where arc.sweep < 1 {
                    #expect(!onArc(shape.box, arc), "\(what): the refresh control \(shape.box) covers an arc",
                            sourceLocation: sourceLocation)
                }
            }
        }
        // Arcs: no text point on the band within its sweep.
        for arc in e.arcs {
            for run in texts where !(arc.sweep >= 1 && run.element.hasPrefix("refresh.")) {
                #expect(!onArc(run.box, arc), "\(what): \(run.element) '\(run.text)' \(run.box) lies on an arc",
                        sourceLocation: sourceLocation)
            }
        }
    }

    /// Lit pixels of `frame` outside the circle inscribed in it (pixel centres farther than its
    /// radius from its centre).
    static func litOutsideCircle(_ frame: PixelBuffer) -> Int {
        let w = Float(frame.width), h = Float(frame.height)
        let r = min(w, h) / 2
        var count = 0
        for y in 0..<frame.height {
            let dy = Float(y) + 0.5 - h / 2
            for x in 0..<frame.width {
                let dx = Float(x) + 0.5 - w / 2
                if dx * dx + dy * dy > r * r && frame.row32(y)[x] & 0xFF_FFFF != 0 { count += 1 }
            }
        }
        return count
    }
}

@Suite("Layouts: nothing clipped, overlapping or crowded, at every size, in both languages", .timeLimit(.minutes(20)))
struct LayoutTests {
    static let today = CalendarDay(year: 2026, month: 11, day: 29)!

    static let days: [(String, RingScreenContent)] = [
        ("today", RingScreenContent(
            name: "Karan", day: today, today: today,
            summary: ActivitySummary(
                activeEnergyBurned: .kilocalories(375), activeEnergyBurnedGoal: .kilocalories(500), exerciseTime: 15,
                exerciseTimeGoal: 30, standHours: 14.4, standHoursGoal: 12))),
        ("long name, last year, big numbers", RingScreenContent(
            name: "Maximilian Alexander Featherstonehaugh", day: CalendarDay(year: 2025, month: 9, day: 17)!, today: today,
            summary: ActivitySummary(
                activeEnergyBurned: Energy(12_845, .kilojoule), activeEnergyBurnedGoal: Energy(10_460, .kilojoule),
                exerciseTime: 245, exerciseTimeGoal: 30, standHours: 23, standHoursGoal: 12))),
        ("move only, yesterday", RingScreenContent(
            name: "李小龙", day: today.adding(days: -1), today: today,
            summary: ActivitySummary(moveTime: 48, moveTimeGoal: 60, moveMode: .moveTime))),
        ("no data", RingScreenContent(name: "", day: today.adding(days: -40), today: today, summary: nil)),
        // A four-digit value over a five-digit goal: too wide for a row of three at 480x480 even
        // at the figure size (it was drawn past the panel's left edge, into Exercise's column, in
        // Chinese), so one figure under the other.
        ("a band's steps", RingScreenContent(
            name: "小林", day: today, today: today,
            summary: ActivitySummary(
                exerciseTime: 34, exerciseTimeGoal: 30, standHours: 9, standHoursGoal: 12, moveMode: .steps, steps: 8_432,
                stepsGoal: 10_000))),
        ("energy of four digits over five", RingScreenContent(
            name: "Karan", day: today, today: today,
            summary: ActivitySummary(
                activeEnergyBurned: .kilocalories(8_432), activeEnergyBurnedGoal: .kilocalories(10_000), exerciseTime: 34,
                exerciseTimeGoal: 30, standHours: 9, standHoursGoal: 12))),
    ]

    @Test("ring screen", arguments: AppLocale.allCases, LayoutCheck.sizes.indices)
    func ringScreen(locale: AppLocale, sizeIndex: Int) throws {
        let (size, shape) = LayoutCheck.sizes[sizeIndex]
        let text = try LayoutCheck.renderer(locale)
        for (name, content) in Self.days {
            let probe = LayoutProbe()
            let screen = RingScreen(content: content, context: ScreenContext(text: text, locale: locale, shape: shape, probe: probe))
            _ = FrameComposer(panel: size).render(screen)
            LayoutCheck.check(probe, size: size, shape: shape, "rings \(name) \(size) \(shape) \(locale)")
            #expect(probe.ringGroups.count >= 1)
        }
    }

    static let gauges: [Gauge] = GaugeStyle.allCases.map {
        Gauge(style: $0, value: 72, minimum: 30, maximum: 90, title: "CPU temperature", unit: "°")
    }

    @Test("gauge screen: each style large, and a grid", arguments: AppLocale.allCases, LayoutCheck.sizes.indices)
    func gaugeScreen(locale: AppLocale, sizeIndex: Int) throws {
        let (size, shape) = LayoutCheck.sizes[sizeIndex]
        let text = try LayoutCheck.renderer(locale)
        let title = locale == .english ? "CPU temperature" : "处理器温度"
        var cases: [(String, [Gauge])] = Self.gauges.map { g in
            var g = g
            g.title = title
            return (g.style.rawValue, [g])
        }
        cases.append(("out of range", [Gauge(style: .circular, value: 104.5, minimum: 30, maximum: 90, title: title, unit: "°")]))
        cases.append(("missing", [Gauge(style: .linearCapacity, value: nil, minimum: 0, maximum: 100, title: title, unit: "%")]))
        cases.append(("grid", [
            Gauge(style: .accessoryCircular, value: 61, minimum: 30, maximum: 90, unit: "°"),
            Gauge(style: .accessoryCircularCapacity, value: 0.72, minimum: 0, maximum: 1, unit: ""),
            Gauge(style: .accessoryLinear, value: 3.4, minimum: 0, maximum: 8, title: "Load", unit: ""),
            Gauge(style: .accessoryLinearCapacity, value: 41, minimum: 0, maximum: 100, title: "Disk", unit: "%"),
        ]))
        for (name, gauges) in cases {
            let probe = LayoutProbe()
            let screen = GaugeScreen(gauges: gauges, context: ScreenContext(text: text, locale: locale, shape: shape, probe: probe))
            _ = FrameComposer(panel: size).render(screen)
            LayoutCheck.check(probe, size: size, shape: shape, "gauge \(name) \(size) \(shape) \(locale)")
        }
    }

    @Test("progress screen: every style, known and unknown amounts", arguments: AppLocale.allCases, LayoutCheck.sizes.indices)
    func progressScreen(locale: AppLocale, sizeIndex: Int) throws {
        let (size, shape) = LayoutCheck.sizes[sizeIndex]
        let text = try LayoutCheck.renderer(locale)
        let label = locale == .english ? "Importing health data" : "正在导入健康数据"
        let note = locale == .english ? "Cancelling leaves your data as it was" : "取消不会改动已有数据"
        for style in ProgressStyle.allCases {
            for amount in [ProgressAmount.determinate(0.41), .indeterminate] {
                for cancellable in [false, true] {
                    let probe = LayoutProbe()
                    let content = ProgressContent(amount: amount, style: style, label: label, cancellable: cancellable,
                                                  cancelNote: cancellable ? note : nil)
                    let screen = ProgressScreen(content: content, context: ScreenContext(text: text, locale: locale, shape: shape, probe: probe))
                    _ = FrameComposer(panel: size).render(screen, at: 0.3)
                    LayoutCheck.check(probe, size: size, shape: shape, "progress \(style) \(amount) \(cancellable) \(size) \(shape) \(locale)")
                }
            }
        }
    }
}
