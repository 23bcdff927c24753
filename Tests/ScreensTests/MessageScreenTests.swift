import Activity
import Raster
import Screens
import Testing
import Text

/// A message on the panel: as large as the panel holds it, never under a figure's size (20′ at the
/// eye) on a 1.3" 240x240 panel or any other, each line inside the panel (and a round one's
/// circle), wrapped whole where it fits and cut with an ellipsis where it does not.
@Suite("Message screen", .timeLimit(.minutes(10)))
struct MessageScreenTests {
    static let short = "The washing machine has finished"
    static let long =
        "Grandma called: she comes by at five with the cake. Somebody please be home to open the door, and put the kettle on."

    static func screen(_ text: String, _ locale: AppLocale = .english, shape: PanelShape = .rectangle, probe: LayoutProbe? = nil)
        throws -> MessageScreen
    {
        MessageScreen(text: text, context: ScreenContext(text: try ScreenGoldenTests.renderer(locale), locale: locale, shape: shape, probe: probe))
    }

    @Test("goldens: a short message and one too long on a 240x240 panel, square and round; Chinese round")
    func goldens() throws {
        let size = Size(width: 240, height: 240)
        for (text, locale, shape, name) in [
            (Self.short, AppLocale.english, PanelShape.rectangle, "message-short-240x240"),
            (Self.short, .english, .round, "message-short-240x240-round"),
            (Self.long, .english, .rectangle, "message-long-240x240"),
            ("洗衣机已经洗好了，请把衣服晾起来", .simplifiedChinese, .round, "message-240x240-round-zh-Hans"),
        ] {
            GoldenImage.expectMatches(FrameComposer(panel: size).render(try Self.screen(text, locale, shape: shape)), named: name)
        }
    }

    func inside(_ box: Rect, _ size: Size, _ shape: PanelShape) -> Bool {
        guard box.x >= 0, box.y >= 0, box.maxX <= Float(size.width), box.maxY <= Float(size.height) else { return false }
        guard shape == .round else { return true }
        let c = Float(min(size.width, size.height)) / 2
        let cx = Float(size.width) / 2, cy = Float(size.height) / 2
        return [(box.x, box.y), (box.maxX, box.y), (box.x, box.maxY), (box.maxX, box.maxY)].allSatisfy { x, y in
            (x - cx) * (x - cx) + (y - cy) * (y - cy) <= c * c
        }
    }

    @Test(
        "every line a figure's size or more, inside the panel, whole where it fits, cut with … where not",
        arguments: [
            Size(width: 240, height: 240), Size(width: 320, height: 240), Size(width: 240, height: 320),
            Size(width: 480, height: 480), Size(width: 800, height: 480), Size(width: 720, height: 1280),
        ])
    func legibleEverywhere(_ size: Size) throws {
        let texts = [
            "Hi", Self.short, Self.long, "Line one\nLine two\nLine three", "Supercalifragilisticexpialidocious-and-more",
            String(repeating: "word ", count: 50), "洗衣机已经洗好了，请把衣服晾起来",
        ]
        for locale in AppLocale.allCases {
            for shape in PanelShape.allCases where shape == .rectangle || size.width == size.height {
                for text in texts {
                    let probe = LayoutProbe()
                    let screen = try Self.screen(text, locale, shape: shape, probe: probe)
                    let what = "\(size) \(shape) \(locale.rawValue) '\(text.prefix(20))'"
                    let layout = screen.layout(for: size)
                    #expect(!layout.lines.isEmpty, "\(what): nothing drawn")
                    #expect(layout.size >= screen.smallestText(size), "\(what): \(layout.size) px")
                    _ = FrameComposer(panel: size).render(screen)
                    let runs = probe.runs.filter { $0.element.hasPrefix("message.line.") }
                    #expect(runs.count == layout.lines.filter { !$0.isEmpty }.count, "\(what)")
                    for run in runs {
                        #expect(inside(run.box, size, shape), "\(what): '\(run.text)' at \(run.box) leaves the panel")
                        #expect(Legibility.isFigure(run.element))
                    }
                    // Whole, or its last line ends in "…" and says so.
                    let shown = layout.lines.joined().filter { !$0.isWhitespace }
                    if layout.whole {
                        #expect(shown == text.filter { !$0.isWhitespace }, "\(what): \(layout.lines)")
                    } else {
                        #expect(layout.lines.last?.hasSuffix("…") == true, "\(what): cut without an ellipsis: \(layout.lines)")
                        #expect(runs.last?.full == text)
                        // Cut after a whole word where the last line has a space to cut at.
                        if let last = layout.lines.last, last.dropLast().contains(" ") {
                            let kept = String(last.dropLast()).filter { !$0.isWhitespace }
                            let before = layout.lines.dropLast().joined().filter { !$0.isWhitespace }
                            let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
                            var prefixes: Set<String> = [""]
                            var joined = ""
                            for word in words {
                                joined += word
                                prefixes.insert(joined)
                            }
                            #expect(prefixes.contains(before + kept), "\(what): a word cut short: \(layout.lines)")
                        }
                    }
                    // The explanation holds every line to 20′.
                    let explained = Explanation(
                        of: screen, size: size, shape: shape, viewing: Viewing(), capRatio: try ScreenGoldenTests.renderer(locale).capRatio, at: 0)
                    #expect(explained.illegible.isEmpty, "\(what): \(explained.illegible.map(\.text))")
                }
            }
        }
    }

    @Test("a short message large, a long one smaller but never under the figures' size; the same message again changes nothing")
    func sizes() throws {
        let size = Size(width: 480, height: 480)
        let hi = try Self.screen("Hi").layout(for: size)
        let long = try Self.screen(Self.long).layout(for: size)
        let smallest = try Self.screen("Hi").smallestText(size)
        #expect(hi.lines == ["Hi"] && hi.whole && hi.size > long.size)
        #expect(long.size >= smallest && long.size < hi.size)
        // On a 1.3" 240x240 panel at 50 cm the figures' size is about 41 px: the long one is cut there.
        let small = try Self.screen(Self.long).layout(for: Size(width: 240, height: 240))
        let floor = try Self.screen("x").smallestText(Size(width: 240, height: 240))
        #expect(!small.whole && small.size == floor)
        #expect(small.size > 40 && small.size < 42, "\(small.size)")
        let a = try Self.screen("Hi")
        let b = MessageScreen(text: "Hi", context: a.context), c = MessageScreen(text: "Ho", context: a.context)
        #expect(a.changes(since: b, at: 0, now: 1, size: size) == Damage())
        #expect(a.changes(since: c, at: 0, now: 1, size: size) == nil)
    }
}
