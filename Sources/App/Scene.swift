import Activity
import Screens

/// What the display shows over time: the screen for a moment, and whether it still moves after it.
public protocol Scene {
    /// The screen at `time` since the scene started; `animating` says a later frame will differ.
    func frame(at time: Duration) -> (screen: any Screen, animating: Bool)
}

/// A screen that does not move.
public struct StillScene: Scene {
    public var screen: any Screen
    public init(_ screen: any Screen) { self.screen = screen }
    public func frame(at time: Duration) -> (screen: any Screen, animating: Bool) { (screen, false) }
}

/// The rings filling from nothing to the day's values, easing out, as on the watch when it wakes.
public struct RingIntroScene: Scene {
    public var summary: ActivitySummary?
    public var duration: Duration

    public init(summary: ActivitySummary?, duration: Duration = .milliseconds(900)) {
        self.summary = summary
        self.duration = duration
    }

    public func frame(at time: Duration) -> (screen: any Screen, animating: Bool) {
        let t = duration > .zero ? min(max(time / duration, 0), 1) : 1
        guard t < 1 else { return (RingScreen(summary: summary), false) }
        return (RingScreen(summary: Self.scaled(summary, by: Self.easeOut(t))), true)
    }

    /// Cubic ease-out: fast at first, settling at 1.
    public static func easeOut(_ t: Double) -> Double {
        let u = 1 - t
        return 1 - u * u * u
    }

    /// The summary with every value (not goal) multiplied by `factor`.
    public static func scaled(_ summary: ActivitySummary?, by factor: Double) -> ActivitySummary? {
        guard var s = summary else { return nil }
        s.activeEnergyBurned = s.activeEnergyBurned.map { Energy($0.value * factor, $0.unit) }
        s.moveTime = s.moveTime.map { $0 * factor }
        s.exerciseTime = s.exerciseTime.map { $0 * factor }
        s.standHours = s.standHours.map { $0 * factor }
        return s
    }
}
