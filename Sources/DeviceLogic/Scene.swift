import Activity
import Screens

/// What the display shows over time: the screen for a moment, and whether a later frame differs.
public protocol Scene {
    /// The screen at `time` since the scene started; `animating` says a later frame will differ.
    func frame(at time: Duration) -> (screen: any Screen, animating: Bool)
}

/// A screen as it is: it animates when the screen says so (a spinner), else it is still.
public struct ScreenScene: Scene {
    public var screen: any Screen
    public init(_ screen: any Screen) { self.screen = screen }
    public func frame(at time: Duration) -> (screen: any Screen, animating: Bool) { (screen, screen.animates) }
}

/// The rings filling from nothing to the day's values, easing out, as on the watch when it wakes.
///
/// `makeScreen` draws a day (the ring screen with its labels, or the rings alone); the scene
/// hands it the day with every value scaled, then the day itself, and stops animating.
public struct RingIntroScene: Scene {
    public var summary: ActivitySummary?
    public var duration: Duration
    public var makeScreen: (ActivitySummary?) -> any Screen

    /// How long the rings take to fill (the watch's, about).
    public static let standardDuration = Duration.milliseconds(900)

    public init(
        summary: ActivitySummary?, duration: Duration = standardDuration,
        makeScreen: @escaping (ActivitySummary?) -> any Screen
    ) {
        self.summary = summary
        self.duration = duration
        self.makeScreen = makeScreen
    }

    public func frame(at time: Duration) -> (screen: any Screen, animating: Bool) { frame(atSeconds: time.inSeconds) }

    /// The frame `seconds` after the first: a session reports its frames' times in seconds, and
    /// `glance render --intro --time SECONDS` draws the same frame from the same number.
    public func frame(atSeconds seconds: Double) -> (screen: any Screen, animating: Bool) {
        let length = duration.inSeconds
        let t = length > 0 ? min(max(seconds / length, 0), 1) : 1
        guard t < 1 else { return (makeScreen(summary), false) }
        return (makeScreen(Self.scaled(summary, by: Self.easeOut(t))), true)
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
        s.steps = s.steps.map { $0 * factor }
        s.exerciseTime = s.exerciseTime.map { $0 * factor }
        s.standHours = s.standHours.map { $0 * factor }
        return s
    }
}
