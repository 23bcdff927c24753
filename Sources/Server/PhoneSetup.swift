import Controls
import Platform
import QRCode

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// How one person's phone is set up to push to the board (`glance people add`, `glance people
/// token NAME`): Health Auto Export's deep link, which makes a REST API automation with the URL,
/// a name, JSON and the person's `Authorization` header, as a QR code the iPhone's camera opens;
/// and the same settings as text, to type where the link cannot carry them.
///
/// The link's parameters are Health Auto Export's: its "Deep Link Automation" page
/// (`com.HealthExport://automation?url=…&name=…`, `url` and `name` required and URL-encoded,
/// parameters in any case) and its developer's "Configuration & Deep Linking" page (`format`
/// `json`, `datatype` `healthmetrics`, and `headers` a comma-separated list of keys and values:
/// `headers=Authorization,Bearer%20TOKEN`). A token with a comma in it (one
/// written by hand into serve.tokenFile: the tokens Glance makes have none) would be split
/// there, so its header is left out of the link and said to be typed instead.
public struct PhoneSetup: Sendable, Equatable {
    /// The person's name, as the automation is named after it ("Glance Ann").
    public let person: String
    /// The URL the phone posts to (Health Auto Export's endpoint on the board).
    public let url: String
    public let token: String

    public init(person: String, url: String, token: String) {
        self.person = person
        self.url = url
        self.token = token
    }

    /// The automation's name in the app.
    public var automation: String { "Glance \(person)" }

    /// Whether the link carries the header: its value may not hold the list's separator.
    public var linkCarriesHeader: Bool { !token.contains(",") }

    /// The deep link.
    public var link: String {
        var parameters = [("url", Self.encoded(url)), ("name", Self.encoded(automation)), ("format", "json"), ("datatype", "healthmetrics")]
        if linkCarriesHeader {
            // The comma separates the header's name from its value: written as it is.
            parameters.append(("headers", Self.encoded("Authorization") + "," + Self.encoded("Bearer " + token)))
        }
        return "com.HealthExport://automation?" + parameters.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// The text under the QR code: what it sets up, and every setting as it is typed in the app
    /// (the header when the link cannot carry it, and the metrics the link does not choose).
    public var lines: [String] {
        var lines: [String] = []
        if linkCarriesHeader {
            lines.append(
                "On \(person)'s iPhone, open this QR code with the camera: Health Auto Export makes the automation "
                    + "\"\(automation)\" (REST API: the URL, JSON, \(person)'s token in its Authorization header).")
        } else {
            lines.append(
                "On \(person)'s iPhone, open this QR code with the camera: Health Auto Export makes the automation "
                    + "\"\(automation)\" with the URL and JSON. The token has a comma, which the link's headers cannot carry: "
                    + "type the header as below.")
        }
        lines.append("link: \(link)")
        lines.append("In Health Auto Export › Automations › \(automation) (or a new REST API automation, typed by hand):")
        lines.append("  URL: \(url)")
        lines.append("  Headers › Add Header: Key \"Authorization\", Value \"Bearer \(token)\"")
        lines.append("  Export Format: JSON; Data Type: Health Metrics, with Active Energy, Apple Exercise Time and Apple Stand Hour")
        lines.append("  then a date range and a sync cadence (Since Last Sync, every 15 minutes, say), and switch it on")
        return lines
    }

    /// What `glance people token` prints: the QR code of the link (black on white on a
    /// terminal) and the lines.
    public func show(say: (String) -> Void) {
        if let picture = QRCode.text(link, colours: isatty(STDOUT_FILENO) == 1) { say(picture) }
        for line in lines { say(line) }
    }

    /// The link's QR code for the panel (`glance people token NAME --panel`), captioned with the
    /// person's name (cut to the caption's bytes with "…"), or why there is none: a link too long
    /// for the largest code the panel takes.
    public func panelCode() -> Result<PanelQRCode, OutputFailure> {
        guard let code = QRCode.modules(link) else {
            return .failure(OutputFailure("libqrencode could not make a QR code of the link (\(link.utf8.count) bytes)", status: .software))
        }
        guard code.width <= PanelQRCode.maximumWidth else {
            return .failure(
                OutputFailure(
                    "the link is \(link.utf8.count) bytes, a QR code of \(code.width) modules a side: the panel takes "
                        + "\(PanelQRCode.maximumWidth) at most. Give a shorter --url (or name), or scan the code printed here",
                    status: .usage))
        }
        return PanelQRCode.make(width: code.width, modules: code.modules, caption: Self.caption(person)).mapError { refusal in
            OutputFailure("the panel's QR code: \(refusal.reason)", status: .software)
        }
    }

    /// `name` as the code's caption: whole when it fits `PanelQRCode.maximumCaptionBytes`, else
    /// its first characters and "…".
    static func caption(_ name: String) -> String {
        guard name.utf8.count > PanelQRCode.maximumCaptionBytes else { return name }
        var kept = ""
        for c in name {
            guard kept.utf8.count + String(c).utf8.count + "…".utf8.count <= PanelQRCode.maximumCaptionBytes else { break }
            kept.append(c)
        }
        return kept + "…"
    }

    /// `text` percent-encoded for a query's value: every byte of its UTF-8 but the unreserved
    /// ones (A–Z, a–z, 0–9, `-._~`) as %XX.
    static func encoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            default: out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
