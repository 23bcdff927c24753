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
    /// Where a line of `text` may end, by the Unicode line breaking rules (UAX #14) tailored
    /// for `language` (a BCP 47 tag: "en", "zh-Hans"): one entry for every position of
    /// `Array(text)`, from before its first Character to after its last (`Array(text).count + 1`
    /// entries). Entry `j` is the break between `Array(text)[j - 1]` and `Array(text)[j]`, that
    /// is, after the line `Array(text)[..<j]`. Positions are between grapheme clusters
    /// (Swift's Characters), never inside one. Entry 0 is `.prohibited` (no line is empty) and
    /// the last `.mandatory` (the text ends there); an empty text has the one entry
    /// `.mandatory`. A break after spaces leaves them at the end of the line it ends.
    func lineBreaks(_ text: String, language: String) -> [LineBreak]
}

/// Whether a line may end at a position of a text (`TextRenderer.lineBreaks`).
public enum LineBreak: Sendable, Hashable {
    /// The line ends here: after a line feed or another line separator, and at the text's end.
    case mandatory
    /// The line may end here (after a space, a hyphen, between two ideographs, after "，").
    case allowed
    /// The line may not end here (inside a word or a number, before "，" or "。", after "（").
    case prohibited

    /// Whether a line may end here (`.mandatory` or `.allowed`): a break opportunity.
    public var isOpportunity: Bool { self != .prohibited }

    /// The breaks of `text` without the Unicode rules (`TextRenderer.lineBreaks`' default): a
    /// line ends after a line break character (`Character.isNewline`) and may end after spaces
    /// and tabs, before the next character that is not one; nowhere else, whatever the language.
    public static func atSpaces(_ text: String) -> [LineBreak] {
        let characters = Array(text)
        guard !characters.isEmpty else { return [.mandatory] }
        var breaks = [LineBreak.prohibited]
        breaks.reserveCapacity(characters.count + 1)
        for j in 1..<characters.count {
            let before = characters[j - 1], after = characters[j]
            if before.isNewline {
                breaks.append(.mandatory)
            } else if (before == " " || before == "\t") && after != " " && after != "\t" && !after.isNewline {
                breaks.append(.allowed)
            } else {
                breaks.append(.prohibited)
            }
        }
        breaks.append(.mandatory)
        return breaks
    }
}

extension TextRenderer {
    /// Inter's (2048 of 2816 units), for a renderer that cannot say.
    public var capRatio: Float { 0.727 }

    /// For a renderer without the Unicode rules (one that only measures, in tests): at spaces
    /// (`LineBreak.atSpaces`).
    public func lineBreaks(_ text: String, language: String) -> [LineBreak] { LineBreak.atSpaces(text) }
}
