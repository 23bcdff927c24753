import Controls

/// The message on the panel (`DeviceState.message`): what it says, and from when until when (the
/// monotonic clock) it shows without a press; or a phone's QR code shown the same way (`code`, its
/// caption the `text`).
public struct ShownMessage: Sendable, Equatable {
    public var text: String
    public var since: Duration
    public var until: Duration
    /// The QR code shown in place of the text (nil: a message).
    public var code: PanelQRCode?

    public init(text: String, since: Duration, until: Duration, code: PanelQRCode? = nil) {
        self.text = text
        self.since = since
        self.until = until
        self.code = code
    }
}
