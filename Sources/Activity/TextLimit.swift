/// The longest texts the store keeps and the panel draws, at every entry point (the command line,
/// `glance serve`, the store): a description is one line on a panel an inch or two across, a unit
/// a few letters. Nothing a client sends can make a line the text renderer cannot lay out.
public enum TextLimit {
    /// A metric's or a task's name, in UTF-8 bytes.
    public static let name = 64
    /// A metric's unit, in UTF-8 bytes.
    public static let unit = 16
    /// A task's description, in characters.
    public static let description = 200

    /// Why `text` cannot be a description (or, with `bytes`, a unit): too long, or a control
    /// character in it; nil when it can.
    public static func problem(_ text: String, characters: Int? = nil, bytes: Int? = nil) -> String? {
        if let bytes, text.utf8.count > bytes { return "at most \(bytes) bytes" }
        if let characters {
            // Counted no further than needed: a 3 MB text is refused without walking all of it.
            var count = 0
            for _ in text {
                count += 1
                if count > characters { return "at most \(characters) characters" }
            }
        }
        if let c = text.unicodeScalars.first(where: Quote.isControl) {
            let hex = String(c.value, radix: 16, uppercase: true)
            return "a control character (U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex)) cannot be shown; leave it out"
        }
        return nil
    }
}
