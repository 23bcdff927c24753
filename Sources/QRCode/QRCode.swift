import CQREncode

/// QR codes (libqrencode, opened on first use), drawn as text for a terminal: how `glance serve
/// token` hands the phone its token.
public enum QRCode {
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
