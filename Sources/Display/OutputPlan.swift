import Raster

/// The choices for one output: connector, mode, CRTC, primary plane and pixel format.
public struct OutputPlan: Sendable {
    public var connector: Connector
    public var mode: DisplayMode
    /// The kernel's record of `mode`, from the connector (nil when the snapshot has none).
    public var kernelMode: KernelMode?
    public var crtc: CRTC
    /// The CRTC's primary plane, when the card lists planes (needed for atomic).
    public var plane: Plane?
    public var format: PixelFormat

    /// Makes every choice `request` leaves open, or says what is available instead.
    public static func choose(in card: CardSnapshot, for request: OutputRequest) throws(DisplayError) -> OutputPlan {
        let connector = try chooseConnector(card.connectors, named: request.connector)
        let mode = try chooseMode(connector, request: request.mode)
        guard let crtc = chooseCRTC(for: connector, among: card.crtcs) else {
            throw .noCRTC(connector: connector.name)
        }
        let plane = choosePrimaryPlane(card.planes, crtcIndex: crtc.index)
        let format = try chooseFormat(offered: plane?.formats, requested: request.format)
        let kernelMode = connector.kernelModes.indices.contains(mode.index) ? connector.kernelModes[mode.index] : nil
        return OutputPlan(
            connector: connector, mode: mode, kernelMode: kernelMode, crtc: crtc, plane: plane, format: format)
    }

    /// The cards to try, best first, by their connectors, never by their number: with a
    /// connector named, the cards that have one of that name, where it is connected with modes
    /// first (a Raspberry Pi 5 has vc4 for HDMI, drm-rp1-dsi for each DSI port and drm-rp1-dpi;
    /// an SPI panel is a card of its own); without one, the cards with a connected connector
    /// that has modes (then one whose driver says "unknown"), in number order. None: the error
    /// lists every card's connectors.
    public static func rankCards(_ cards: [CardSnapshot], for request: OutputRequest) throws(DisplayError) -> [Int] {
        func rank(_ card: CardSnapshot) -> Int? {
            let candidates = card.connectors.filter { c in
                request.connector.map { c.name.lowercased() == $0.lowercased() } ?? true
            }
            if candidates.contains(where: { $0.status == .connected && !$0.modes.isEmpty }) { return 0 }
            if candidates.contains(where: { $0.status == .unknown && !$0.modes.isEmpty }) { return 1 }
            // Named but not connected: still this card's to say why (no modes, disconnected).
            if request.connector != nil && !candidates.isEmpty { return 2 }
            return nil
        }
        let ranked = cards.indices.compactMap { i in rank(cards[i]).map { (i, $0) } }
        guard !ranked.isEmpty else {
            let all = cards.flatMap { card in
                card.connectors.map { c in
                    var c = c
                    if cards.count > 1 { c.card = card.path }
                    return c
                }
            }
            if let name = request.connector { throw .connectorNotFound(requested: name, available: all) }
            throw .noConnectedConnector(available: all)
        }
        return ranked.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }.map(\.0)
    }

    /// The named connector (any letter case), else the first connected one that has modes.
    public static func chooseConnector(_ connectors: [Connector], named name: String?) throws(DisplayError) -> Connector
    {
        if let name {
            guard let connector = connectors.first(where: { $0.name.lowercased() == name.lowercased() }) else {
                throw .connectorNotFound(requested: name, available: connectors)
            }
            guard !connector.modes.isEmpty else { throw .connectorWithoutModes(connector) }
            return connector
        }
        if let connected = connectors.first(where: { $0.status == .connected && !$0.modes.isEmpty }) {
            return connected
        }
        // Some panels' drivers report "unknown" yet work.
        if let unknown = connectors.first(where: { $0.status == .unknown && !$0.modes.isEmpty }) {
            return unknown
        }
        throw .noConnectedConnector(available: connectors)
    }

    /// The requested mode (best refresh, preferred first, at that size when no refresh is given),
    /// else the preferred mode, else the largest.
    public static func chooseMode(_ connector: Connector, request: ModeRequest?) throws(DisplayError) -> DisplayMode {
        let modes = connector.modes
        if let request {
            let matching = modes.filter { request.matches($0) }
            guard let best = matching.max(by: { better($1, than: $0) }) else {
                throw .modeNotFound(requested: request, connector: connector.name, available: modes)
            }
            return best
        }
        if let preferred = modes.first(where: \.isPreferred) { return preferred }
        guard let largest = modes.max(by: { larger($1, than: $0) }) else {
            throw .connectorWithoutModes(connector)
        }
        return largest
    }

    /// Among modes of one size: preferred first, then the higher refresh.
    private static func better(_ a: DisplayMode, than b: DisplayMode) -> Bool {
        if a.isPreferred != b.isPreferred { return a.isPreferred }
        return a.refreshMillihertz > b.refreshMillihertz
    }

    private static func larger(_ a: DisplayMode, than b: DisplayMode) -> Bool {
        let areaA = a.width * a.height
        let areaB = b.width * b.height
        if areaA != areaB { return areaA > areaB }
        return a.refreshMillihertz > b.refreshMillihertz
    }

    /// The CRTC driving the connector now, else the first one it can use.
    public static func chooseCRTC(for connector: Connector, among crtcs: [CRTC]) -> CRTC? {
        if let current = connector.currentCRTC, let crtc = crtcs.first(where: { $0.id == current }),
            connector.possibleCRTCIndexes.isEmpty || connector.possibleCRTCIndexes.contains(crtc.index)
        {
            return crtc
        }
        // A free CRTC before one that lights another display (which taking would turn off).
        let possible = crtcs.filter { connector.possibleCRTCIndexes.contains($0.index) }
        return possible.first { $0.framebuffer == 0 && $0.mode == nil } ?? possible.first
    }

    /// The primary plane that can feed the CRTC of `crtcIndex`.
    public static func choosePrimaryPlane(_ planes: [Plane], crtcIndex: Int) -> Plane? {
        planes.first { $0.kind == .primary && $0.canDrive(crtcIndex: crtcIndex) }
    }

    /// The requested format if offered; else XRGB8888 where offered, else RGB565. Without a plane
    /// list (`offered` nil) every driver takes XRGB8888 dumb buffers, and the request is trusted.
    public static func chooseFormat(offered: [UInt32]?, requested: PixelFormat?) throws(DisplayError) -> PixelFormat {
        guard let offered else { return requested ?? .xrgb8888 }
        if let requested {
            guard offered.contains(requested.fourCC) else {
                throw .formatNotOffered(requested: requested, offered: offered)
            }
            return requested
        }
        for format in [PixelFormat.xrgb8888, .rgb565] where offered.contains(format.fourCC) { return format }
        throw .noUsableFormat(offered: offered)
    }
}
