import CUnibreak
import Raster

/// Where lines may break, by the Unicode line breaking algorithm (UAX #14) as libunibreak
/// implements it, tailored for a language: in English at spaces and after hyphens, never inside
/// a word or a number ("2.1"); in Chinese between any two ideographs, after "，" and "。" but never
/// before them, never after "（" or "“" (libunibreak's "zh" takes the curly quotes as opening and
/// closing, where the default leaves them ambiguous). The same calls work with Debian 12's
/// libunibreak 1.1 and Debian 13's 6.1.
public enum UnicodeLineBreaking {
    /// libunibreak 1.1 builds the index of its property table in init_linebreak (a lookup
    /// before it goes wrong); 6.x keeps the call and does nothing in it. Once per process: a
    /// static is initialised once, whichever thread asks first.
    private static let started: Void = init_linebreak()

    /// The breaks of `text` in `language` (a BCP 47 tag, "en" or "zh-Hans": libunibreak
    /// tailors by its first two letters), as `TextRenderer.lineBreaks` describes them: one entry
    /// for each position between the Characters of `Array(text)`, and before the first and
    /// after the last.
    public static func breaks(_ text: String, language: String) -> [LineBreak] {
        guard !text.isEmpty else { return [.mandatory] }
        _ = started
        var text = text
        // libunibreak's answer for each byte: the break after it.
        let units = text.withUTF8 { bytes in
            var units = [CChar](repeating: CChar(LINEBREAK_NOBREAK), count: bytes.count)
            units.withUnsafeMutableBufferPointer { brks in
                language.withCString { set_linebreaks_utf8(bytes.baseAddress, bytes.count, $0, brks.baseAddress) }
            }
            return units
        }
        var breaks = [LineBreak.prohibited]
        var offset = 0
        for character in text {
            offset += character.utf8.count
            switch Int32(units[offset - 1]) {
            case LINEBREAK_MUSTBREAK: breaks.append(.mandatory)
            case LINEBREAK_ALLOWBREAK: breaks.append(.allowed)
            // LINEBREAK_NOBREAK; INSIDEACHAR is never at a Character's end
            default: breaks.append(.prohibited)
            }
        }
        // (1.1 says MUSTBREAK at the end, 6.x INDETERMINATE: the text may go on)
        breaks[breaks.count - 1] = .mandatory
        return breaks
    }
}
