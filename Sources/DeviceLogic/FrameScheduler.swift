/// Decides when to draw: only when something changed, at most one frame per `interval` while
/// something animates, never while a flip is pending, and not at all (no wake-ups) when idle.
///
/// Pure: the loop tells it what happened and asks what to do; the timer does the waiting.
public struct FrameScheduler: Sendable {
    /// The shortest time between two frames (the mode's refresh period, paced by a timer because
    /// virtual and many small panels give no vblank).
    public let interval: Duration
    /// Something changed that is not on screen yet.
    public private(set) var wantsFrame = true
    /// The last frame drawn said the picture still moves.
    public private(set) var animating = false
    private var lastDraw: Duration?

    public init(interval: Duration) { self.interval = interval }

    public enum Decision: Equatable, Sendable {
        /// Draw a frame now.
        case draw
        /// Sleep until the deadline (nil: until an event; no timer).
        case wait(until: Duration?)
    }

    /// What to do at `now`.
    public func decide(now: Duration, flipPending: Bool) -> Decision {
        guard wantsFrame else { return .wait(until: nil) }
        // The flip event wakes the loop; the next frame is drawn when it has come.
        if flipPending { return .wait(until: nil) }
        guard let lastDraw else { return .draw }
        let due = lastDraw + interval
        return now >= due ? .draw : .wait(until: due)
    }

    /// A frame was drawn at `now`; `animating`: the scene will look different later.
    public mutating func drew(at now: Duration, animating: Bool) {
        lastDraw = now
        self.animating = animating
        wantsFrame = animating
    }

    /// Something outside the scene changed (input, new data): draw again.
    public mutating func invalidate() { wantsFrame = true }
}
