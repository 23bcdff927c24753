import Raster
import Screens
import Testing
import Text

@Suite("Progress layout: the Cancel button as layout, round panels of any proportion", .timeLimit(.minutes(20)))
struct ProgressLayoutTests {
    static let note = "Cancelling leaves your data as it was"

    @Test("the layout's Cancel button is the one drawn, at every size and shape; none when it cannot be cancelled")
    func buttonIsDrawnWhereLaidOut() throws {
        let text = try LayoutCheck.renderer(.english)
        let sizes = LayoutCheck.sizes + [(Size(width: 800, height: 480), .round), (Size(width: 480, height: 800), .round)]
        for (size, shape) in sizes {
            for style in ProgressStyle.allCases {
                for note in [nil, Self.note] {
                    let probe = LayoutProbe()
                    let content = ProgressContent(
                        amount: .determinate(0.41), style: style, label: "Importing", cancellable: true, cancelNote: note)
                    let screen = ProgressScreen(
                        content: content, context: ScreenContext(text: text, shape: shape, probe: probe))
                    screen.draw(into: PixelBuffer(width: size.width, height: size.height), at: 0)
                    let drawn = probe.shapes.filter { $0.name == "button" }.map(\.box)
                    #expect(drawn.count == 1 && drawn.first == screen.layout(for: size).cancelButton,
                        "\(style) \(size) \(shape) note: \(note != nil)")
                }
            }
            var plain = ProgressScreen(
                content: ProgressContent(amount: .indeterminate, label: "Importing"),
                context: ScreenContext(text: text, shape: shape))
            #expect(plain.layout(for: size).cancelButton == nil, "not cancellable, \(size) \(shape)")
            plain.content.cancelNote = Self.note
            #expect(plain.layout(for: size).cancelButton == nil, "a note alone is no button, \(size) \(shape)")
        }
    }

    @Test("on a round panel wider or taller than it is high, everything stays in the circle")
    func roundPanelsOfAnyProportion() throws {
        let text = try LayoutCheck.renderer(.english)
        for size in [Size(width: 800, height: 480), Size(width: 480, height: 800)] {
            let w = Float(size.width), h = Float(size.height)
            let c = Point(x: w / 2, y: h / 2), r = min(w, h) / 2
            func inside(_ p: Point) -> Bool {
                let dx = p.x - c.x, dy = p.y - c.y
                return (dx * dx + dy * dy).squareRoot() <= r + 1
            }
            for style in ProgressStyle.allCases {
                for cancellable in [false, true] {
                    let probe = LayoutProbe()
                    let content = ProgressContent(
                        amount: .determinate(0.41), style: style, label: "Importing health data",
                        cancellable: cancellable, cancelNote: cancellable ? Self.note : nil)
                    let screen = ProgressScreen(
                        content: content, context: ScreenContext(text: text, shape: .round, probe: probe))
                    _ = FrameComposer(panel: size).render(screen, at: 0.3)
                    let what = "progress \(style) \(cancellable) \(size) round"
                    LayoutCheck.check(probe, size: size, shape: .round, what)
                    for (name, box) in probe.shapes {
                        let corners = [
                            Point(x: box.x, y: box.y), Point(x: box.maxX, y: box.y), Point(x: box.x, y: box.maxY),
                            Point(x: box.maxX, y: box.maxY),
                        ]
                        #expect(corners.allSatisfy(inside), "\(what): the \(name) \(box) leaves the circle")
                    }
                    for arc in probe.arcs {
                        let dx = arc.center.x - c.x, dy = arc.center.y - c.y
                        #expect((dx * dx + dy * dy).squareRoot() + arc.outer <= r, "\(what): the circle leaves the panel")
                    }
                }
            }
        }
    }
}
