import Activity
import Raster
import Screens
import Testing
import Text

/// Every screen at every panel size, in both languages: nothing clipped, nothing overlapping,
/// rings never crowded, round panels respected. Screens report what they placed to a probe.
enum LayoutCheck {
    static let sizes: [(Size, PanelShape)] = [
        (Size(width: 800, height: 480), .rectangle), (Size(width: 720, height: 1280), .rectangle),
        (Size(width: 480, height: 480), .rectangle), (Size(width: 720, height: 720), .rectangle),
        (Size(width: 480, height: 480), .round), (Size(width: 240, height: 240), .rectangle),
        (Size(width: 320, height: 240), .rectangle),
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

    static func check(_ probe: LayoutProbe, size: Size, shape: PanelShape, _ what: String) {
        let w = Float(size.width), h = Float(size.height)
        let texts = probe.texts
        #expect(!texts.isEmpty || what.contains("no text"), "\(what): nothing drawn")
        for (text, box) in texts {
            #expect(box.x >= -0.5 && box.y >= -0.5 && box.maxX <= w + 0.5 && box.maxY <= h + 0.5,
                    "\(what): '\(text)' at \(box) leaves the \(size) panel")
            if shape == .round {
                let c = Point(x: w / 2, y: h / 2), r = min(w, h) / 2
                for corner in [(box.x, box.y), (box.maxX, box.y), (box.x, box.maxY), (box.maxX, box.maxY)] {
                    let dx = corner.0 - c.x, dy = corner.1 - c.y
                    #expect((dx * dx + dy * dy).squareRoot() <= r + 1, "\(what): '\(text)' leaves the round panel")
                }
            }
        }
        for i in texts.indices {
            for j in texts.indices where j > i {
                #expect(!intersects(texts[i].box, texts[j].box),
                        "\(what): '\(texts[i].text)' \(texts[i].box) overlaps '\(texts[j].text)' \(texts[j].box)")
            }
        }
        // Rings: inside the panel with their margin, and no text within a gap of them.
        for group in probe.ringGroups {
            let g = group.geometry
            let reach = g.diameter / 2 + g.gap
            #expect(g.center.x - g.diameter / 2 >= -0.01 && g.center.x + g.diameter / 2 <= w + 0.01
                    && g.center.y - g.diameter / 2 >= -0.01 && g.center.y + g.diameter / 2 <= h + 0.01,
                    "\(what): rings leave the panel")
            if shape == .round {
                let dx = g.center.x - w / 2, dy = g.center.y - h / 2
                #expect((dx * dx + dy * dy).squareRoot() + g.diameter / 2 <= min(w, h) / 2,
                        "\(what): rings leave the round panel")
            }
            for (text, box) in texts {
                #expect(distance(g.center, box) >= reach - 0.5,
                        "\(what): '\(text)' crowds the rings (\(distance(g.center, box)) < \(reach))")
            }
        }
        // Other shapes: bars and markers never under text; a button holds its own label.
        for (name, shapeBox) in probe.shapes {
            for (text, box) in texts {
                if name == "button" {
                    if intersects(shapeBox, box) {
                        #expect(box.x >= shapeBox.x && box.maxX <= shapeBox.maxX, "\(what): '\(text)' spills out of the button")
                    }
                } else {
                    #expect(!intersects(shapeBox, box, slack: 1), "\(what): '\(text)' \(box) lies on the \(name) \(shapeBox)")
                }
            }
        }
        // Arcs: no text point on the band within its sweep.
        for arc in probe.arcs {
            for (text, box) in texts {
                var hit = false
                var y = box.y + 0.5
                while y < box.maxY && !hit {
                    var x = box.x + 0.5
                    while x < box.maxX {
                        let dx = Double(x - arc.center.x), dy = Double(y - arc.center.y)
                        let d = Float((dx * dx + dy * dy).squareRoot())
                        if d >= arc.inner && d <= arc.outer {
                            var rel = Trigonometry.turnsClockwiseFromUp(dx: dx, dy: dy) - arc.start
                            rel -= rel.rounded(.down)
                            if rel <= arc.sweep {
                                hit = true
                                break
                            }
                        }
                        x += 1
                    }
                    y += 1
                }
                #expect(!hit, "\(what): '\(text)' \(box) lies on an arc")
            }
        }
    }
}

@Suite("Layouts: nothing clipped, overlapping or crowded, at every size, in both languages")
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
