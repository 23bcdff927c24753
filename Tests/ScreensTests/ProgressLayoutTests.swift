import Raster
import Screens
import Testing
import Text

@Suite("Progress layout: the Cancel button as layout")
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
}
