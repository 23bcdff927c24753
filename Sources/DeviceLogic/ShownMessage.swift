/// The message on the panel (`DeviceState.message`): what it says, and from when until when (the
/// monotonic clock) it shows without a press.
public struct ShownMessage: Sendable, Equatable {
    public var text: String
    public var since: Duration
    public var until: Duration

    public init(text: String, since: Duration, until: Duration) {
        self.text = text
        self.since = since
        self.until = until
    }
}
