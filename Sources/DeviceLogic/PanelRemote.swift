import Controls
import Raster
import Screens

/// The home's commands on the device (`PanelRequest`s but the socket's own) as the device's
/// events, and its state as the socket tells it. Pure: the runtime hands the events to the device.
public enum PanelRemote {
    /// What `request` asks of `device` at `now`, as events in order, or why it is refused. Each
    /// command counts as input: the panel wakes first (as from the idle times; the light turned
    /// off stays off).
    public static func events(for request: PanelRequest, on device: DeviceState, now: Duration) -> Result<[DeviceEvent], PanelRefusal> {
        switch request {
        case .screenshot, .state, .watch, .panel:
            return .failure(PanelRefusal("\(request.text) is the socket's, not a command"))
        case .restart, .reload:
            return .failure(PanelRefusal("\(request.text) is the app's, not the device's"))
        case .show(let kind):
            guard device.screens.contains(kind) else {
                return .failure(PanelRefusal("\(kind.rawValue) is not one of the configured screens (\(names(device.screens)))"))
            }
            guard device.available(now: now).contains(kind) else {
                return .failure(PanelRefusal("\(kind.rawValue) has nothing to show now"))
            }
            return .success([.wake, .show(kind)])
        case .next: return .success([.wake, .command(.action(.nextScreen))])
        case .today: return .success([.wake, .command(.action(.today))])
        case .refresh: return .success([.wake, .command(.action(.refresh))])
        case .cycle(let on):
            if on, device.pausedCycle == nil, device.cycle == nil {
                return .failure(PanelRefusal("no cycle is configured (\"cycle\": {\"every\": SECONDS})"))
            }
            return .success([.cycle(on: on)])
        case .light(let on):
            // With a schedule, the command holds until its next boundary, as the issue has Home
            // Assistant's commands do (a window that darkens is lifted; off is a brightness of 0);
            // without one, off lasts until a command or a touch wakes the panel.
            if on { return .success([.wake, .lightOn]) }
            // (The override logs what it sets and until when.)
            if !device.hours.windows.isEmpty { return .success([.overrideSchedule { $0.brightness = 0 }]) }
            return .success([.darken])
        case .brightness(let percent):
            return .success([.wake, .brightness(Double(percent) / 100)])
        case .dim(let seconds):
            // As the file has it: the panel blanks no sooner than it dims.
            let blank = device.idleSchedule.blankAfter
            if seconds > 0, let blank, Double(seconds) > blank {
                return .failure(PanelRefusal("dim \(seconds): after the blank time (\(wholeSeconds(blank)) s); set blank first"))
            }
            return .success([.wake, .idleTimes(dimAfter: seconds == 0 ? nil : Double(seconds), blankAfter: blank)])
        case .blank(let seconds):
            let dim = device.idleSchedule.dimAfter
            if seconds > 0, let dim, Double(seconds) < dim {
                return .failure(PanelRefusal("blank \(seconds): before the dim time (\(wholeSeconds(dim)) s); set dim first"))
            }
            return .success([.wake, .idleTimes(dimAfter: dim, blankAfter: seconds == 0 ? nil : Double(seconds))])
        case .message(let message):
            // No wake: the message lights the panel while it shows, and leaves it as it was
            // (dark again, if it was) when it goes by itself (`DeviceState.showMessage`).
            return .success([.message(message)])
        case .qrCode(let code):
            // As a message: lit while it shows.
            return .success([.qrCode(code)])
        }
    }

    /// `request` done through `send` (the runtime's: each event handed to the device and its
    /// effects carried out, true when the picture changes); true when the picture changes.
    public static func perform(
        _ request: PanelRequest, on device: DeviceState, now: Duration, send: (DeviceEvent) -> Bool
    ) -> Result<Bool, PanelRefusal> {
        events(for: request, on: device, now: now).map { events in
            var changed = false
            for event in events where send(event) { changed = true }
            return changed
        }
    }

    private static func names(_ screens: [ScreenKind]) -> String { screens.map(\.rawValue).joined(separator: ", ") }

    /// The state of `device` at `now` (the monotonic clock) and `wallNow` (seconds since 1970,
    /// the same moment).
    public static func state(of device: DeviceState, now: Duration, wallNow: Double) -> PanelState {
        let lit: Bool
        switch device.idle {
        case .blank: lit = false
        default: lit = !device.darkened && (device.scheduled.brightness ?? 1) > 0
        }
        return PanelState(
            screen: device.navigation.screen, screens: device.screens,
            cycle: device.cycle != nil ? true : device.pausedCycle != nil ? false : nil, light: lit,
            brightness: Int((device.awakeBrightness * 100).rounded()), dimmable: (device.backlight?.maximum ?? 2) > 1,
            touched: device.lastActivity.map { Int64((wallNow - (now - $0).inSeconds).rounded(.down)) },
            dimAfter: device.idleSchedule.dimAfter.map(wholeSeconds), blankAfter: device.idleSchedule.blankAfter.map(wholeSeconds))
    }

    /// What the panel is, for the socket's `panel`: the picture of `picture` size (upright) turned
    /// by `rotation` onto the panel, the physical size and distance as the device's screens resolve
    /// them (the display's millimetres, the setting, or the usual panel of its pixels), and the
    /// output's `connector` and `format` (nil: an output without one).
    public static func facts(
        of device: DeviceState, picture: Size, rotation: Rotation, connector: String?, format: String?
    ) -> PanelFacts {
        let maker = device.maker
        let viewing = maker.viewing.resolved(for: picture, shape: maker.shape)
        let measured: PanelFacts.Measured
        switch viewing.diagonalSource {
        case .display: measured = .display
        case .setting: measured = .setting
        case .assumed: measured = .assumed
        }
        return PanelFacts(
            width: picture.width, height: picture.height, rotation: rotation, round: maker.shape == .round,
            diagonalTenths: PanelFacts.tenths(viewing.diagonal), measured: measured,
            distance: viewing.distance.isFinite ? Int(min(1e6, max(1, viewing.distance.rounded()))) : 1,
            connector: connector, format: format)
    }

    /// Seconds as the state tells them: whole, at least 1 (a file's 0.5 s is not "never"), at most
    /// 8 digits.
    static func wholeSeconds(_ s: Double) -> Int { Int(min(99_999_999, max(1, s.rounded()))) }
}
