import Activity
import Raster
import Screens
import Testing
import Text

/// The button hint over a screen: a row per button (its symbol, what a press and a hold do),
/// readable on a 1.3" 240x240 panel (no text under 11 px), inside the panel (and a round one's
/// circle), in both languages.
@Suite("Button hint", .timeLimit(.minutes(20)))
struct ButtonHintOverlayTests {
    static let two: [ButtonHintOverlay.Row] = [
        .init(symbol: .left, press: .previousDay, hold: .refresh), .init(symbol: .select, press: .select, hold: .today),
    ]
    static let three = two + [.init(symbol: .right, press: .nextDay, hold: .today)]
    static let numbered: [ButtonHintOverlay.Row] = [
        .init(symbol: .label("1"), press: .previousDay, hold: .refresh), .init(symbol: .label("2"), press: .select, hold: .today),
        .init(symbol: .label("3"), press: .nextDay, hold: .today), .init(symbol: .label("4"), press: .previousScreen),
    ]

    static func overlay(
        _ rows: [ButtonHintOverlay.Row], _ locale: AppLocale = .english, shape: PanelShape = .rectangle, probe: LayoutProbe? = nil
    ) throws -> ButtonHintOverlay {
        let context = ScreenContext(text: try ScreenGoldenTests.renderer(locale), locale: locale, shape: shape, probe: probe)
        let content = RingScreenContent(
            name: "Karan", day: ScreenGoldenTests.today, today: ScreenGoldenTests.today, summary: ScreenGoldenTests.todaySummary,
            week: ScreenGoldenTests.week)
        return ButtonHintOverlay(screen: RingScreen(content: content, context: context), rows: rows, chord: true, context: context)
    }

    @Test("goldens: two buttons on 240x240, three on 800x480, Chinese on a round 240 panel")
    func goldens() throws {
        for (rows, size, locale, shape, name) in [
            (Self.two, Size(width: 240, height: 240), AppLocale.english, PanelShape.rectangle, "button-hint-two-240x240"),
            (Self.three, Size(width: 800, height: 480), .english, .rectangle, "button-hint-three-800x480"),
            (Self.two, Size(width: 240, height: 240), .simplifiedChinese, .round, "button-hint-two-240x240-round-zh-Hans"),
        ] {
            let overlay = try Self.overlay(rows, locale, shape: shape)
            GoldenImage.expectMatches(FrameComposer(panel: size).render(overlay), named: name)
        }
    }

    @Test(
        "every line at the type floor or more, inside the panel (and the circle), none overlapping, at every size",
        arguments: [
            Size(width: 240, height: 240), Size(width: 320, height: 240), Size(width: 240, height: 320),
            Size(width: 480, height: 480), Size(width: 800, height: 480), Size(width: 720, height: 1280),
        ])
    func readableEverywhere(_ size: Size) throws {
        for locale in AppLocale.allCases {
            for shape in PanelShape.allCases where shape == .rectangle || size.width == size.height {
                for rows in [Self.two, Self.three, Self.numbered] {
                    let parts = try Self.overlay(rows, locale, shape: shape).parts(for: size)
                    // Every row in one of the parts, in order.
                    #expect(parts.flatMap { $0 } == rows, "\(size) \(shape) \(locale.rawValue): rows lost in parts")
                    var notesShown = false
                    for part in parts.indices {
                        let probe = LayoutProbe()
                        var overlay = try Self.overlay(rows, locale, shape: shape, probe: probe)
                        overlay.part = part
                        let layout = overlay.layout(for: size)
                        let shown = parts[part]
                        let what = "\(size) \(shape) \(locale.rawValue) \(rows.count) rows, part \(part + 1) of \(parts.count)"
                        let sizes = (layout.title.size > 0 ? [layout.title.size] : [])
                            + layout.rows.flatMap { [$0.press.size] + ($0.hold.map { [$0.size] } ?? []) } + layout.notes.map(\.size)
                        #expect(sizes.allSatisfy { $0 >= overlay.smallestText(size) }, "\(what): sizes \(sizes)")
                        #expect(layout.rows.count == shown.count, "\(what): a button left out")
                        notesShown = notesShown || !layout.notes.isEmpty
                        _ = FrameComposer(panel: size).render(overlay)
                        let texts = probe.texts.filter { !$0.text.isEmpty }
                        let hintTexts = texts.suffix(
                            (layout.title.size > 0 ? 1 : 0) + shown.count + shown.filter { $0.hold != nil }.count
                                + layout.notes.count)
                        for t in hintTexts {
                            #expect(!t.text.hasSuffix("…"), "\(what): '\(t.text)' shortened")
                            #expect(inside(t.box, size, shape), "\(what): '\(t.text)' at \(t.box) leaves the panel")
                        }
                        // A badge's label is drawn inside it: the badges and the lines beside them.
                        let badges = probe.shapes.filter { $0.name.hasPrefix("button-") }.map(\.box)
                        let lines = hintTexts.map(\.box).filter { t in !badges.contains { $0.x <= t.x && t.maxX <= $0.maxX } }
                        let boxes = lines + badges
                        for i in boxes.indices {
                            for j in boxes.indices where j > i {
                                let a = boxes[i], b = boxes[j]
                                let overlaps = a.x < b.maxX && b.x < a.maxX && a.y < b.maxY && b.y < a.maxY
                                #expect(!overlaps, "\(what): \(a) overlaps \(b)")
                            }
                        }
                    }
                    // The rows always; how to bring the hint back too (on the last part) but on a
                    // round panel under 300 px, where the inscribed square holds the rows alone.
                    #expect(rows.count > 3 || notesShown || shape == .round && size.width < 300,
                            "\(size) \(shape) \(locale.rawValue) \(rows.count) rows: not even the chord's line fits")
                    // A panel that holds them all shows them at once.
                    if shape == .rectangle && size.width >= 480 && size.height >= 480 {
                        #expect(parts.count == 1, "\(size): \(parts.count) parts")
                    }
                }
            }
        }
    }

    /// Whether `box` lies inside the picture (and a round panel's circle).
    func inside(_ box: Rect, _ size: Size, _ shape: PanelShape) -> Bool {
        guard box.x >= 0, box.y >= 0, box.maxX <= Float(size.width), box.maxY <= Float(size.height) else { return false }
        guard shape == .round else { return true }
        let c = Float(size.width) / 2
        return [(box.x, box.y), (box.maxX, box.y), (box.x, box.maxY), (box.maxX, box.maxY)].allSatisfy { x, y in
            (x - c) * (x - c) + (y - c) * (y - c) <= c * c
        }
    }

    @Test("the screen shows darkened under it; the hint over a changing screen changes only where it does")
    func overTheScreen() throws {
        let size = Size(width: 240, height: 240)
        let overlay = try Self.overlay(Self.two)
        let drawn = FrameComposer(panel: size).render(overlay)
        let plain = FrameComposer(panel: size).render(overlay.screen)
        var brighter = 0
        for y in 0..<size.height {
            for x in 0..<size.width where drawn.color(x: x, y: y).red > plain.color(x: x, y: y).red { brighter += 1 }
        }
        #expect(brighter > 500, "the hint's text and badges are drawn (\(brighter) pixels)")
        #expect(overlay.changes(since: overlay, at: 0, now: 1, size: size) != nil)
        let other = ButtonHintOverlay(screen: overlay.screen, rows: Self.three, chord: true, context: overlay.context)
        #expect(other.changes(since: overlay, at: 0, now: 1, size: size) == nil, "other rows: drawn whole")
    }
}
