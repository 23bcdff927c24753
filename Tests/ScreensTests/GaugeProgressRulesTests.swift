import Raster
import Screens
import Testing

/// The rules of gauges-progress.md, one test each.
@Suite("Gauge and progress rules (gauges-progress.md)", .timeLimit(.minutes(20)))
struct GaugeProgressRulesTests {
    @Test("values outside the range pin to the end and show the real number")
    func outOfRangePins() {
        // Three significant digits when no decimals are set (104.5 → 105, as 1013.25 → 1013);
        // the gauge's decimals say more.
        let high = Gauge(style: .circular, value: 104.5, minimum: 30, maximum: 90, unit: "°")
        #expect(high.fraction == 1 && high.isOutOfRange && high.label(high.value) == "105°")
        let exact = Gauge(style: .circular, value: 104.5, minimum: 30, maximum: 90, unit: "°", decimals: 1)
        #expect(exact.label(exact.value) == "104.5°")
        let low = Gauge(style: .linear, value: -12, minimum: 0, maximum: 40, unit: "°")
        #expect(low.fraction == 0 && low.isOutOfRange && low.label(low.value) == "-12°")
        let inside = Gauge(style: .linear, value: 20, minimum: 0, maximum: 40, unit: "°")
        #expect(inside.fraction == 0.5 && !inside.isOutOfRange)
    }

    @Test("a range as wide as a Double holds never overflows the fraction (issue 16, 12)")
    func hugeRange() {
        let g = Gauge(style: .circular, value: 0, minimum: -1e308, maximum: 1e308)
        #expect(g.fraction == 0.5)
        let tiny = Gauge(style: .linear, value: 1e-300, minimum: 0, maximum: 2e-300)
        #expect(tiny.fraction == 0.5)
    }

    @Test("a missing or NaN value shows — and no marker or fill", arguments: [nil, Double.nan])
    func missingValue(value: Double?) {
        for style in GaugeStyle.allCases {
            let g = Gauge(style: style, value: value, minimum: 0, maximum: 100, title: "T", unit: "%")
            #expect(g.fraction == nil && g.label(g.value) == "—")
            let probe = LayoutProbe()
            let screen = GaugeScreen(gauges: [g], context: ScreenContext(text: nil, probe: probe))
            let frame = FrameComposer(panel: Size(width: 240, height: 240)).render(screen)
            #expect(!probe.shapes.contains { $0.name == "marker" }, "\(style): no marker")
            if style.isCapacity {
                // Only the dim track: no pixel brighter than it.
                var brightest = 0
                for y in 0..<240 {
                    for x in 0..<240 { brightest = max(brightest, Int(frame.color(x: x, y: y).red)) }
                }
                #expect(brightest <= 0x3A, "\(style): nothing filled")
            }
        }
    }

    @Test("the marker or fill takes the colour at the value")
    func colourAtValue() {
        let g = Gauge(style: .circular, value: 90, minimum: 0, maximum: 100, tint: [Color(hex: 0x0000FF), Color(hex: 0xFF0000)])
        #expect(g.paint.color(atFraction: g.fraction!) == Color.mix(Color(hex: 0x0000FF), Color(hex: 0xFF0000), 0.9))
        #expect(g.label(72) == "72" && Gauge(style: .linear, value: 1, unit: "kW").label(1.5) == "1.5 kW")
    }

    @Test("progress never moves backwards and reaches each new value at an even pace")
    func easing() {
        var e = ProgressEasing(fraction: 0, at: 0)
        e.update(0.4, at: 1)
        e.update(0.2, at: 1.2)  // a lower report: hold, never backwards
        e.update(0.6, at: 3)
        var previous = -1.0
        var t = 0.0
        while t < 5 {
            let v = e.value(at: t)
            #expect(v >= previous - 1e-12, "at \(t): \(v) after \(previous)")
            previous = v
            t += 0.01
        }
        #expect(e.value(at: 5) == 0.6)
        // Even pace: the shown value is linear in time while it moves.
        var f = ProgressEasing(fraction: 0.1, at: 10)
        f.update(0.5, at: 10)
        let d = ProgressEasing.duration
        let a = f.value(at: 10 + d * 0.25), b = f.value(at: 10 + d * 0.5), c = f.value(at: 10 + d * 0.75)
        #expect(abs((b - a) - (c - b)) < 1e-9 && b - a > 0)
        #expect(f.isMoving(at: 10 + d / 2) && !f.isMoving(at: 10 + d * 1.01))
    }

