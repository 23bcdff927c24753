import Backlight
import Controls
import DeviceLogic
import Input
import Platform
import Raster
import Screens

/// The device's logic (`DeviceController`, pure) in the session's poll loop: what is read from
/// the input devices, the data and the refresh commands, and when the wall clock is set, handed
/// to it in order; its deadlines and the sources' joined.
public final class PanelController: SceneSource {
    /// The decisions: navigation, idle, the light, the cycle, the hint, the screens.
    public let device: DeviceController
    private var hub: InputHub?
    private var data: any DataSource
    private var refresher: Refresher?
    /// Input handed in without a device to read it from (the session tests' made-up events),
    /// taken at the next turn as if the hub had read it.
    var queuedInput: [(events: [InputEvent], device: DeviceDescription, name: String)] = []
    /// Wakes the loop when the wall clock is set, for today and midnight to be asked again.
    private let clockChanges: ClockChangeWatcher?

    init(device: DeviceController, data: any DataSource, watchClockChanges: Bool, log: (String) -> Void) {
        self.device = device
        self.data = data
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
    }

    /// The refresh commands (the configuration's "refresh"): run by this loop, shown by the device.
    public var refreshCommands: Refresher? {
        get { refresher }
        set {
            refresher = newValue
            device.refresher = newValue
        }
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
        let next = earliest(device.nextDeadline(now: now), data.nextDeadline(now: now))
        guard let refresher else { return next }
        return earliest(next, refresher.nextDeadline(now: now))
    }

    public func handle(ready: [FileDescriptor], now: Duration) -> Bool {
        var changed = false
        let screenBefore = device.navigation.screen
        if let hub {
            let (deviceChanges, batches) = hub.handle(ready)
            for change in deviceChanges {
                if case .removed(let path) = change { device.removed(device: path) }
            }
            for batch in batches {
                let description = DeviceDescription(path: batch.device.path, capabilities: batch.device.capabilities)
                if device.feed(batch.events, from: description, name: batch.device.name, now: now) { changed = true }
            }
        }
        for (events, description, name) in queuedInput where device.feed(events, from: description, name: name, now: now) {
            changed = true
        }
        queuedInput = []
        if device.tick(now: now) { changed = true }
        if let refresher, refresher.handle(ready: ready, now: now) {
            changed = true
            device.refreshChanged()
        }
        if data.handle(ready: ready, now: now) {
            changed = true
            device.dataChanged(now: now)
        }
        if let clockChanges, ready.contains(clockChanges.descriptor), clockChanges.acknowledge() { device.clockWasSet(now: now) }
        if device.update(now: now, screenBefore: screenBefore) { changed = true }
        return changed
    }

    public func scene(now: Duration) -> any Scene { device.scene(now: now) }
    public var blanked: Bool { device.blanked }
    public var endReason: String? { data.endReason }
    public func displayReleased(now: Duration) { device.displayReleased(now: now) }
    public func displayRetaken(now: Duration) { device.displayRetaken(now: now) }
    public func sceneClockRestarted(at time: Duration) { device.sceneClockRestarted(at: time) }

    /// Input from `hub` from now on, and the refresh control that goes with it: `glance run` opens
    /// the input devices once its first frame is on the panel (none is needed to draw it).
    public func use(input hub: InputHub, refresher: Refresher?, now: Duration = monotonicNow()) {
        self.hub = hub
        self.refresher = refresher
        device.use(input: hub, refresher: refresher, now: now)
    }

    /// A new configuration in place (a reload): see `DeviceController.reconfigure`.
    public func reconfigure(
        screens: [ScreenKind], maker: ScreenMaker, data: any DataSource, hub: InputHub?, router: InputRouter, idle: IdleSchedule,
        cycle: ScreenCycle?, schedule: Schedule = Schedule(), refresher: Refresher?, brightness: Double?, now: Duration
    ) {
        self.hub = hub
        self.data = data
        self.refresher = refresher
        device.reconfigure(
            screens: screens, maker: maker, data: data, input: hub, router: router, idle: idle, cycle: cycle,
            schedule: schedule, refresher: refresher, brightness: brightness, now: now)
    }

    /// Puts `change` of what the schedule has in force in its place until the schedule's next
    /// boundary (a Home Assistant command): see `DeviceController.overrideSchedule`. True when the
    /// picture changes; the session draws it in the same turn when called from the loop before
    /// `handle` (the control socket's turn), else at the next.
    @discardableResult
    public func overrideSchedule(now: Duration = monotonicNow(), _ change: (inout ScheduledState) -> Void) -> Bool {
        device.overrideSchedule(now: now, change)
    }

    // What the session's users read of the device.
    public var navigation: Navigation { device.navigation }
    public var lastChange: Change { device.lastChange }
}

extension InputHub: InputDevices {
    public var openDevices: [(path: String, capabilities: InputCapabilities)] { devices.map { ($0.path, $0.capabilities) } }
}

extension Refresher: RefreshCommands {
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
