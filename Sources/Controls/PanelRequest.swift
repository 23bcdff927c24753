/// What a client of the panel's control socket may ask (`glance mqtt` for Home Assistant,
/// `glance screenshot`, `glance message`): one short line of ASCII words, parsed strictly, or a
/// message to show (`PanelMessage`: `message TEXT`, its text checked as strictly), or a phone's QR
/// code to show (`PanelQRCode`: `qr WIDTH HEX CAPTION`, as strictly). Anything else is refused
/// with its reason; nothing in a request is trusted beyond these words.
public enum PanelRequest: Sendable, Equatable {
    case screenshot
    /// The state now (`PanelState`), once.
    case state
    /// The state now, then again whenever it changes, on the same connection.
    case watch
    case show(ScreenKind)
    case next, refresh, today
    case cycle(on: Bool)
    case light(on: Bool)
    /// The awake brightness in percent (1...100); the light goes on.
    case brightness(Int)
    /// The app ends, its display restored, for systemd to start it again (refused where nothing
    /// would: not run by systemd).
    case restart
    /// Seconds without input before the panel dims, or blanks (0: never), kept over the
    /// configuration's idle times.
    case dim(Int)
    case blank(Int)
    /// A message shown over the screen until a press, its time, or the next message.
    case message(PanelMessage)
    /// A QR code that sets up a person's phone, shown as a message is (`PanelQRCode.seconds`).
    case qrCode(PanelQRCode)
    /// The configuration file read again and applied, as SIGHUP does: answered `ok` (applied, or
    /// nothing changed) or `refused WHY` (the first problem; the running configuration stays).
    case reload
    /// What the panel is (`PanelFacts`): its picture's size, rotation, outline, physical size and
    /// viewing distance, its connector and pixel format.
    case panel

    /// The longest request but a message or a QR code: a longer one is refused whole.
    public static let maximumBytes = 64
    /// The longest request of any kind (a `qr` with its modules and caption): what the socket reads.
    public static let maximumRequestBytes = max(maximumBytes, PanelMessage.maximumRequestBytes, PanelQRCode.maximumRequestBytes)

    /// The request in `bytes` (one trailing newline allowed), or why it is refused.
    public static func parse(_ bytes: [UInt8]) -> Result<PanelRequest, PanelRefusal> {
        var bytes = bytes[...]
        if bytes.last == 0x0A { bytes = bytes.dropLast() }
        if let message = PanelMessage.parse(bytes) { return message }
        if let code = PanelQRCode.parse(bytes) { return code }
        guard bytes.count <= maximumBytes else { return .failure(PanelRefusal("a request of at most \(maximumBytes) bytes")) }
        guard !bytes.isEmpty, bytes.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x20 }),
            bytes.first != 0x20, bytes.last != 0x20, !zip(bytes, bytes.dropFirst()).contains(where: { $0 == 0x20 && $1 == 0x20 })
        else { return .failure(PanelRefusal("a request is lower-case words and numbers separated by single spaces")) }
        let words = String(decoding: bytes, as: UTF8.self).split(separator: " ").map(String.init)
        switch (words[0], words.count) {
        case ("screenshot", 1): return .success(.screenshot)
        case ("state", 1): return .success(.state)
        case ("watch", 1): return .success(.watch)
        case ("next", 1): return .success(.next)
        case ("refresh", 1): return .success(.refresh)
        case ("today", 1): return .success(.today)
        case ("restart", 1): return .success(.restart)
        case ("reload", 1): return .success(.reload)
        case ("panel", 1): return .success(.panel)
        case ("dim", 2), ("blank", 2):
            guard words[1].count <= 5, let n = Int(words[1]), (0...86400).contains(n) else {
                return .failure(PanelRefusal("\(words[0]): whole seconds from 0 (never) to 86400"))
            }
            return .success(words[0] == "dim" ? .dim(n) : .blank(n))
        case ("show", 2):
            guard let kind = ScreenKind(rawValue: words[1]) else {
                return .failure(PanelRefusal("show: no screen \(words[1]) (\(ScreenKind.allCases.map(\.rawValue).joined(separator: ", ")))"))
            }
            return .success(.show(kind))
        case ("cycle", 2), ("light", 2):
            guard words[1] == "on" || words[1] == "off" else { return .failure(PanelRefusal("\(words[0]): on or off")) }
            return .success(words[0] == "cycle" ? .cycle(on: words[1] == "on") : .light(on: words[1] == "on"))
        case ("brightness", 2):
            guard words[1].count <= 3, let n = Int(words[1]), (1...100).contains(n) else {
                return .failure(PanelRefusal("brightness: a whole percentage from 1 to 100"))
            }
            return .success(.brightness(n))
        default:
            return .failure(PanelRefusal("unknown request '\(words[0].prefix(32))' (this glance knows: \(known))"))
        }
    }

    static let known =
        "screenshot, state, watch, show SCREEN, next, refresh, today, cycle on|off, light on|off, brightness 1-100, "
        + "dim|blank 0-86400, restart, reload, panel, message TEXT, qr WIDTH HEX CAPTION"

    /// The request as sent.
    public var text: String {
        switch self {
        case .screenshot: "screenshot"
        case .state: "state"
        case .watch: "watch"
        case .show(let kind): "show \(kind.rawValue)"
        case .next: "next"
        case .refresh: "refresh"
        case .today: "today"
        case .cycle(let on): "cycle \(on ? "on" : "off")"
        case .light(let on): "light \(on ? "on" : "off")"
        case .brightness(let n): "brightness \(n)"
        case .restart: "restart"
        case .reload: "reload"
        case .panel: "panel"
        case .dim(let n): "dim \(n)"
        case .blank(let n): "blank \(n)"
        case .message(let message): message.request
        case .qrCode(let code): code.request
        }
    }

    /// The request as the log tells it: as sent, but a message's text (`PanelMessage.described`)
    /// and a QR code's modules, which carry a token (`PanelQRCode.described`).
    public var described: String {
        if case .message(let message) = self { return message.described }
        if case .qrCode(let code) = self { return code.described }
        return text
    }
}

