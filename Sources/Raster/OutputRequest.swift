/// What the configuration asks of the display; nil fields are chosen from what the card offers.
public struct OutputRequest: Sendable, Equatable {
    /// A card path such as /dev/dri/card1; nil tries every card in order.
    public var card: String?
    /// A connector name such as HDMI-A-1 or DSI-1; nil takes the first connected one.
    public var connector: String?
    /// nil takes the connector's preferred mode (else its largest).
    public var mode: ModeRequest?
    /// nil takes XRGB8888 where the plane offers it, else RGB565.
    public var format: PixelFormat?
    /// Use SetCrtc + PageFlip even where the driver offers atomic modesetting.
    public var forceLegacy: Bool

    public init(
        card: String? = nil, connector: String? = nil, mode: ModeRequest? = nil, format: PixelFormat? = nil,
        forceLegacy: Bool = false
    ) {
        self.card = card
        self.connector = connector
        self.mode = mode
        self.format = format
        self.forceLegacy = forceLegacy
    }
}
