// HTML as the pages write it: every text a person or a client chose escaped once, here.
import Activity

/// Text made safe for HTML: as element content and as a double-quoted attribute value alike.
public func html(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&#39;"
        default:
            // Control characters (but tab and newline) never reach the page as they are.
            if scalar.value < 0x20 && scalar != "\n" && scalar != "\t" || scalar.value == 0x7F {
                out += "&#xFFFD;"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out
}

/// Text as a URL's query value: everything but unreserved characters as %XX.
public func urlQueryValue(_ text: String) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    for b in text.utf8 {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            out.append(b)
        default: out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 15)]]
        }
    }
    return String(decoding: out, as: UTF8.self)
}

/// What every page's answer carries: no page in a frame, no script or style but the page's own
/// files, forms only to the page itself, a referrer only to the page itself (a one-time link
/// never leaves in one; a same-origin referrer policy keeps the Origin a form's POST carries, which
/// "no-referrer" makes "null").
public let pageHeaders: [(String, String)] = [
    (
        "Content-Security-Policy",
        "default-src 'none'; img-src 'self' blob:; style-src 'self'; script-src 'self'; connect-src 'self'; "
            + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    ),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),
    ("X-Frame-Options", "DENY"),
]
