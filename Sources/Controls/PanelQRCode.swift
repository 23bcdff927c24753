/// A QR code for the panel to show over whatever it shows, as a message is shown: the code that
/// sets up a person's phone (`glance people token NAME --panel`: Health Auto Export's deep link
/// with the person's token), made by glance-serve, which links libqrencode (the panel does not),
/// and sent over the control socket as its modules. The caption is the person's name; the panel
/// says under it, in its own language, to scan it with the iPhone's camera.
///
/// The request: `qr WIDTH HEX CAPTION`. WIDTH is the code's width in modules, a QR code's (21, 25,
/// … `maximumWidth`: versions 1 to 15); HEX the modules, row after row from the top, each row left
/// to right, four a lower-case hex digit (its high bit first), dark 1, the last digit padded with
/// zeros; CAPTION at most `maximumCaptionBytes` bytes of UTF-8, one line (no control or
/// reordering character, nothing but spaces refused). The three finder patterns must be at their
/// corners. Anything else is refused whole, with its reason.
public struct PanelQRCode: Sendable, Equatable {
    /// Modules a side.
    public let width: Int
    /// Row-major, `width` × `width`, true where a module is dark.
    public let modules: [Bool]
    public let caption: String

    /// The smallest code (version 1) and the largest taken (version 15: Health Auto Export's link
    /// with a long name in Chinese at the lowest correction level, with room).
    public static let minimumWidth = 21
    public static let maximumWidth = 77
    public static let maximumCaptionBytes = 128
    /// How long the code stays without a press: long enough to find the phone and open the camera.
    public static let seconds = 120
    /// The longest `qr` request: the words, the modules of the largest code, the caption and a
    /// newline.
    public static let maximumRequestBytes = "qr \(maximumWidth) ".utf8.count + hexDigits(maximumWidth) + 1 + maximumCaptionBytes + 1

    /// The hex digits of a code `width` modules wide.
    static func hexDigits(_ width: Int) -> Int { (width * width + 3) / 4 }

