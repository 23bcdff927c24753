import Activity
import Controls
import Raster
import Screens

@testable import DeviceLogic

/// The device's state driven as the runtime drives it (App's `PanelController`), with no
/// operating system: each event handed to `DeviceState.handle`, every effect it answers with
/// recorded in order, and carried out on the tests' own fakes where there is one (a light that
/// records the levels it is set to, or refuses; the tests' data, which keeps values and takes the
/// Cancel). Reads go straight to the state (`device.idle`, `device.navigation`).
@dynamicMemberLookup
final class TestDevice {
    private(set) var state: DeviceState
    /// Every effect so far, in order.
    private(set) var effects: [DeviceEffect] = []
    /// Where `.keep` and `.cancelTask` are carried out (nil: only recorded).
    let data: DeviceLogicTests.Data?
    /// The light the backlight effects are carried out on (nil: none, or given up).
    private(set) var lamp: DeviceLogicTests.Light?

    init(_ state: DeviceState, data: DeviceLogicTests.Data? = nil) {
        self.state = state
        self.data = data
    }

    subscript<T>(dynamicMember path: KeyPath<DeviceState, T>) -> T { state[keyPath: path] }

    /// Hands `event` to the device and carries out what it asks; true when the picture changes.
    @discardableResult
    func send(_ event: DeviceEvent, at now: Duration) -> Bool {
        let answer = state.handle(event, at: now)
        effects += answer
        var changed = answer.contains(.redraw)
        for effect in answer {
            switch effect {
            case .setBacklight(let level):
                guard let lamp else { break }
                if lamp.refuse {
                    self.lamp = nil
                    if send(.backlightFailed("Permission denied"), at: now) { changed = true }
                } else {
                    lamp.levels.append(level)
                }
            case .restoreBacklight: lamp?.restore()
            case .keep(let values): for v in values { data?.kept[v.name] = v.value }
            case .cancelTask: data?.cancelled = true
            default: break
            }
        }
        return changed
    }

    /// The log lines the device asked for, in order.
    var lines: [String] { effects.compactMap { if case .log(let line) = $0 { line } else { nil } } }

    /// The effects since `count` of them.
    func effects(since count: Int) -> ArraySlice<DeviceEffect> { effects[count...] }

    // The events as the runtime sends them.

    /// The panel's light found (nil: none) and the configured brightness.
    func use(_ light: DeviceLogicTests.Light?, configured: Double?, now: Duration) {
        lamp = light
        send(.light(light?.info, configured: configured), at: now)
    }

    /// Time passing to `now` with nothing else happening: long presses, then what time does.
    @discardableResult
    func advance(to now: Duration) -> Bool {
        let before = state.navigation.screen
        let ticked = send(.tick, at: now)
        return send(.update(screenBefore: before), at: now) || ticked
    }

    @discardableResult
    func update(now: Duration) -> Bool { send(.update(screenBefore: nil), at: now) }

    @discardableResult
    func feed(_ events: [InputEvent], from device: DeviceDescription, name: String, now: Duration) -> Bool {
        send(.input(events, from: device, name: name), at: now)
    }

    @discardableResult
    func perform(_ command: Command, now: Duration) -> Bool { send(.command(command), at: now) }

    func dataChanged(now: Duration) { send(.dataChanged, at: now) }
    func displayReleased(now: Duration) { send(.displayReleased, at: now) }
    func displayRetaken(now: Duration) { send(.displayRetaken, at: now) }
    func clockWasSet(now: Duration) { send(.clockWasSet, at: now) }
    func follow(_ schedule: Schedule, now: Duration) { send(.follow(schedule), at: now) }

    @discardableResult
    func overrideSchedule(now: Duration, _ change: @escaping (inout ScheduledState) -> Void) -> Bool {
        send(.overrideSchedule(change), at: now)
    }

    /// A control-socket request, as the runtime does it: `PanelRemote`'s events, each handed over.
    func request(_ request: PanelRequest, now: Duration) -> Result<Bool, PanelRefusal> {
        PanelRemote.perform(request, on: state, now: now) { send($0, at: now) }
    }

    func panelState(now: Duration, wallNow: Double) -> PanelState { PanelRemote.state(of: state, now: now, wallNow: wallNow) }

    /// The scene drawn at `now`, and shown (`.frameShown`), as the session does it.
    func scene(now: Duration) -> any Scene {
        let scene = state.scene(at: now)
        send(.frameShown, at: now)
        return scene
    }

    // What the state answers, asked through.
    func nextDeadline(now: Duration) -> Duration? { state.nextDeadline(now: now) }
    func available(now: Duration) -> [ScreenKind] { state.available(now: now) }
    func pageCount(of kind: ScreenKind, now: Duration) -> Int { state.pageCount(of: kind, now: now) }
    func cancelButton(_ task: ProgressContent) -> Rect? { state.cancelButton(task) }
}
