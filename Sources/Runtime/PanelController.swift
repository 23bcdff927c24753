import Backlight
import Controls
import DeviceLogic
import Input
import Platform
import Raster
import Screens

/// The runtime of the device's logic (`DeviceState`, a value) in the session's poll loop: what is
/// read from the input devices, the data and the refresh commands, and when the wall clock is set,
/// handed to it as events in order; the effects it answers with carried out on what this owns (the
/// backlight, the input hub, the refresh commands, the data, the log); its deadlines and the
/// sources' joined.
public final class PanelController: SceneSource {
    /// The decisions: navigation, idle, the light, the cycle, the hint, the screens.
    public private(set) var device: DeviceState
    private var hub: InputHub?
    private var data: any DataSource
    private var refresher: Refresher?
    /// The panel's light (nil: none, or given up when it could not be set).
    public private(set) var backlight: (any PanelLight)?
    /// Input handed in without a device to read it from (the session tests' made-up events),
    /// taken at the next turn as if the hub had read it.
    var queuedInput: [(events: [InputEvent], device: DeviceDescription, name: String)] = []
    /// Wakes the loop when the wall clock is set, for today and midnight to be asked again.
    private let clockChanges: ClockChangeWatcher?
    private let log: (String) -> Void

    init(device: DeviceState, data: any DataSource, watchClockChanges: Bool, now: Duration, log: @escaping (String) -> Void) {
        self.device = device
        self.data = data
        self.log = log
        if watchClockChanges {
            do {
                clockChanges = try ClockChangeWatcher()
            } catch {
                log("\(error); a change of the clock shows at the next midnight or input")
                clockChanges = nil
            }
        } else {
            clockChanges = nil
        }
        send(.started, now: now)
    }

    /// Hands `event` to the device and carries out what it asks; true when the picture changes.
    @discardableResult
    public func send(_ event: DeviceEvent, now: Duration) -> Bool {
        carryOut(device.handle(event, at: now), now: now)
    }

    /// Does what a command asks (as input would); true when the picture changes.
    @discardableResult
    public func perform(_ command: Command, now: Duration) -> Bool { send(.command(command), now: now) }

    /// The device's effects carried out in order; true when the picture changes.
    private func carryOut(_ effects: [DeviceEffect], now: Duration) -> Bool {
        var changed = false
        for effect in effects {
            switch effect {
            case .redraw: changed = true
            case .setBacklight(let level):
                guard let light = backlight, let problem = light.set(level: level) else { break }
                // Given up: the picture is dimmed instead.
                backlight = nil
                if send(.backlightFailed(problem), now: now) { changed = true }
            case .restoreBacklight: backlight?.restore()
            case .grabInput(let grab): hub?.setGrabbing(grab)
            case .startRefresh:
                guard let refresher else { break }
                if refresher.start(now: now) { changed = true }
                send(.refreshShown(refresher.shownState), now: now)
            case .refreshData: if data.refresh(now: now) { changed = true }
            case .cancelTask: data.cancelTask()
            case .showGauges(let shown, let answer):
                if data.showGauges(shown, now: now), answer, send(.gaugesRead, now: now) { changed = true }
            case .keep(let values): data.keep(values.map { ($0.name, $0.value) })
            case .log(let line): log(line)
            case .messageEnded(let end):
                // (Kept for the control socket; a panel without one keeps the last few.)
                messageEnds.append(end)
                if messageEnds.count > 16 { messageEnds.removeFirst() }
            }
        }
        return changed
    }

    /// Messages that went since the control socket's watchers were told (`takeMessageEnds`).
    private var messageEnds: [MessageEnd] = []

    /// The messages that went since the last call, and why, in order: the control socket tells
    /// its watchers.
    public func takeMessageEnds() -> [MessageEnd] {
        defer { messageEnds = [] }
        return messageEnds
    }

    /// The refresh commands (the configuration's "refresh"): run by this loop, shown by the device.
    public var refreshCommands: Refresher? { refresher }

    /// The refresh commands from now on (nil: none), without input devices of their own (the tests').
    public func use(refresher: Refresher?, now: Duration = monotonicNow()) {
        self.refresher = refresher
        send(.refreshShown(refresher?.shownState), now: now)
    }

    // The sources of events besides the input devices and the clock: the data, and the refresh
    // commands while they run. Asked before every sleep, each frame while animating: no arrays
    // of sources built to ask them.

    public var descriptors: [FileDescriptor] {
        var descriptors = data.descriptors
        if let hub { descriptors += hub.descriptors }
        if let refresher { descriptors += refresher.descriptors }
        if let clockChanges { descriptors.append(clockChanges.descriptor) }
        return descriptors
    }

    public func nextDeadline(now: Duration) -> Duration? {
        let next = earliest(Self.inPlace(&device) { $0.pointee.nextDeadline(now: now) }, data.nextDeadline(now: now))
        guard let refresher else { return next }
        return earliest(next, refresher.nextDeadline(now: now))
    }

    public func handle(ready: [FileDescriptor], now: Duration) -> Bool {
        var changed = false
        let screenBefore = device.navigation.screen
        if let hub {
            let (deviceChanges, batches) = hub.handle(ready)
            for change in deviceChanges {
                switch change {
                case .removed(let path): send(.inputRemoved(path: path), now: now)
                case .added(let added): send(.inputAdded(Self.description(added)), now: now)
                }
            }
            for batch in batches where send(.input(batch.events, from: Self.description(batch.device), name: batch.device.name), now: now) {
                changed = true
            }
        }
        for (events, description, name) in queuedInput where send(.input(events, from: description, name: name), now: now) {
            changed = true
        }
        queuedInput = []
        if send(.tick, now: now) { changed = true }
        if let refresher, refresher.handle(ready: ready, now: now) {
            changed = true
            send(.refreshChanged(refresher.shownState), now: now)
        }
        if data.handle(ready: ready, now: now) {
            changed = true
            send(.dataChanged, now: now)
        }
        if let clockChanges, ready.contains(clockChanges.descriptor), clockChanges.acknowledge() { send(.clockWasSet, now: now) }
        if send(.update(screenBefore: screenBefore), now: now) { changed = true }
        return changed
    }

