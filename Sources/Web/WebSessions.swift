// Who is signed in to the page: sessions made by a one-time link, each with its CSRF token, kept
// in the web side's memory (a restart signs everyone out). Pure: the caller gives the random
// tokens and the time.
import Feeds

/// A browser signed in: the cookie's secret, the token its forms carry, until when.
public struct WebSession: Sendable, Equatable {
    public var id: String
    public var csrf: String
    /// Seconds (the caller's clock) after which the session is gone.
    public var expires: Int64
    /// What the next page says once (a save's outcome), then forgets.
    public var notice: Notice?

    public struct Notice: Sendable, Equatable {
        public var good: Bool
        public var text: String
        public init(good: Bool, text: String) {
            self.good = good
            self.text = text
        }
    }
}

public struct WebSessions: Sendable {
    /// Sessions at once; a new one past this ends the oldest.
    public static let maximum = 16
    /// The cookie's name.
    public static let cookie = "glance_session"

    public private(set) var sessions: [WebSession] = []
    public let lifetime: Int64

    public init(hours: Int) { lifetime = Int64(hours) * 3600 }

    /// A new session with these secrets (each from the kernel's random bytes), from `now`.
    public mutating func start(id: String, csrf: String, now: Int64) -> WebSession {
        sessions.removeAll { $0.expires <= now }
        if sessions.count >= Self.maximum { sessions.removeFirst(sessions.count - Self.maximum + 1) }
        let session = WebSession(id: id, csrf: csrf, expires: now + lifetime)
        sessions.append(session)
        return session
    }

    /// The session whose secret `id` is (compared in constant time with every one), if it has not
    /// expired.
    public func find(_ id: String?, now: Int64) -> WebSession? {
        guard let id, id.utf8.count <= 128 else { return nil }
        let given = Array(id.utf8)
        var found: WebSession?
        for session in sessions where constantTimeEqual(given, Array(session.id.utf8)) { found = session }
        guard let found, found.expires > now else { return nil }
        return found
    }

    /// Whether `token` is `session`'s CSRF token (constant time).
    public static func csrfMatches(_ token: String?, _ session: WebSession) -> Bool {
        guard let token else { return false }
        return constantTimeEqual(Array(token.utf8), Array(session.csrf.utf8))
    }

    public mutating func end(_ id: String) { sessions.removeAll { $0.id == id } }

    public mutating func say(_ notice: WebSession.Notice, to id: String) {
        if let i = sessions.firstIndex(where: { $0.id == id }) { sessions[i].notice = notice }
    }

    /// The notice for `id`, forgotten as it is taken.
    public mutating func takeNotice(_ id: String) -> WebSession.Notice? {
        guard let i = sessions.firstIndex(where: { $0.id == id }) else { return nil }
        defer { sessions[i].notice = nil }
        return sessions[i].notice
    }

    /// The cookie's value in a Cookie header (`a=1; glance_session=…`).
    public static func cookieValue(_ header: String?, name: String = cookie) -> String? {
        guard let header, header.utf8.count <= 4096 else { return nil }
        for part in header.split(separator: ";") {
            let p = part.trimmingSpaces
            if p.hasPrefix(name + "=") { return String(p.dropFirst(name.count + 1)) }
        }
        return nil
    }

    /// The Set-Cookie header of a session: only over this page's requests, never read by script,
    /// never sent by another site's request.
    public func setCookie(_ session: WebSession, secure: Bool) -> String {
        "\(Self.cookie)=\(session.id); Path=/; Max-Age=\(lifetime); HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

    public static let clearCookie = "\(cookie)=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict"
}

/// The one-time link's secret as `glance web link` leaves it for the page: one line, the secret and
/// the second it stops working.
public struct LoginLink: Sendable, Equatable {
    public var secret: String
    public var expires: Int64
    /// How long a link works.
    public static let seconds: Int64 = 600

    public init(secret: String, expires: Int64) {
        self.secret = secret
        self.expires = expires
    }

    public var text: String { "\(secret) \(expires)\n" }

    /// The link in a file's text; nil for anything else.
    public init?(text: String) {
        guard text.utf8.count <= 256 else { return nil }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard words.count == 2, words[0].utf8.count >= 16, let expires = Int64(words[1]) else { return nil }
        guard words[0].utf8.allSatisfy({ b in Self.allowed(b) }) else { return nil }
        self.init(secret: String(words[0]), expires: expires)
    }

    static func allowed(_ b: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: "_")
    }

    /// Whether `given` opens it at `now`.
    public func opens(_ given: String?, now: Int64) -> Bool {
        guard let given, now < expires else { return false }
        return constantTimeEqual(Array(given.utf8), Array(secret.utf8))
    }
}
