import Activity
import Raster
import Screens
import Testing
import Text

#if canImport(Glibc)
    import Glibc
#endif

/// One renderer per language for one test, shared by all its frames as the app shares its own
/// (a screen tells its changes only against a screen drawn with the same fonts; tests running at
/// the same time each have their own).
final class Fonts {
    private var renderers: [AppLocale: FreeTypeTextRenderer] = [:]
    func callAsFunction(_ locale: AppLocale) throws -> FreeTypeTextRenderer {
        if let r = renderers[locale] { return r }
        let r = try ScreenGoldenTests.renderer(locale)
        renderers[locale] = r
        return r
    }
}

/// Frames drawn only where they changed equal frames drawn whole, pixel for pixel, over whole
/// animations: the spinner, the sliding bar, an eased fraction, the refresh control over the
/// ring screen, the rings filling up (with their figures and the week strip), at the panel sizes,
/// on a round panel, in both languages, into one buffer or two in turn, straight or turned and
/// converted to RGB565.
@Suite("Damage: frames drawn only where they changed equal frames drawn whole", .timeLimit(.minutes(20)))
struct DamageTests {
    /// Frames of an animation: the screen and its time.
    typealias Frames = [(screen: any Screen, time: Double)]

    struct Outcome {
        /// Pixels each frame said changed (the first frame: all of them).
        var changed: [Int] = []
        /// Frames that drew only part of the buffer.
        var partial = 0
    }

