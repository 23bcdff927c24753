import DeviceLogic
import Platform

/// What the session draws from: the scene at a time, whether the panel is blank, and an event
/// source (its descriptors, its deadline; `handle` true: draw again). The panel's is
/// `PanelController` (the device's logic, `DeviceState`, in the poll loop).
public protocol SceneSource: ReadingSource {
    /// The scene to draw at `now` (CLOCK_MONOTONIC).
    func scene(now: Duration) -> any Scene
    /// The panel should be powered down (after drawing black).
    var blanked: Bool { get }
    /// Set when the app should end (its data can no longer be followed): what to tell the person.
    var endReason: String? { get }
    /// The display was given up for another console (VT switch): input and the backlight are
    /// that console's until `displayRetaken`.
    func displayReleased(now: Duration)
    /// The display is the app's again.
    func displayRetaken(now: Duration)
    /// The scene's clock starts again at `time`: the session's first frame was animating and took
    /// longer than a frame to draw and put on screen, so what moves (the intro) is seen from its
    /// start rather than from where the clock had got to meanwhile.
    func sceneClockRestarted(at time: Duration)
}

extension SceneSource {
    public var endReason: String? { nil }
    public func displayReleased(now: Duration) {}
    public func displayRetaken(now: Duration) {}
    public func sceneClockRestarted(at time: Duration) {}
}
