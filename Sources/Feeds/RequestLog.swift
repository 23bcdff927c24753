import Activity

/// The token of an `Authorization: Bearer TOKEN` header: the scheme in any case (RFC 9110 §11.1),
/// one or more spaces, the token up to trailing white space. nil for another scheme or none.
public func bearerToken(_ header: String?) -> [UInt8]? {
    guard let header else { return nil }
    let bytes = Array(header.utf8)
    let scheme = Array("bearer".utf8)
    guard bytes.count > scheme.count, zip(bytes, scheme).allSatisfy({ $0 | 0x20 == $1 }) else { return nil }
    var rest = bytes[scheme.count...]
    guard let first = rest.first, first == 32 || first == 9 else { return nil }
    while let b = rest.first, b == 32 || b == 9 { rest = rest.dropFirst() }
    while let b = rest.last, b == 32 || b == 9 { rest = rest.dropLast() }
    return Array(rest)
}

/// What `glance serve` writes about a request: one line, nothing in it that a client could use to
/// forge another line or reach a terminal, no query value, never the token.
public enum RequestLog {
    /// The target for the log: the path as received (its bytes outside printable ASCII already
    /// `%XX`, as the server hands it over), at most `limit` characters, and the query's keys
    /// without their values (`?token=…&from=…`: a token sent there by mistake is not kept).
    public static func target(path: String, query: [(String, String)], limit: Int = 120) -> String {
        var text = Quote.percentEscaped(path.utf8)
        if !query.isEmpty {
            text += "?" + query.prefix(8).map { Quote.percentEscaped($0.0.utf8) + "=…" }.joined(separator: "&")
            if query.count > 8 { text += "&…" }
        }
        return text.count > limit ? text.prefix(limit) + "…" : text
    }

    /// The line as logged: control characters escaped, and the token (`secret`, at least 16
    /// bytes) wherever a client may have put it — in the path, plain or percent-encoded, or in a
    /// name an error quotes — replaced by `<token>`.
    public static func line(_ text: String, secret: [UInt8]) -> String { line(text, secrets: [secret]) }

    /// The line as logged with each of `secrets` (the household's tokens; one shorter than 16
    /// bytes is not one) hidden: escaped, each token replaced by `<token>` in each of its forms,
    /// and a line whose decoding still holds one (partly encoded) not kept at all.
    public static func line(_ text: String, secrets: [[UInt8]]) -> String {
        var line = Quote.logLine(text)
        for secret in secrets where secret.count >= 16 {
            let token = String(decoding: secret, as: UTF8.self)
            for form in [token, Quote.percentEscaped(secret), percentEncodedAll(secret)] {
                line = line.replacingAll(form, with: "<token>")
            }
            if let decoded = Route.decode(line), decoded.contains(token) { return "(a request line with the token in it)" }
        }
        return line
    }

    /// A message of the server's own as the client is told it: `hidden` (the store's path) left
    /// out, control characters escaped.
    public static func forClient(_ message: String, hiding hidden: String) -> String {
        guard !hidden.isEmpty else { return Quote.logLine(message) }
        return Quote.logLine(message.replacingAll("store " + hidden, with: "the store").replacingAll(hidden, with: "the store"))
    }

    static func percentEncodedAll(_ bytes: [UInt8]) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        return String(decoding: bytes.flatMap { [37, hex[Int($0 >> 4)], hex[Int($0 & 15)]] }, as: UTF8.self)
    }
}

/// How many refusals (401, 429, 404 …) are logged: `burst` lines at once, then one every
/// `1 / perSecond` seconds; the rest are counted and said in one line when lines are allowed
/// again (or at the end). A flood of bad requests fills the journal only so far. Pure: the caller
/// says when.
public struct LogBudget: Sendable {
    public let burst: Double
    public let perSecond: Double
    private var tokens: Double
    private var at: Double?
    /// Refusals not logged since the last line that said so.
    public private(set) var unsaid = 0

    public init(burst: Int = 20, perSecond: Double = 0.1) {
        self.burst = Double(max(1, burst))
        self.perSecond = perSecond
        tokens = self.burst
    }

    /// Whether a refusal at `now` (seconds, monotonic) may be logged, and, when it may and some
    /// were not, the line that says how many.
    public mutating func take(now: Double) -> (log: Bool, unsaid: String?) {
        if let at { tokens = min(burst, tokens + max(0, now - at) * perSecond) }
        at = now
        guard tokens >= 1 else {
            unsaid += 1
            return (false, nil)
        }
        tokens -= 1
        return (true, flush())
    }

    /// The count of refusals not logged, as a line (nil when there were none); counted from 0 again.
    public mutating func flush() -> String? {
        guard unsaid > 0 else { return nil }
        defer { unsaid = 0 }
        return "\(unsaid) more refused request\(unsaid == 1 ? "" : "s") not logged"
    }
}

extension String {
    /// Every occurrence of `target` (not empty) replaced by `replacement`.
    func replacingAll(_ target: String, with replacement: String) -> String {
        let t = Array(target.utf8)
        let s = Array(utf8)
        guard !t.isEmpty, s.count >= t.count else { return self }
        var out: [UInt8] = []
        out.reserveCapacity(s.count)
        var i = 0
        while i < s.count {
            if i + t.count <= s.count && s[i] == t[0] && Array(s[i..<(i + t.count)]) == t {
                out += replacement.utf8
                i += t.count
            } else {
                out.append(s[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