    @Test("be exact: without easing the fraction shown is the real fraction; 100 % only when done")
    func exact() {
        let s = ProgressScreen(content: ProgressContent(amount: .determinate(0.4137)), context: ScreenContext(text: nil))
        #expect(s.fraction(at: 123) == 0.4137)
        let strings = AppLocale.english.strings
        #expect(strings.percent(0.4137) == "41%" && strings.percent(0.999) == "99%" && strings.percent(1) == "100%")
    }

    @Test("switching from indeterminate to determinate keeps the shape", arguments: ProgressStyle.allCases)
    func sameShape(style: ProgressStyle) {
        func geometry(_ amount: ProgressAmount) -> (arcs: [Float], bars: [Rect]) {
            let probe = LayoutProbe()
            let s = ProgressScreen(content: ProgressContent(amount: amount, style: style, label: "x"),
                                   context: ScreenContext(text: nil, probe: probe))
            _ = FrameComposer(panel: Size(width: 480, height: 480)).render(s, at: 0.3)
            return (probe.arcs.flatMap { [$0.center.x, $0.center.y, $0.inner, $0.outer] }, probe.shapes.filter { $0.name == "bar" }.map(\.box))
        }
        let before = geometry(.indeterminate), after = geometry(.determinate(0.3))
        #expect(before.arcs == after.arcs && before.bars == after.bars)
        #expect(!before.arcs.isEmpty || !before.bars.isEmpty)
        // A spinner is a circle and a bar is a bar: the style decides, never the amount.
        #expect(before.arcs.isEmpty == (style != .circular))
    }

    @Test("animation is a pure function of time; indeterminate indicators keep moving")
    func animation() {
        for style in ProgressStyle.allCases {
            let s = ProgressScreen(content: ProgressContent(amount: .indeterminate, style: style), context: ScreenContext(text: nil))
            #expect(s.animates)
            let composer = FrameComposer(panel: Size(width: 120, height: 120))
            let a = composer.render(s, at: 0.2), b = composer.render(s, at: 0.2), c = composer.render(s, at: 0.45)
            func same(_ x: PixelBuffer, _ y: PixelBuffer) -> Bool {
                (0..<120).allSatisfy { yy in (0..<120).allSatisfy { x.color(x: $0, y: yy) == y.color(x: $0, y: yy) } }
            }
            #expect(same(a, b), "\(style): same time, same picture")
            #expect(!same(a, c), "\(style): it moves")
        }
        let still = ProgressScreen(content: ProgressContent(amount: .determinate(0.5)), context: ScreenContext(text: nil))
        #expect(!still.animates)
    }
}

/// The indeterminate bar from its first frame: never an empty track, which would read as 0 %.
@Suite("The indeterminate bar moves from its first frame", .timeLimit(.minutes(20)))
struct IndeterminateFirstFrameTests {
    @Test("at t = 0 the sliding segment already shows, a good part of the bar, and it moves", arguments: ProgressStyle.allCases)
    func firstFrame(style: ProgressStyle) {
        let screen = ProgressScreen(content: ProgressContent(amount: .indeterminate, style: style, label: "Sync"),
                                    context: ScreenContext(text: nil))
        let size = Size(width: 480, height: 480)
        let first = FrameComposer(panel: size).render(screen, at: 0)
        let later = FrameComposer(panel: size).render(screen, at: 0.2)
        // The accent colour (the fill or the spinner) is on the first frame.
        var accent = 0, moved = 0
        for y in 0..<size.height {
            for x in 0..<size.width {
                let c = first.color(x: x, y: y)
                if c.blue > 200 && c.red < 60 { accent += 1 }
                if c != later.color(x: x, y: y) { moved += 1 }
            }
        }
        #expect(accent > 100, "\(style): the first frame shows the segment or spinner (\(accent) accent pixels)")
        #expect(moved > 20, "\(style): it moves (\(moved) pixels differ 0.2 s later)")
    }
}
