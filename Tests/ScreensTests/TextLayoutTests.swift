import Raster
import Testing

@testable import Screens

/// Characters of known widths (the ellipsis 6, a space 3, "W" 14, anything else 8); counts how
/// often it is asked to measure.
private final class CountingRenderer: TextRenderer {
    var measured = 0

    static func width(_ c: Character) -> Float {
        switch c {
        case "…": 6
        case " ": 3
        case "W": 14
        default: 8
        }
    }

    func measure(_ text: String, _ style: TextStyle) -> TextMetrics {
        measured += 1
        return TextMetrics(width: text.reduce(0) { $0 + Self.width($1) }, ascent: 10, descent: 3)
    }

    func draw(_ text: String, _ style: TextStyle, color: Color, at origin: Point, into buffer: PixelBuffer, clip: IntRect?) {}
    func canRender(_ text: String) -> Bool { true }
}

@Suite("Text cut to fit a width", .timeLimit(.minutes(20)))
struct TextLayoutTests {
    static let style = TextStyle(size: 16)
    static let texts = [
        "Exercise", "Jonathan Appleseed-Wightman the Third", "W W W  W W W", "a", "", "今天 星期日 十一月二十九日",
    ]

    /// What cutting one character at a time from the end gives: the longest start (spaces at its
    /// end dropped) that fits with the ellipsis, "" when not even the ellipsis fits.
    static func reference(_ text: String, width: Float) -> String {
        let measure = { (s: String) in s.reduce(Float(0)) { $0 + CountingRenderer.width($1) } }
        if measure(text) <= width { return text }
        var characters = Array(text)
        while !characters.isEmpty {
            characters.removeLast()
            let candidate = String(characters).trimmingTrailingSpaces + "…"
            if measure(candidate) <= width { return candidate }
        }
        return ""
    }

    @Test("the longest start that fits, for every width from 0 to past the whole text")
    func longestStartThatFits() {
        let layout = TextLayout(renderer: CountingRenderer())
        for text in Self.texts {
            for width in stride(from: Float(0), through: 320, by: 1) {
                let cut = layout.truncated(text, Self.style, width: width)
                #expect(cut == Self.reference(text, width: width), "'\(text)' in \(width) px")
            }
        }
    }

    @Test("an over-long label is measured about log2(n) times, not n times")
    func measuredLogarithmicallyOften() {
        let renderer = CountingRenderer()
        let layout = TextLayout(renderer: renderer)
        let text = String(repeating: "Move Exercise Stand ", count: 50)  // 1000 characters
        let cut = layout.truncated(text, Self.style, width: 200)
        #expect(cut == Self.reference(text, width: 200))
        // One measure of the whole text, then at most ceil(log2(1000)) = 10 candidates.
        #expect(renderer.measured <= 11, "\(renderer.measured) measurements")
    }
}
