/// What a DRM card has, read once: connectors, CRTCs and planes. Plain values, so the choices made
/// from it (connector, mode, CRTC, plane, format) are pure and tested without hardware.
public struct CardSnapshot: Sendable {
    public var path: String
    public var driver: String
    public var supportsDumbBuffers: Bool
    /// The atomic client capability was granted.
    public var supportsAtomic: Bool
    public var connectors: [Connector]
    public var crtcs: [CRTC]
    public var planes: [Plane]

    public init(
        path: String, driver: String = "", supportsDumbBuffers: Bool = true, supportsAtomic: Bool = true,
        connectors: [Connector], crtcs: [CRTC], planes: [Plane] = []
    ) {
        self.path = path
        self.driver = driver
        self.supportsDumbBuffers = supportsDumbBuffers
        self.supportsAtomic = supportsAtomic
        self.connectors = connectors
        self.crtcs = crtcs
        self.planes = planes
    }
}

/// Whether something is plugged into a connector.
public enum ConnectionStatus: String, Sendable {
    case connected, disconnected, unknown
}

/// A connector (HDMI-A-1, DSI-1, Virtual-1 …) and the modes its sink offers.
public struct Connector: Sendable {
    public var id: UInt32
    /// The kernel's name: type name, dash, number ("HDMI-A-1").
    public var name: String
    public var status: ConnectionStatus
    public var modes: [DisplayMode]
    /// The kernel's records of `modes`, by the modes' `index` (empty when the snapshot was made
    /// by hand, as in tests).
    public var kernelModes: [KernelMode]
    /// Indexes (in the card's CRTC list) of the CRTCs some encoder of this connector can drive.
    public var possibleCRTCIndexes: [Int]
    /// The CRTC driving it now, if any.
    public var currentCRTC: UInt32?
    public var widthMillimetres: Int
    public var heightMillimetres: Int
    /// The card it is on, where a list spans several (an error naming every card's connectors).
    public var card: String?

    public init(
        id: UInt32, name: String, status: ConnectionStatus, modes: [DisplayMode], possibleCRTCIndexes: [Int],
        currentCRTC: UInt32? = nil, widthMillimetres: Int = 0, heightMillimetres: Int = 0,
        kernelModes: [KernelMode] = []
    ) {
        self.id = id
        self.name = name
        self.status = status
        self.modes = modes
        self.kernelModes = kernelModes
        self.possibleCRTCIndexes = possibleCRTCIndexes
        self.currentCRTC = currentCRTC
        self.widthMillimetres = widthMillimetres
        self.heightMillimetres = heightMillimetres
    }

    /// The preferred mode, else the first listed.
    public var preferredMode: DisplayMode? { modes.first(where: \.isPreferred) ?? modes.first }

    /// The kernel's connector type names, by DRM_MODE_CONNECTOR_* number.
    static let typeNames = [
        "Unknown", "VGA", "DVI-I", "DVI-D", "DVI-A", "Composite", "SVIDEO", "LVDS", "Component", "DIN",
        "DP", "HDMI-A", "HDMI-B", "TV", "eDP", "Virtual", "DSI", "DPI", "Writeback", "SPI", "USB",
    ]

    /// "HDMI-A-1" from connector type 11 and type id 1.
    public static func name(type: Int, typeID: Int) -> String {
        let typeName = typeNames.indices.contains(type) ? typeNames[type] : "Unknown"
        return "\(typeName)-\(typeID)"
    }
}

/// A CRTC: the scanout engine that feeds a connector from a plane.
public struct CRTC: Sendable {
    public var id: UInt32
    /// Position in the card's CRTC list (what possible_crtcs bit masks refer to).
    public var index: Int
    /// The mode it is set to now, if any.
    public var mode: DisplayMode?
    /// The framebuffer it shows now (0: none).
    public var framebuffer: UInt32

    public init(id: UInt32, index: Int, mode: DisplayMode? = nil, framebuffer: UInt32 = 0) {
        self.id = id
        self.index = index
        self.mode = mode
        self.framebuffer = framebuffer
    }
}

/// A plane: a layer a CRTC composes (primary, overlay, cursor) and the pixel formats it takes.
public struct Plane: Sendable {
    public enum Kind: String, Sendable {
        case primary, overlay, cursor
    }

    public var id: UInt32
    public var kind: Kind
    /// Bit i set: the plane can be used with the CRTC of index i.
    public var possibleCRTCs: UInt32
    /// DRM fourcc codes.
    public var formats: [UInt32]
    /// It takes FB_DAMAGE_CLIPS (partial updates with atomic commits).
    public var acceptsDamageClips: Bool

    public init(id: UInt32, kind: Kind, possibleCRTCs: UInt32, formats: [UInt32], acceptsDamageClips: Bool = false) {
        self.id = id
        self.kind = kind
        self.possibleCRTCs = possibleCRTCs
        self.formats = formats
        self.acceptsDamageClips = acceptsDamageClips
    }

    public func canDrive(crtcIndex: Int) -> Bool {
        crtcIndex >= 0 && crtcIndex < 32 && possibleCRTCs & (1 << UInt32(crtcIndex)) != 0
    }
}

/// A fourcc code as its four characters ("XR24").
public func fourCCName(_ code: UInt32) -> String {
    let bytes = (0..<4).map { UInt8(truncatingIfNeeded: code >> (8 * UInt32($0))) }
    if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
        return String(decoding: bytes, as: UTF8.self).trimmingSuffixSpaces()
    }
    return "0x" + String(code, radix: 16)
}

extension String {
    fileprivate func trimmingSuffixSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
