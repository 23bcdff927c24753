/// How messages quote what a person typed or a file held: a few dozen characters at most, on one
/// line, so a 1 GB cell or a 50 MB attribute never becomes a 1 GB message.
public enum Quote {
    /// The usual limit, in characters.
    public static let limit = 40

    /// `text` itself when short, else its first `limit` characters and `…`; control characters
    /// shown as `?` (a line break as `\n`), so the message stays on its line.
    public static func clip(_ text: some StringProtocol, _ limit: Int = Quote.limit) -> String {
        var out = ""
        var count = 0
        for c in text.unicodeScalars {
            if count == limit {
                out += "…"
                break
            }
            switch c.value {
            case 0x0A: out += "\\n"
            case 0..<0x20, 0x7F: out += "?"
            default: out.unicodeScalars.append(c)
            }
            count += 1
        }
        return out
    }
}
