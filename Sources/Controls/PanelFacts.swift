import Raster

/// What the panel is, as the control socket's `panel` request tells it (for the web page's
/// About page): one line of `key=value` words, every key once, in order, each value bounded, so a
/// client parses it as strictly as the panel writes it.
///
/// `panel width=480 height=480 rotation=0 shape=round diagonal=2.1 measured=display distance=50 connector=DSI-1 format=XR24`
public struct PanelFacts: Sendable, Equatable {
    /// The picture as drawn and seen, upright (the panel's buffers turned by `rotation`), pixels.
    public var width: Int
    public var height: Int
    /// How the panel is mounted: the picture is turned this way onto it.
    public var rotation: Rotation
    /// Only the inscribed circle is visible.
    public var round: Bool
    /// The visible area's diagonal (a round panel's diameter), tenths of an inch.
    public var diagonalTenths: Int
    /// Where the diagonal came from.
    public var measured: Measured
    /// The viewer's distance, whole centimetres.
    public var distance: Int
    /// The display connector's name (DRM's, `HDMI-A-1`) and the pixel format's fourcc (`XR24`);
    /// nil for an output without one (glance watch's PNG files, a test's memory).
    public var connector: String?
    public var format: String?

    /// Where the diagonal came from: the display's own size (DRM's millimetres), the setting
    /// (`display.diagonal`), or the usual panel of the picture's size.
    public enum Measured: String, Sendable, CaseIterable {
        case display, setting, assumed
    }

    /// The largest width or height, diagonal (tenths of an inch) and distance (cm) told.
    public static let maximumPixels = 65535
    public static let maximumDiagonalTenths = 99999
    public static let maximumDistance = 99999
    /// The longest connector name (`[A-Za-z0-9._-]`) and format (`[A-Za-z0-9_]`) told.
    public static let maximumConnector = 32
    public static let maximumFormat = 10

    /// Every value brought within its bounds (sizes and distance at least 1), a connector or format
    /// name's other characters as `_`, cut to its length (an empty one: none), so `text` is always
    /// read back by `init?(text:)`.
    public init(
        width: Int, height: Int, rotation: Rotation, round: Bool, diagonalTenths: Int, measured: Measured, distance: Int,
        connector: String?, format: String?
    ) {
        self.width = min(max(1, width), Self.maximumPixels)
        self.height = min(max(1, height), Self.maximumPixels)
        self.rotation = rotation
        self.round = round
        self.diagonalTenths = min(max(1, diagonalTenths), Self.maximumDiagonalTenths)
        self.measured = measured
        self.distance = min(max(1, distance), Self.maximumDistance)
        self.connector = connector.flatMap { Self.name($0, Self.connectorCharacter, Self.maximumConnector) }
        self.format = format.flatMap { Self.name($0, Self.formatCharacter, Self.maximumFormat) }
    }

    /// Tenths of an inch of `inches`, rounded (what `diagonalTenths` takes).
    public static func tenths(_ inches: Double) -> Int {
        guard inches.isFinite else { return 1 }
        return Int(min(Double(maximumDiagonalTenths), max(1, (inches * 10).rounded())))
    }

    /// The diagonal in inches.
    public var diagonal: Double { Double(diagonalTenths) / 10 }

    public var text: String {
        "panel width=\(width) height=\(height) rotation=\(rotation.degrees) shape=\(round ? "round" : "rectangle") "
            + "diagonal=\(diagonalTenths / 10).\(diagonalTenths % 10) measured=\(measured.rawValue) distance=\(distance) "
            + "connector=\(connector ?? "none") format=\(format ?? "none")"
    }

    /// The facts a `text` tells; nil for anything else (every key once, in this order, each value
    /// within its bounds).
    public init?(text: String) {
        guard text.utf8.count <= 256 else { return nil }
        let words = text.split(separator: " ", omittingEmptySubsequences: false)
        let keys = ["width", "height", "rotation", "shape", "diagonal", "measured", "distance", "connector", "format"]
        guard words.count == keys.count + 1, words[0] == "panel" else { return nil }
        var values: [Substring] = []
        for (word, key) in zip(words.dropFirst(), keys) {
            guard word.hasPrefix(key + "=") else { return nil }
            values.append(word.dropFirst(key.count + 1))
        }
        func number(_ text: Substring, _ range: ClosedRange<Int>) -> Int? {
            guard (1...5).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                text.utf8.count == 1 || text.utf8.first != 0x30, let n = Int(text), range.contains(n)
            else { return nil }
            return n
        }
        guard let width = number(values[0], 1...Self.maximumPixels), let height = number(values[1], 1...Self.maximumPixels),
            let degrees = number(values[2], 0...270), let rotation = Rotation(rawValue: degrees),
            values[3] == "rectangle" || values[3] == "round",
            let measured = Measured(rawValue: String(values[5])), let distance = number(values[6], 1...Self.maximumDistance)
        else { return nil }
        // The diagonal: whole inches, a point, one decimal.
        let diagonal = values[4].split(separator: ".", omittingEmptySubsequences: false)
        guard diagonal.count == 2, diagonal[1].utf8.count == 1, let decimal = number(diagonal[1], 0...9),
            let whole = diagonal[0] == "0" ? 0 : number(diagonal[0], 1...Self.maximumDiagonalTenths / 10),
            whole * 10 + decimal >= 1
        else { return nil }
        func name(_ text: Substring, _ allowed: (UInt8) -> Bool, _ longest: Int) -> String?? {
            if text == "none" { return .some(nil) }
            guard (1...longest).contains(text.utf8.count), text.utf8.allSatisfy(allowed) else { return .none }
            return .some(String(text))
        }
        guard let connector = name(values[7], Self.connectorCharacter, Self.maximumConnector),
            let format = name(values[8], Self.formatCharacter, Self.maximumFormat)
        else { return nil }
        self.init(
            width: width, height: height, rotation: rotation, round: values[3] == "round", diagonalTenths: whole * 10 + decimal,
            measured: measured, distance: distance, connector: connector, format: format)
    }

    static func connectorCharacter(_ b: UInt8) -> Bool { formatCharacter(b) || b == 0x2E || b == 0x2D }

    static func formatCharacter(_ b: UInt8) -> Bool {
        (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || b == 0x5F
    }

    /// `text` with every character `allowed` does not take as `_`, cut to `longest`; nil when
    /// empty or `none` (what the line says for no name).
    static func name(_ text: String, _ allowed: (UInt8) -> Bool, _ longest: Int) -> String? {
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars.prefix(longest) {
            bytes.append(scalar.isASCII && allowed(UInt8(scalar.value)) ? UInt8(scalar.value) : 0x5F)
        }
        guard !bytes.isEmpty, bytes != Array("none".utf8) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