/// Why the panel did not do what was asked.
public struct PanelRefusal: Error, Sendable, Equatable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
}

/// What the panel shows and how, as the control socket tells it: one line of `key=value` words.
public struct PanelState: Sendable, Equatable {
    public var screen: ScreenKind
    /// The screens configured, in order.
    public var screens: [ScreenKind]
    /// The cycle turning the screens: nil when none is configured.
    public var cycle: Bool?
    /// Lit (awake or dimmed), or dark (blank by the idle times or by a command).
    public var light: Bool
    /// The awake brightness, percent.
    public var brightness: Int
    /// The brightness can be set (false: a backlight that is only on or off).
    public var dimmable: Bool
    /// When the last press or touch came, seconds since 1970 (nil: none since the start).
    public var touched: Int64?
    /// The idle times in use, whole seconds (nil: never).
    public var dimAfter: Int?
    public var blankAfter: Int?

    public init(
        screen: ScreenKind, screens: [ScreenKind], cycle: Bool?, light: Bool, brightness: Int, dimmable: Bool, touched: Int64?,
        dimAfter: Int? = nil, blankAfter: Int? = nil
    ) {
        self.dimAfter = dimAfter
        self.blankAfter = blankAfter
        self.screen = screen
        self.screens = screens
        self.cycle = cycle
        self.light = light
        self.brightness = brightness
        self.dimmable = dimmable
        self.touched = touched
    }

    /// `state screen=rings screens=rings,clock cycle=on light=on brightness=80 dimmable=yes touched=1764651234 dim=60 blank=300`
    /// (`cycle=none`, `touched=none`, `dim=never`, `blank=never`).
    public var text: String {
        "state screen=\(screen.rawValue) screens=\(screens.map(\.rawValue).joined(separator: ",")) "
            + "cycle=\(cycle.map { $0 ? "on" : "off" } ?? "none") light=\(light ? "on" : "off") brightness=\(brightness) "
            + "dimmable=\(dimmable ? "yes" : "no") touched=\(touched.map { String($0) } ?? "none") "
            + "dim=\(dimAfter.map { String($0) } ?? "never") blank=\(blankAfter.map { String($0) } ?? "never")"
    }

    /// The state a `text` tells; nil for anything else (every key once, in this order).
    public init?(text: String) {
        guard text.utf8.count <= 256 else { return nil }
        let words = text.split(separator: " ", omittingEmptySubsequences: false)
        let keys = ["screen", "screens", "cycle", "light", "brightness", "dimmable", "touched", "dim", "blank"]
        guard words.count == keys.count + 1, words[0] == "state" else { return nil }
        var values: [String] = []
        for (word, key) in zip(words.dropFirst(), keys) {
            guard word.hasPrefix(key + "=") else { return nil }
            values.append(String(word.dropFirst(key.count + 1)))
        }
        guard let screen = ScreenKind(rawValue: values[0]) else { return nil }
        var screens: [ScreenKind] = []
        for name in values[1].split(separator: ",") {
            guard let kind = ScreenKind(rawValue: String(name)) else { return nil }
            screens.append(kind)
        }
        let cycle: Bool?
        switch values[2] {
        case "on": cycle = true
        case "off": cycle = false
        case "none": cycle = nil
        default: return nil
        }
        guard values[3] == "on" || values[3] == "off", let brightness = Int(values[4]), (0...100).contains(brightness),
            values[5] == "yes" || values[5] == "no"
        else { return nil }
        var touched: Int64?
        if values[6] != "none" {
            guard let t = Int64(values[6]) else { return nil }
            touched = t
        }
        func seconds(_ text: String) -> Int?? {
            if text == "never" { return .some(nil) }
            guard text.utf8.count <= 8, let n = Int(text), n >= 1 else { return .none }
            return .some(n)
        }
        guard let dim = seconds(values[7]), let blank = seconds(values[8]) else { return nil }
        self.init(
            screen: screen, screens: screens, cycle: cycle, light: values[3] == "on", brightness: brightness,
            dimmable: values[5] == "yes", touched: touched, dimAfter: dim, blankAfter: blank)
    }
}
