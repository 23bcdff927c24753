import Testing

@testable import Raster

/// A renderer without the Unicode rules (one that only measures) still answers `lineBreaks`:
/// after spaces and line feeds, one entry per position between Characters.
@Suite("TextRenderer.lineBreaks without the Unicode rules", .timeLimit(.minutes(10)))
struct LineBreakDefaultTests {
    private final class Measuring: TextRenderer {
        func measure(_ text: String, _ style: TextStyle) -> TextMetrics { TextMetrics(width: 0, ascent: 0, descent: 0) }
        func draw(_ text: String, _ style: TextStyle, color: Color, at origin: Point, into buffer: PixelBuffer, clip: IntRect?) {}
        func canRender(_ text: String) -> Bool { true }
    }

    @Test("after spaces (the last of a run), mandatory after a line feed, the ends fixed")
    func spaces() {
        let r = Measuring()
        #expect(r.lineBreaks("", language: "en") == [.mandatory])
        #expect(r.lineBreaks("ab", language: "en") == [.prohibited, .prohibited, .mandatory])
        #expect(r.lineBreaks("a  b", language: "en") == [.prohibited, .prohibited, .prohibited, .allowed, .mandatory])
        #expect(r.lineBreaks("a\nb", language: "en") == [.prohibited, .prohibited, .mandatory, .mandatory])
        #expect(r.lineBreaks("a \nb", language: "en") == [.prohibited, .prohibited, .prohibited, .mandatory, .mandatory])
        // Positions are between Characters: an accent and CR LF are one each.
        #expect(r.lineBreaks("e\u{301} x\r\ny", language: "en") == [.prohibited, .prohibited, .allowed, .prohibited, .mandatory, .mandatory])
        #expect(r.lineBreaks("数据，请", language: "zh").filter(\.isOpportunity) == [.mandatory], "no break in Chinese")
    }
}
