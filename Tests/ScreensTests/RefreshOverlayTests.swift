import Activity
import Raster
import Screens
import Testing
import Text

/// The refresh control over the ring and gauge screens: a spinner at the top while fetching, a
/// line when that failed; the screen underneath unchanged elsewhere.
@Suite("Refresh control", .timeLimit(.minutes(20)))
struct RefreshOverlayTests {
    static func ringScreen(_ locale: AppLocale, shape: PanelShape = .rectangle) throws -> RingScreen {
        let content = RingScreenContent(
            name: locale == .english ? "Karan" : "小林", day: ScreenGoldenTests.today, today: ScreenGoldenTests.today,
            summary: ScreenGoldenTests.todaySummary, week: ScreenGoldenTests.week)
        return RingScreen(
            content: content,
            context: ScreenContext(text: try ScreenGoldenTests.renderer(locale), locale: locale, shape: shape))
    }

    @Test("goldens: spinning and failed, both languages, a round panel")
    func goldens() throws {
        for (locale, size, shape, state) in [
            (AppLocale.english, Size(width: 480, height: 480), PanelShape.rectangle, RefreshOverlay.State.spinning),
            (.english, Size(width: 800, height: 480), .rectangle, .failed),
            (.simplifiedChinese, Size(width: 480, height: 480), .round, .failed),
        ] {
            let base = try Self.ringScreen(locale, shape: shape)
            let overlay = RefreshOverlay(screen: base, state: state, context: base.context)
            let name = "refresh-\(state == .spinning ? "spinning" : "failed")-\(size)\(shape == .round ? "-round" : "")-\(locale.rawValue)"
            GoldenImage.expectMatches(FrameComposer(panel: size).render(overlay, at: 0.25), named: name)
        }
    }

    @Test("only the control's place changes, near the top, inside a round panel's circle; the spinner turns with time")
    func onlyTheTop() throws {
        for shape in [PanelShape.rectangle, .round] {
            let size = Size(width: 480, height: 480)
            let base = try Self.ringScreen(.english, shape: shape)
            let plain = FrameComposer(panel: size).render(base)
            for state in [RefreshOverlay.State.spinning, .failed] {
                let overlay = RefreshOverlay(screen: base, state: state, context: base.context)
                let drawn = FrameComposer(panel: size).render(overlay, at: 0.25)
                let box = overlay.placement(in: size).box
                var changed = 0, astray = 0, outside = 0
                for y in 0..<size.height {
                    for x in 0..<size.width where drawn.color(x: x, y: y) != plain.color(x: x, y: y) {
                        changed += 1
                        let px = Float(x) + 0.5, py = Float(y) + 0.5
                        if px < box.x - 1 || px > box.maxX + 1 || py < box.y - 1 || py > box.maxY + 1 { astray += 1 }
                        let dx = Float(x) - 240, dy = Float(y) - 240
                        if shape == .round && dx * dx + dy * dy > 240 * 240 { outside += 1 }
                    }
                }
                #expect(changed > 0, "\(shape) \(state): the control is drawn")
                #expect(astray == 0, "\(shape) \(state): \(astray) pixels changed outside the control's box \(box)")
                // At the top; a round panel's rings page, whose header and rings fill it, in the
                // rings' hole.
                let inHole = shape == .round && box.center.y > 200 && box.center.y < 280 && abs(box.center.x - 240) < 40
                #expect(box.maxY <= Float(size.height) / 2 || inHole, "\(shape) \(state): the control sits at the top or in the hole (\(box))")
                #expect(outside == 0, "\(shape) \(state): \(outside) pixels outside the circle")
            }
            let spinning = RefreshOverlay(screen: base, state: .spinning, context: base.context)
            let a = FrameComposer(panel: size).render(spinning, at: 0)
            let b = FrameComposer(panel: size).render(spinning, at: 0.5)
            let around = spinning.placement(in: size).box.insetBy(-2).enclosingPixels
            var moved = 0
            for y in around.y..<around.maxY { for x in around.x..<around.maxX where a.color(x: x, y: y) != b.color(x: x, y: y) { moved += 1 } }
            #expect(moved > 50, "the spinner moves (\(moved) pixels differ half a turn later)")
            #expect(RefreshOverlay(screen: base, state: .spinning, context: base.context).animates)
            #expect(!RefreshOverlay(screen: base, state: .failed, context: base.context).animates)
        }
    }
}
