import Controls

/// The home's commands on the device (`PanelRequest`s but the socket's own), and its state.
public final class PanelRemote {
    public let device: DeviceController
    /// The configured cycle while a command has turned it off.
    private var pausedCycle: ScreenCycle?

    public init(device: DeviceController) { self.device = device }

    /// Does what `request` asks; true when the picture changes. Each command counts as input:
    /// the panel wakes (as from the idle times; the light turned off stays off).
    public func perform(_ request: PanelRequest, now: Duration) -> Result<Bool, PanelRefusal> {
        switch request {
        case .screenshot, .state, .watch:
            return .failure(PanelRefusal("\(request.text) is the socket's, not a command"))
        case .show(let kind):
            guard device.screens.contains(kind) else {
                return .failure(PanelRefusal("\(kind.rawValue) is not one of the configured screens (\(names(device.screens)))"))
            }
            guard device.available(now: now).contains(kind) else {
                return .failure(PanelRefusal("\(kind.rawValue) has nothing to show now"))
            }
            return woken(now) { device.show(screen: kind, now: now) }
        case .next: return woken(now) { device.perform(.action(.nextScreen), now: now) }
        case .today: return woken(now) { device.perform(.action(.today), now: now) }
        case .refresh: return woken(now) { device.perform(.action(.refresh), now: now) }
        case .cycle(let on):
            if on {
                guard let paused = pausedCycle ?? device.cycle else {
                    return .failure(PanelRefusal("no cycle is configured (\"cycle\": {\"every\": SECONDS})"))
                }
                var cycle = paused
                if device.cycle == nil { cycle.shown(at: now) }
                device.cycle = cycle
                pausedCycle = nil
            } else if let cycle = device.cycle {
                pausedCycle = cycle
                device.cycle = nil
            }
            return .success(false)
        case .light(let on):
            // With a schedule, the command holds until its next boundary, as the issue has Home
            // Assistant's commands do (a window that darkens is lifted; off is a brightness of 0);
            // without one, off lasts until a command or a touch wakes the panel.
            if on {
                return woken(now) {
                    device.scheduleDarkens ? device.overrideSchedule(now: now) { $0.brightness = nil } : false
                }
            }
            // (overrideSchedule logs what it sets and until when.)
            if !device.hours.windows.isEmpty { return .success(device.overrideSchedule(now: now) { $0.brightness = 0 }) }
            guard !device.darkened else { return .success(false) }
            device.darkened = true
            device.log("light turned off by a command")
            return .success(true)
        case .brightness(let percent):
            return woken(now) { device.setBrightness(Double(percent) / 100, now: now) }
        }
    }

    /// `body` done on a woken panel: true when either changed the picture.
    private func woken(_ now: Duration, _ body: () -> Bool) -> Result<Bool, PanelRefusal> {
        let wasDark = device.idle != .awake || device.darkened
        device.wake(now: now)
        let changed = body()
        return .success(changed || wasDark)
    }

    private func names(_ screens: [ScreenKind]) -> String { screens.map(\.rawValue).joined(separator: ", ") }

    /// The state at `now` (the monotonic clock) and `wallNow` (seconds since 1970, the same
    /// moment).
    public func state(now: Duration, wallNow: Double) -> PanelState {
        let lit: Bool
        switch device.idle {
        case .blank: lit = false
        default: lit = !device.darkened && (device.scheduled.brightness ?? 1) > 0
        }
        return PanelState(
            screen: device.navigation.screen, screens: device.screens,
            cycle: device.cycle != nil ? true : pausedCycle != nil ? false : nil, light: lit,
            brightness: Int((device.awakeBrightness * 100).rounded()), dimmable: (device.backlight?.maximum ?? 2) > 1,
            touched: device.lastActivity.map { Int64((wallNow - (now - $0).inSeconds).rounded(.down)) })
    }
}