    /// A code of `modules` (row-major, `width` a side), or why it cannot be shown: as `parse`
    /// checks a request.
    public static func make(width: Int, modules: [Bool], caption: String) -> Result<PanelQRCode, PanelRefusal> {
        guard width >= minimumWidth, width <= maximumWidth, (width - minimumWidth) % 4 == 0 else {
            return .failure(
                PanelRefusal(
                    "qr: the width is a QR code's, \(minimumWidth) to \(maximumWidth) modules in steps of 4 (versions 1 to "
                        + "\((maximumWidth - 17) / 4)), not \(width)"))
        }
        guard modules.count == width * width else {
            return .failure(PanelRefusal("qr: \(modules.count) modules for a code \(width) wide (\(width * width))"))
        }
        guard hasFinders(width, modules) else {
            return .failure(PanelRefusal("qr: not a QR code (its three corners have no finder pattern)"))
        }
        switch check(caption: Array(caption.utf8)) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let text): return .success(PanelQRCode(width: width, modules: modules, caption: text))
        }
    }

    private init(width: Int, modules: [Bool], caption: String) {
        self.width = width
        self.modules = modules
        self.caption = caption
    }

    /// Whether the module at column `x`, row `y` is dark.
    public func dark(_ x: Int, _ y: Int) -> Bool { modules[y * width + x] }

    /// The request as sent.
    public var request: String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(Self.hexDigits(width))
        var nibble = 0, bits = 0
        for dark in modules {
            nibble = nibble << 1 | (dark ? 1 : 0)
            bits += 1
            if bits == 4 {
                hex.append(digits[nibble])
                nibble = 0
                bits = 0
            }
        }
        if bits > 0 { hex.append(digits[nibble << (4 - bits)]) }
        return "qr \(width) " + String(decoding: hex, as: UTF8.self) + " " + caption
    }

    /// What the log says of it: whose, and its size; never the modules (they carry the token).
    public var described: String { "QR code for \(caption) (\(width)×\(width) modules)" }

    /// The `qr` request in `bytes` (its trailing newline dropped already), or why it is refused;
    /// nil when `bytes` is not one.
    static func parse(_ bytes: ArraySlice<UInt8>) -> Result<PanelRequest, PanelRefusal>? {
        let verb = Array("qr".utf8)
        guard bytes.starts(with: verb) else { return nil }
        let rest = bytes.dropFirst(verb.count)
        // `qrcode`: another word, not this request.
        guard rest.isEmpty || rest.first == 0x20 else { return nil }
        let usage = "qr: give WIDTH HEX CAPTION (glance people token NAME --panel sends it)"
        guard bytes.count <= maximumRequestBytes else {
            return .failure(PanelRefusal("qr: a request of at most \(maximumRequestBytes) bytes (a code of at most \(maximumWidth) modules)"))
        }
        let words = rest.dropFirst().split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
        guard words.count == 3 else { return .failure(PanelRefusal(usage)) }
        guard words[0].count <= 3, words[0].allSatisfy({ (0x30...0x39).contains($0) }), words[0].first != 0x30,
            let width = Int(String(decoding: words[0], as: UTF8.self))
        else {
            return .failure(PanelRefusal("qr: the width is a whole number of modules, \(minimumWidth) to \(maximumWidth)"))
        }
        guard width >= minimumWidth, width <= maximumWidth, (width - minimumWidth) % 4 == 0 else {
            return make(width: width, modules: [], caption: "").map { .qrCode($0) }
        }
        let hex = words[1]
        guard hex.count == hexDigits(width) else {
            return .failure(PanelRefusal("qr: a code \(width) wide is \(hexDigits(width)) hex digits, not \(hex.count)"))
        }
        var modules: [Bool] = []
        modules.reserveCapacity(hex.count * 4)
        for (i, digit) in hex.enumerated() {
            let value: UInt8
            switch digit {
            case 0x30...0x39: value = digit - 0x30
            case 0x61...0x66: value = digit - 0x61 + 10
            default: return .failure(PanelRefusal("qr: the modules are lower-case hex digits (0-9, a-f); byte \(i + 1) of them is not one"))
            }
            for bit in (0..<4).reversed() { modules.append(value >> bit & 1 == 1) }
        }
        if modules[(width * width)...].contains(true) {
            return .failure(PanelRefusal("qr: the last hex digit's bits past the code are not 0"))
        }
        modules.removeLast(modules.count - width * width)
        // The caption checked as bytes (a string made of bad UTF-8 would hide them).
        switch check(caption: Array(words[2])) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let caption): return make(width: width, modules: modules, caption: caption).map { .qrCode($0) }
        }
    }

    /// `caption` as a code's caption, or why it cannot be one.
    static func check(caption bytes: [UInt8]) -> Result<String, PanelRefusal> {
        guard bytes.count <= maximumCaptionBytes else {
            return .failure(PanelRefusal("qr: a caption of at most \(maximumCaptionBytes) bytes (UTF-8), not \(bytes.count)"))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { return .failure(PanelRefusal("qr: the caption is not UTF-8")) }
        var offset = 0
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control || reorders(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                return .failure(
                    PanelRefusal(
                        "qr: a control or reordering character (U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex)) in the "
                            + "caption at byte \(offset); send one line of plain text"))
            }
            offset += String(scalar).utf8.count
        }
        guard text.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else {
            return .failure(PanelRefusal("qr: no caption (the person's name)"))
        }
        return .success(text)
    }

    /// The characters that reorder text (bidirectional embeddings, overrides, isolates, marks):
    /// refused, as in a person's name.
    static func reorders(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Whether the three finder patterns (7 × 7: a dark ring, a light ring, a dark 3 × 3) are at
    /// the top left, top right and bottom left.
    static func hasFinders(_ width: Int, _ modules: [Bool]) -> Bool {
        for (left, top) in [(0, 0), (width - 7, 0), (0, width - 7)] {
            for y in 0..<7 {
                for x in 0..<7 {
                    let ring = max(abs(x - 3), abs(y - 3))
                    if modules[(top + y) * width + left + x] != (ring != 2) { return false }
                }
            }
        }
        return true
    }
}
