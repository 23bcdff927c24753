import Platform
import Raster

/// Why the display cannot be used, in words a person can act on.
public enum DisplayError: Error, CustomStringConvertible {
    /// No DRM device at all (no /dev/dri, or no card in it).
    case noDisplayDevice(directory: String)
    /// Opening the card was refused.
    case permissionDenied(SystemError)
    /// Another program (a display server) is DRM master of the card.
    case anotherMaster(card: String)
    /// The card does no dumb buffers (a render-only GPU node, for example).
    case noDumbBuffers(card: String)
    /// None of the cards has a connector with a display (for `--card`-less runs: all were tried).
    case noUsableCard(reasons: [String])
    case connectorNotFound(requested: String, available: [Connector])
    case connectorWithoutModes(Connector)
    case noConnectedConnector(available: [Connector])
    case modeNotFound(requested: ModeRequest, connector: String, available: [DisplayMode])
    case noCRTC(connector: String)
    case formatNotOffered(requested: PixelFormat, offered: [UInt32])
    case noUsableFormat(offered: [UInt32])
    /// Any other call that failed.
    case system(SystemError)

    public var description: String {
        switch self {
        case .noDisplayDevice(let directory):
            return "no display: \(directory) has no DRM card (no display driver loaded, or none in this "
                + "container/VM); to draw without a display use `glance render --size WxH --output FILE.png`"
        case .permissionDenied(let error):
            return error.description
        case .anotherMaster(let card):
            return "\(card): another program is DRM master (a display server such as X, Wayland or another "
                + "glance holds the display); stop it, or start glance on a text console"
        case .noDumbBuffers(let card):
            return "\(card): the driver has no dumb buffers (not a display device?); try another --card"
        case .noUsableCard(let reasons):
            return "no card drives a display: " + reasons.joined(separator: "; ")
        case .connectorNotFound(let requested, let available):
            return "--connector '\(requested)': no such connector; available: \(Self.list(available))"
        case .connectorWithoutModes(let connector):
            return "connector \(connector.name) is \(connector.status.rawValue) and offers no modes; "
                + "connect the panel or choose another --connector"
        case .noConnectedConnector(let available):
            return "no connected display; connectors: \(Self.list(available))"
        case .modeNotFound(let requested, let connector, let available):
            let modes = available.map { $0.description + ($0.isPreferred ? " (preferred)" : "") }
            return "--mode '\(requested)': \(connector) has no such mode; available: "
                + (modes.isEmpty ? "none" : Self.unique(modes).joined(separator: ", "))
        case .noCRTC(let connector):
            return "connector \(connector): no CRTC can drive it"
        case .formatNotOffered(let requested, let offered):
            return "--format \(requested.rawValue): the display plane does not take it; it takes "
                + offered.map(fourCCName).joined(separator: " ")
        case .noUsableFormat(let offered):
            return "the display plane takes neither XRGB8888 nor RGB565 (it takes "
                + offered.map(fourCCName).joined(separator: " ") + ")"
        case .system(let error):
            return error.description
        }
    }

    static func list(_ connectors: [Connector]) -> String {
        connectors.isEmpty
            ? "none"
            : connectors.map { "\($0.name)" + ($0.card.map { " on \($0)" } ?? "") + " (\($0.status.rawValue))" }
                .joined(separator: ", ")
    }

    static func unique(_ items: [String]) -> [String] {
        var seen = Set<String>()
        return items.filter { seen.insert($0).inserted }
    }
}
