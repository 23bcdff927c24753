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
            if c.value == 0x0A {
                out += "\\n"
            } else if isControl(c) || reorders(c) {
                out += "?"
            } else {
                out.unicodeScalars.append(c)
            }
            count += 1
        }
        return out
    }

    /// A control character (C0, DEL, C1) or a line or paragraph separator: what breaks a line, moves
    /// a terminal's cursor or starts an escape sequence. No text Glance keeps or draws holds one.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029
    }

    /// Whether `text` holds a control character (`isControl`).
    public static func hasControl(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.contains(where: isControl)
    }

    /// Bidirectional embeddings, overrides and isolates: they reorder how the rest of a line shows.
    public static func reorders(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }

    /// A log line as written: every control character, and every character that reorders the
    /// line, as `\u{…}`, so what a client chose can neither start a line of its own nor reach a
    /// terminal as an escape. A backslash is doubled, so the escapes cannot be forged either.
    public static func logLine(_ text: some StringProtocol) -> String {
        var out = ""
        for c in text.unicodeScalars {
            if c == "\\" {
                out += "\\\\"
            } else if isControl(c) || reorders(c) {
                out += "\\u{" + String(c.value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// Bytes as a URL's path shows them: printable ASCII as it is, every other byte as `%XX`. What
    /// a request line held, on one line and decodable as the client meant it: the form a server
    /// logs and decodes a path in.
    public static func percentEscaped(_ bytes: some Sequence<UInt8>) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for b in bytes {
            if (0x21...0x7E).contains(b) {
                out.append(b)
            } else {
                out += [37, hex[Int(b >> 4)], hex[Int(b & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
