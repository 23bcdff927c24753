/// A message for the panel to show over whatever it shows (Home Assistant's notify, `glance
/// message`): its text and how long it stays without a press. The control socket's `message TEXT`
/// (shown `defaultSeconds`) or `message:SECONDS TEXT`.
///
/// The text is UTF-8 of at most `maximumBytes` bytes with something besides spaces in it (spaces
/// and line feeds around it are dropped); a line feed breaks the line there, and no other control
/// character is taken (a tab, a carriage return, an escape, C1's): they are refused, never drawn.
public struct PanelMessage: Sendable, Equatable {
    public var text: String
    /// Shown this long without a press or touch (1...`maximumSeconds`).
    public var seconds: Int

    /// The longest text, in bytes of UTF-8.
    public static let maximumBytes = 255
    public static let defaultSeconds = 60
    /// A day: the longest a message may stay.
    public static let maximumSeconds = 86_400
    /// The longest `message` request: `message:86400 `, the text and a newline.
    public static let maximumRequestBytes = "message:\(maximumSeconds) ".utf8.count + maximumBytes + 1

    public init(text: String, seconds: Int = defaultSeconds) {
        self.text = text
        self.seconds = seconds
    }

    /// The request as sent: `message TEXT`, or `message:SECONDS TEXT` for another time.
    public var request: String { (seconds == Self.defaultSeconds ? "message " : "message:\(seconds) ") + text }

    /// What the log says of it (never the text itself: a household's messages stay out of the
    /// journal).
    public var described: String { "message (\(text.unicodeScalars.count) characters, \(seconds) s)" }

    /// `text` as a message's text, or why it cannot be one.
    public static func check(_ text: [UInt8]) -> Result<String, PanelRefusal> {
        guard text.count <= maximumBytes else {
            return .failure(PanelRefusal("message: at most \(maximumBytes) bytes of text (UTF-8); shorten it"))
        }
        guard let string = String(validating: text, as: UTF8.self) else {
            return .failure(PanelRefusal("message: the text is not UTF-8"))
        }
        var offset = 0
        for scalar in string.unicodeScalars {
            if scalar.properties.generalCategory == .control && scalar != "\n" {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                return .failure(
                    PanelRefusal(
                        "message: a control character (U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex)) at byte \(offset); "
                            + "send text (a line feed breaks the line)"))
            }
            offset += String(scalar).utf8.count
        }
        // Spaces and line feeds around the text are not drawn: left out, so the request as sent
        // again (`request`) is the same.
        let scalars = Array(string.unicodeScalars)
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else {
            return .failure(PanelRefusal("message: no text to show"))
        }
        var trimmed = String.UnicodeScalarView()
        trimmed.append(contentsOf: scalars[first...last])
        return .success(String(trimmed))
    }

    /// The `message` request in `bytes` (its trailing newline dropped already), or why it is
    /// refused; nil when `bytes` is not one (another request).
    static func parse(_ bytes: ArraySlice<UInt8>) -> Result<PanelRequest, PanelRefusal>? {
        let verb = Array("message".utf8)
        guard bytes.starts(with: verb) else { return nil }
        var rest = bytes.dropFirst(verb.count)
        // `messages`: another word, not this request.
        guard rest.isEmpty || rest.first == UInt8(ascii: ":") || rest.first == 0x20 else { return nil }
        var seconds = defaultSeconds
        if rest.first == UInt8(ascii: ":") {
            let digits = rest.dropFirst().prefix { (0x30...0x39).contains($0) }
            guard !digits.isEmpty, digits.count <= 5, let n = Int(String(decoding: digits, as: UTF8.self)),
                (1...maximumSeconds).contains(n)
            else {
                return .failure(PanelRefusal("message:SECONDS: a whole number of seconds from 1 to \(maximumSeconds)"))
            }
            seconds = n
            rest = rest.dropFirst(1 + digits.count)
        }
        guard rest.first == 0x20 else {
            return .failure(PanelRefusal("message: give the text to show (message TEXT, or message:SECONDS TEXT)"))
        }
        return check(Array(rest.dropFirst())).map { .message(PanelMessage(text: $0, seconds: seconds)) }
    }
}

/// Why a message left the panel, as the control socket's watchers are told it
/// (`message dismissed pressed`) and Home Assistant's Message dismissed event names it.
public enum MessageEnd: String, Sendable, Equatable, CaseIterable {
    /// A press or a touch dismissed it.
    case pressed
    /// Its time ran out.
    case timeout
    /// A newer message took its place.
    case replaced

    /// The line the watchers get.
    public var line: String { "message dismissed " + rawValue }

    /// The end a watcher's `line` tells; nil for any other line.
    public init?(line: String) {
        let prefix = "message dismissed "
        guard line.hasPrefix(prefix), let end = MessageEnd(rawValue: String(line.dropFirst(prefix.count))) else { return nil }
        self = end
    }
}
