import CQREncode

/// QR codes (libqrencode, opened on first use), drawn as text for a terminal: how `glance serve
/// token` hands the phone its token; and as modules for the panel to draw (`glance people token
/// NAME --panel`).
public enum QRCode {
    /// The modules of `text`'s QR code, row after row, true where dark: the smallest code that
    /// holds it (the lowest correction level's), at the highest correction level that code size
    /// still holds (a lit panel is not smudged like paper, but the more a code corrects, the more
    /// a glare or a camera's moiré it reads through). Nil when libqrencode cannot encode it.
    public static func modules(_ text: String) -> (width: Int, modules: [Bool])? {
        func encode(_ level: QRecLevel) -> (version: Int32, width: Int, modules: [Bool])? {
            guard let code = QRcode_encodeString(text, 0, level, QR_MODE_8, 1) else { return nil }
            defer { QRcode_free(code) }
            let width = Int(code.pointee.width)
            let data = code.pointee.data!
            return (code.pointee.version, width, (0..<width * width).map { data[$0] & 1 == 1 })
        }
        guard let smallest = encode(QR_ECLEVEL_L) else { return nil }
        for level in [QR_ECLEVEL_H, QR_ECLEVEL_Q, QR_ECLEVEL_M] {
            if let stronger = encode(level), stronger.version == smallest.version { return (stronger.width, stronger.modules) }
        }
        return (smallest.width, smallest.modules)
    }

    /// The QR code of `text` in half blocks (two rows a line), with a quiet zone of two modules.
    /// With `colours`, black modules on white whatever the terminal's own colours (a dark or a
    /// light theme); without (a file, a pipe), dark modules drawn, as on paper.
    public static func text(_ text: String, colours: Bool = false) -> String? {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let data = code.pointee.data!
        let quiet = 2
        let size = width + 2 * quiet
        func dark(_ x: Int, _ y: Int) -> Bool {
            let (cx, cy) = (x - quiet, y - quiet)
            guard cx >= 0, cy >= 0, cx < width, cy < width else { return false }
            return data[cy * width + cx] & 1 == 1
        }
        var out = ""
        for y in stride(from: 0, to: size, by: 2) {
            // SGR 30;107: black on bright white; 0: the terminal's own again.
            if colours { out += "\u{1B}[30;107m" }
            for x in 0..<size {
                let top = dark(x, y), bottom = y + 1 < size ? dark(x, y + 1) : false
                out += top ? (bottom ? "█" : "▀") : (bottom ? "▄" : " ")
            }
            if colours { out += "\u{1B}[0m" }
            out += "\n"
        }
        return String(out.dropLast())
    }
}
