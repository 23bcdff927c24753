/// How heavy a font is (CSS / OpenType weights).
public enum FontWeight: Int, Sendable, Hashable, CaseIterable {
    case regular = 400
    case medium = 500
    case semibold = 600
    case bold = 700
}

/// How a piece of text looks: pixel size, weight, extra space between letters.
public struct TextStyle: Sendable, Hashable {
    /// The em size in pixels.
    public var size: Float
    public var weight: FontWeight
    /// Extra advance after every character, in pixels (small capitals read better spaced).
    public var tracking: Float

    public init(size: Float, weight: FontWeight = .regular, tracking: Float = 0) {
        self.size = size
        self.weight = weight
        self.tracking = tracking
    }
}

/// The extent of a line of text: width of its advances, ascent above and descent below the
/// baseline (both positive), of the fonts used.
public struct TextMetrics: Sendable, Hashable {
    public var width: Float
    public var ascent: Float
    public var descent: Float

    public init(width: Float, ascent: Float, descent: Float) {
        self.width = width
        self.ascent = ascent
        self.descent = descent
    }

    public var height: Float { ascent + descent }
}

/// Lays out and draws lines of text. The screens draw through this, so they stay free of any
/// font library; the Text module provides the FreeType implementation.
public protocol TextRenderer: AnyObject {
    /// The size of `text` in `style` (one line).
    func measure(_ text: String, _ style: TextStyle) -> TextMetrics
    /// Draws `text` with its baseline starting at `origin`, blended over what is there.
    func draw(_ text: String, _ style: TextStyle, color: Color, at origin: Point, into buffer: PixelBuffer, clip: IntRect?)
    /// Whether every character of `text` has a glyph in the fonts in use.
    func canRender(_ text: String) -> Bool
    /// The height of the capitals (and of the figures) over the em of the fonts in use: what a
    /// text's legibility is judged by (its capitals' height at the eye).
    var capRatio: Float { get }
}

extension TextRenderer {
    /// Inter's (2048 of 2816 units), for a renderer that cannot say.
    public var capRatio: Float { 0.727 }
}