    /// Draws `frames` as the session does (each into the next of `buffers` buffers, only what
    /// changed since that buffer's frame: drawn there in place, or drawn into a picture in memory
    /// and copied from it) and checks every one against the frame drawn whole; one outcome per
    /// count of buffers and way of drawing.
    @discardableResult
    static func expectDamagedEqualsWhole(
        _ frames: Frames, panel: Size, rotation: Rotation = .none, format: PixelFormat = .xrgb8888,
        buffers counts: [Int] = [1, 2], _ name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> [Outcome] {
        let whole = FrameComposer(panel: panel, rotation: rotation, format: format)
        let expected = frames.map { frame -> PixelBuffer in
            let screen: any Screen = frame.screen
            return whole.render(screen, at: frame.time)
        }
        // In place; through a picture made at the first partial frame; through one from the first.
        let ways = [(shadow: false, animating: false), (true, false), (true, true)]
        return counts.flatMap { buffers in ways.map { (shadow, animating) in
            let composer = FrameComposer(panel: panel, rotation: rotation, format: format, shadow: shadow)
            let targets = (0..<buffers).map { _ in PixelBuffer(width: panel.width, height: panel.height, format: format) }
            // Start from noise, so a pixel the damage misses cannot pass by being black.
            for t in targets {
                let words = t.stride * t.height / 4
                let p = t.base.assumingMemoryBound(to: UInt32.self)
                for i in 0..<words { p[i] = UInt32(truncatingIfNeeded: i &* 2_654_435_761) }
            }
            var painter = FramePainter(composer: composer)
            var outcome = Outcome()
            let picture = IntRect(size: composer.pictureSize)
            for (i, frame) in frames.enumerated() {
                let target = targets[i % buffers]
                let painted = painter.paint(frame.screen, at: frame.time, into: target, animating: animating)
                let change = painted.change
                outcome.changed.append(change?.area ?? picture.width * picture.height)
                if let redraw = painted.redraw, redraw.area < picture.width * picture.height { outcome.partial += 1 }
                if let (x, y) = firstDifference(target, expected[i]) {
                    Issue.record(
                        "\(name), frame \(i) at \(frame.time) s (\(buffers) buffer(s)\(shadow ? " from a picture\(animating ? " from the first frame" : "")" : ""), change \(change.map(\.description) ?? "all")): pixel (\(x), \(y)) is \(target.color(x: x, y: y)), drawn whole \(expected[i].color(x: x, y: y))",
                        sourceLocation: sourceLocation)
                    break
                }
            }
            return outcome
        } }
    }

    /// The first pixel where two buffers of one size and format differ (padding aside).
    static func firstDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> (Int, Int)? {
        let bytes = a.width * a.format.bytesPerPixel
        for y in 0..<a.height {
            let p = a.base + y * a.stride, q = b.base + y * b.stride
            guard memcmp(p, q, bytes) != 0 else { continue }
            for x in 0..<a.width where a.color(x: x, y: y) != b.color(x: x, y: y) { return (x, y) }
        }
        return nil
    }

    /// `count` frames at `fps` from `start`.
    static func times(_ count: Int, fps: Double, from start: Double = 0) -> [Double] {
        (0..<count).map { start + Double($0) / fps }
    }

    static func progress(
        _ amount: ProgressAmount, _ style: ProgressStyle, _ locale: AppLocale, shape: PanelShape = .rectangle,
        _ fonts: Fonts
    ) throws -> ProgressScreen {
        ProgressScreen(
            content: ProgressContent(
                amount: amount, style: style, label: locale == .english ? "Importing health data" : "正在导入健康数据",
                cancellable: true, cancelNote: locale == .english ? "The import so far is kept" : nil),
            context: ScreenContext(text: try fonts(locale), locale: locale, shape: shape))
    }

    @Test("the spinner, the sliding bar and segment: a second and more at 30 fps, every size, both languages")
    func indeterminate() throws {
        let fonts = Fonts()
        for locale in AppLocale.allCases {
            for (size, shape) in LayoutCheck.sizes {
                for style in ProgressStyle.allCases {
                    let screen = try Self.progress(.indeterminate, style, locale, shape: shape, fonts)
                    let frames: Frames = Self.times(40, fps: 30, from: 0.3).map { (screen, $0) }
                    for outcome in Self.expectDamagedEqualsWhole(frames, panel: size, "\(style) \(size) \(shape) \(locale)") {
                        #expect(outcome.partial >= 35, "\(style) \(size): frames after the first draw only part")
                    }
                }
            }
        }
    }

    @Test("a spinner frame changes a small part of the picture")
    func spinnerDamageIsSmall() throws {
        let fonts = Fonts()
        let screen = try Self.progress(.indeterminate, .circular, .english, fonts)
        let outcome = Self.expectDamagedEqualsWhole(
            Self.times(10, fps: 30).map { (screen, $0) }, panel: Size(width: 480, height: 480), buffers: [1], "spinner")[0]
        // What the benchmark reports; here only that it is a small part, not a figure.
        #expect(outcome.changed.dropFirst().allSatisfy { $0 < 480 * 480 / 4 }, "\(outcome.changed)")
    }

    @Test("turned and converted: a 90° RGB565 panel, one buffer and two")
    func turned() throws {
        let fonts = Fonts()
        let screen = try Self.progress(.indeterminate, .circular, .english, fonts)
        for rotation in [Rotation.quarter, .half] {
            for outcome in Self.expectDamagedEqualsWhole(
                Self.times(20, fps: 30).map { (screen, $0) }, panel: Size(width: 480, height: 320), rotation: rotation,
                format: .rgb565, "spinner turned \(rotation.degrees)°")
            {
                #expect(outcome.partial >= 18)
            }
        }
    }

    @Test("an eased fraction: the arc's end and the percentage, the bar's end, every style")
    func eased() throws {
        let fonts = Fonts()
        for style in ProgressStyle.allCases {
            for locale in AppLocale.allCases {
                var easing = ProgressEasing(fraction: 0.12, at: 0)
                var frames: Frames = []
                for (i, t) in Self.times(45, fps: 30).enumerated() {
                    if i == 3 { easing.update(0.47, at: t) }
                    if i == 20 { easing.update(0.93, at: t) }
                    frames.append((try Self.progress(.determinate(easing.value(at: t)), style, locale, fonts), t))
                }
                for outcome in Self.expectDamagedEqualsWhole(frames, panel: Size(width: 480, height: 480), "eased \(style) \(locale)") {
                    #expect(outcome.partial >= 40)
                }
            }
        }
    }

    static func ringScreen(_ summary: ActivitySummary?, _ locale: AppLocale, shape: PanelShape, _ fonts: Fonts) throws
        -> RingScreen
    {
        RingScreen(
            content: RingScreenContent(
                name: locale == .english ? "Karan" : "小林", day: ScreenGoldenTests.today, today: ScreenGoldenTests.today,
                summary: summary, week: ScreenGoldenTests.week),
            context: ScreenContext(text: try fonts(locale), locale: locale, shape: shape))
    }

    /// The day's values scaled by `f` (goals kept), as the intro shows them.
    static func scaled(_ s: ActivitySummary, _ f: Double) -> ActivitySummary {
        var s = s
        s.activeEnergyBurned = s.activeEnergyBurned.map { Energy($0.value * f, $0.unit) }
        s.exerciseTime = s.exerciseTime.map { $0 * f }
        s.standHours = s.standHours.map { $0 * f }
        return s
    }

    /// The intro's stages: 900 ms at 60 fps, easing out, then the day itself.
    static var introStages: [Double] {
        (0...54).map { i -> Double in
            let t = min(Double(i) / 54, 1)
            return 1 - (1 - t) * (1 - t) * (1 - t)
        }
    }

    @Test("the rings filling up with their figures and the week, every size, both languages, one and two buffers")
    func intro() throws {
        let fonts = Fonts()
        for locale in AppLocale.allCases {
            // Every size in English; in Chinese the two layouts whose figures differ most.
            for (size, shape) in LayoutCheck.sizes where locale == .english || size.width == 800 || shape == .round {
                let frames: Frames = try Self.introStages.enumerated().map { i, f in
                    (try Self.ringScreen(Self.scaled(ScreenGoldenTests.todaySummary, f), locale, shape: shape, fonts),
                     Double(i) / 60)
                }
                for outcome in Self.expectDamagedEqualsWhole(frames, panel: size, "intro \(size) \(shape) \(locale)") {
                    #expect(outcome.partial >= 50, "intro \(size): frames after the first draw only part")
                }
            }
        }
    }

    @Test("the rings alone filling up, past a turn, at every size")
    func introRingsOnly() {
        for size in [Size(width: 480, height: 480), Size(width: 800, height: 480), Size(width: 240, height: 240)] {
            let frames: Frames = Self.introStages.enumerated().map { i, f in
                (RingScreen(summary: Self.scaled(ScreenGoldenTests.todaySummary, f)), Double(i) / 60)
            }
            for outcome in Self.expectDamagedEqualsWhole(frames, panel: size, "rings alone \(size)") {
                #expect(outcome.partial >= 50)
            }
        }
    }

    @Test("the refresh control's spinner over the ring screen, and over the rings filling up")
    func refresh() throws {
        let fonts = Fonts()
        for (size, shape) in [(Size(width: 480, height: 480), PanelShape.rectangle), (Size(width: 480, height: 480), .round), (Size(width: 800, height: 480), .rectangle)] {
            let base = try Self.ringScreen(ScreenGoldenTests.todaySummary, .english, shape: shape, fonts)
            let still: Frames = Self.times(30, fps: 30).map {
                (RefreshOverlay(screen: base, state: .spinning, context: base.context), $0)
            }
            let moving: Frames = try Self.introStages.enumerated().map { i, f in
                let rings = try Self.ringScreen(Self.scaled(ScreenGoldenTests.todaySummary, f), .english, shape: shape, fonts)
                return (RefreshOverlay(screen: rings, state: .spinning, context: rings.context), Double(i) / 60)
            }
            for a in Self.expectDamagedEqualsWhole(still, panel: size, "refresh \(size) \(shape)") {
                #expect(a.partial >= 28)
            }
            Self.expectDamagedEqualsWhole(moving, panel: size, "refresh over the intro \(size)")
        }
    }

    @Test("another screen, another task: drawn whole; another day: what its layout changes")
    func otherContentIsWhole() throws {
        let fonts = Fonts()
        let rings = try Self.ringScreen(ScreenGoldenTests.todaySummary, .english, shape: .rectangle, fonts)
        let progress = try Self.progress(.indeterminate, .circular, .english, fonts)
        let size = Size(width: 480, height: 480)
        #expect(progress.changes(since: rings, at: 0, now: 0.1, size: size) == nil)
        #expect(rings.changes(since: progress, at: 0, now: 0.1, size: size) == nil)
        let other = RingScreen(
            content: RingScreenContent(
                name: "Karan", day: ScreenGoldenTests.today.adding(days: -1), today: ScreenGoldenTests.today, summary: nil),
            context: rings.context)
        // Another day (without figures or a week): what differs in its layout, or all of it.
        #expect(other.changes(since: rings, at: 0, now: 0.1, size: size) != Damage())
        let bar = try Self.progress(.indeterminate, .bar, .english, fonts)
        #expect(bar.changes(since: progress, at: 0, now: 0.1, size: size) == nil, "another style")
        #expect(rings.changes(since: rings, at: 0, now: 5, size: size) == Damage(), "the same day again: nothing")
        // Mixed frames through the damage path: every one as drawn whole.
        let frames: Frames = [(rings, 0), (progress, 0.1), (progress, 0.13), (bar, 0.16), (rings, 0.2), (other, 0.23)]
        Self.expectDamagedEqualsWhole(frames, panel: size, buffers: [2], "mixed screens")
    }
}