    private static func description(_ device: EvdevDevice) -> DeviceDescription {
        DeviceDescription(path: device.path, capabilities: device.capabilities)
    }

    /// The scene to draw now, shown: the device's `scene(at:)` and `.frameShown` in one.
    public func scene(now: Duration) -> any Scene { device.showFrame(at: now) }
    public var blanked: Bool { device.blankedInPlace() }

    /// `body` on the device where it is: a non-mutating call on the struct this class keeps
    /// copies the whole of it first (about 840 instructions, each turn of the loop); through its
    /// address nothing is copied.
    @inline(__always)
    private static func inPlace<T>(_ device: inout DeviceState, _ body: (UnsafeMutablePointer<DeviceState>) -> T) -> T {
        withUnsafeMutablePointer(to: &device) { body($0) }
    }
    public var endReason: String? { restartAsked ?? data.endReason }
    /// Whether something starts the app again when it ends (systemd: `glance run` as the service);
    /// a `restart` is refused where nothing would.
    public var restartable = false
    /// Why the app ends for a restart (nil: none asked).
    var restartAsked: String?
    public func displayReleased(now: Duration) { send(.displayReleased, now: now) }
    public func displayRetaken(now: Duration) { send(.displayRetaken, now: now) }
    public func sceneClockRestarted(at time: Duration) { send(.sceneClockRestarted, now: time) }

    /// Input from `hub` from now on, and the refresh control that goes with it: `glance run` opens
    /// the input devices once its first frame is on the panel (none is needed to draw it).
    public func use(input hub: InputHub, refresher: Refresher?, now: Duration = monotonicNow()) {
        self.hub = hub
        self.refresher = refresher
        send(.inputOpened(hub.devices.map(Self.description), refresh: refresher?.shownState), now: now)
    }

    /// The panel's light found at start (nil: none) and the configured awake brightness: `glance
    /// run` finds it once the assembly is made. Put back by `backlight?.restore()` at the end.
    public func use(backlight light: (any PanelLight)?, brightness: Double?, now: Duration = monotonicNow()) {
        backlight = light
        send(.light(light?.info, configured: brightness), now: now)
    }

    /// A new configuration in place (a reload): see `DeviceEvent.reconfigure`.
    public func reconfigure(
        screens: [ScreenKind], maker: ScreenMaker, data: any DataSource, hub: InputHub?, router: InputRouter, idle: IdleSchedule,
        cycle: ScreenCycle?, schedule: Schedule = Schedule(), refresher: Refresher?, brightness: Double?, now: Duration
    ) {
        let newInput = hub !== self.hub
        self.hub = hub
        self.data = data
        self.refresher = refresher
        send(
            .reconfigure(
                DeviceSetup(
                    screens: screens, maker: maker, data: data, router: router, idle: idle, cycle: cycle, schedule: schedule,
                    refresh: refresher?.shownState, input: hub.map { $0.devices.map(Self.description) }, newInput: newInput,
                    brightness: brightness)),
            now: now)
    }

    /// Puts `change` of what the schedule has in force in its place until the schedule's next
    /// boundary (a Home Assistant command): see `DeviceEvent.overrideSchedule`. True when the
    /// picture changes; the session draws it in the same turn when called from the loop before
    /// `handle` (the control socket's turn), else at the next.
    @discardableResult
    public func overrideSchedule(now: Duration = monotonicNow(), _ change: @escaping (inout ScheduledState) -> Void) -> Bool {
        send(.overrideSchedule(change), now: now)
    }

    /// A request from the control socket (`PanelRemote`'s events); true when the picture changes.
    public func perform(_ request: PanelRequest, now: Duration) -> Result<Bool, PanelRefusal> {
        if request == .restart {
            guard restartable else {
                return .failure(PanelRefusal("this glance is not run by systemd: nothing would start it again (systemctl restart glance)"))
            }
            restartAsked = "restart asked on the control socket: ending for systemd to start glance again"
            return .success(false)
        }
        return PanelRemote.perform(request, on: device, now: now) { send($0, now: now) }
    }

    /// The state as the control socket tells it.
    public func state(now: Duration, wallNow: Double) -> PanelState { PanelRemote.state(of: device, now: now, wallNow: wallNow) }

    /// What the panel is, as the control socket tells it: `output`'s picture (the session's) and
    /// the viewing the screens are drawn for.
    public func facts(_ output: Session.OutputFacts) -> PanelFacts {
        PanelRemote.facts(
            of: device, picture: output.picture, rotation: output.rotation, connector: output.connector, format: output.format)
    }

    // What the session's users read of the device.
    public var navigation: Navigation { device.navigation }
    public var lastChange: Change { device.lastChange }
}

extension Refresher {
    /// What the refresh control shows, as the device's state has it.
    public var shownState: RefreshState {
        switch state {
        case .idle: .idle
        case .running: .running
        case .failed(let until): .failed(until: until)
        }
    }
}

extension Backlight: PanelLight {
    public func set(level: Int) -> String? { set(value: level) ? nil : Errno.current.description }
}
