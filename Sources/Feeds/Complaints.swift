/// What is logged of one source's problems (a gauge's, an MQTT topic's, the panel's refusals): a
/// problem once (the same again is not repeated); another within a minute of the last line
/// counted, not logged, and said with the next line. Pure: the caller says when.
public struct Complaints: Sendable {
    var said: String?
    var saidAt: Duration?
    var unsaid = 0

    public init() {}

    /// The line to log for `message` at `now` (monotonic), or nil when it is not to be logged.
    public mutating func line(_ message: String, now: Duration) -> String? {
        guard message != said else { return nil }
        if let saidAt, now - saidAt < .seconds(60) {
            unsaid += 1
            return nil
        }
        defer {
            said = message
            saidAt = now
            unsaid = 0
        }
        return unsaid > 0 ? "\(message) (and \(unsaid) other problem\(unsaid == 1 ? "" : "s") in the last minute, not logged)" : message
    }
}
