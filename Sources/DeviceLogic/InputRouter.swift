import Controls
import Raster

/// What input asks of the app: an action, or a tap the current screen interprets (the Cancel
/// button on the progress screen; elsewhere it selects).
public enum Command: Sendable, Equatable {
    case action(Action)
    /// A key held for the long press, with the action the key map gives it (the progress screen
    /// makes any of them its Cancel).
    case held(Action)
    case tap(Point)
}

/// A device as the router needs it: where it is and what it reports.
public struct DeviceDescription: Sendable, Equatable {
    public var path: String
    public var capabilities: InputCapabilities
    public init(path: String, capabilities: InputCapabilities) {
        self.path = path
        self.capabilities = capabilities
    }
}

/// Turns evdev events from every device into commands: keys through the key map (with long
/// press and repeat rules), touch through calibration (axis ranges, swap/invert, the panel's
/// rotation) and gesture recognition. While the panel sleeps, the first press or touch only
/// wakes it: that key or finger does nothing else until released.
public struct InputRouter {
    public let keyMap: KeyMap
    /// Each device's keys: held keys and long presses are the device's own, so one device going
    /// away forgets nothing of another's.
    private var keys: [String: KeyInterpreter] = [:]
    private let touchSetting: TouchSetting
    private let panel: Size
    private let rotation: Rotation
    private let longPressSeconds: Double
    private var touches: [String: TouchState] = [:]
    /// Keys pressed to wake the panel, by device: ignored until released.
    private var wakingKeys: [String: Set<UInt16>] = [:]

    struct TouchState {
        var decoder: TouchDecoder
        var calibration: TouchCalibration
        var gestures: GestureRecognizer
        /// This contact woke the panel: ignored until lifted.
        var waking = false
    }

    /// What one batch of events did.
    public struct Outcome: Sendable, Equatable {
        public var commands: [Command] = []
        /// A key went down or repeated, a finger touched or moved (the user is there: the panel
        /// does not dim in the middle of holding Right through the days or a long drag).
        public var activity = false
        /// The panel was asleep and this input only woke it.
        public var woke = false
    }

    public init(keyMap: KeyMap, touch: TouchSetting, panel: Size, rotation: Rotation) {
        self.keyMap = keyMap
        touchSetting = touch
        self.panel = panel
        self.rotation = rotation
        longPressSeconds = keyMap.longPressSeconds
    }

    /// The size of the picture taps are points in: the panel's, turned by its rotation.
    public var pictureSize: Size { rotation.logicalSize(forPanel: panel) }

    /// Feeds a device's events; `asleep`: the panel is dimmed or blank.
    public mutating func feed(_ events: [InputEvent], from device: DeviceDescription, asleep: Bool) -> Outcome {
        var outcome = Outcome()
        var sleeping = asleep
        let kinds = device.capabilities.kinds
        let touchKind = kinds.contains(.touchscreen) || kinds.contains(.absolutePointer)
        if touchKind && touches[device.path] == nil, let state = touchState(device) { touches[device.path] = state }
        let touchButtons: Set<UInt16> = [InputEvent.btnTouch, InputEvent.btnLeft]
        for e in events {
            // Touch buttons (BTN_TOUCH, BTN_LEFT, BTN_TOOL_*) of a touch device belong to touch.
            let touchButton = touchKind && (touchButtons.contains(e.code) || (0x140..<0x150).contains(e.code))
            if e.type == InputEvent.keyType && !touchButton {
                // A key.
                if e.value == 2 { outcome.activity = true }
                if e.value == 1 {
                    outcome.activity = true
                    if sleeping {
                        wakingKeys[device.path, default: []].insert(e.code)
                        outcome.woke = true
                        sleeping = false
                        continue
                    }
                }
                if wakingKeys[device.path]?.contains(e.code) == true {
                    if e.value == 0 { wakingKeys[device.path]?.remove(e.code) }
                    continue
                }
                outcome.commands += keys[device.path, default: KeyInterpreter(map: keyMap)]
                    .key(e.code, value: e.value, time: e.time).map { .action($0) }
                continue
            }
            guard touchKind, var t = touches[device.path] else { continue }
            for contact in t.decoder.feed(e) {
                let p = t.calibration.point(x: contact.x, y: contact.y)
                switch contact.phase {
                case .down:
                    outcome.activity = true
                    if sleeping {
                        t.waking = true
                        outcome.woke = true
                        sleeping = false
                    }
                case .move:
                    outcome.activity = true
                case .up:
                    break
                }
                if !t.waking, let g = t.gestures.contact(contact.phase, at: p, time: contact.time) {
                    outcome.commands.append(Self.command(g))
                }
                if contact.phase == .up { t.waking = false }
            }
            touches[device.path] = t  // the decoder's state, whether or not a contact came out
        }
        return outcome
    }

    /// Long presses (keys and fingers) whose time has come.
    public mutating func tick(time: Double) -> [Command] {
        // Nothing held, nothing to come (the loop asks every turn, each frame of an animation).
        guard nextDeadline != nil else { return [] }
        var commands: [Command] = []
        // Two keys held together (on any devices) before either one's long press.
        if let chord = KeyInterpreter.chord(&keys, time: time) { commands.append(.action(chord)) }
        for path in keys.keys.sorted() { commands += keys[path]!.tick(time: time).map { Command.held($0) } }
        for (path, var t) in touches {
            if !t.waking, let g = t.gestures.tick(time: time) { commands.append(Self.command(g)) }
            touches[path] = t
        }
        return commands
    }

    /// When `tick` next has something to do.
    public var nextDeadline: Double? {
        var next: Double?
        for k in keys.values {
            if let d = k.nextDeadline { next = min(next ?? d, d) }
        }
        for t in touches.values where !t.waking {
            if let d = t.gestures.nextDeadline { next = min(next ?? d, d) }
        }
        return next
    }

    /// Forgets every device's held keys, long presses and gestures (input went elsewhere for a
    /// while: what was held then is not the app's). Touch decoding goes on where the devices
    /// are (their slots); a finger still down is ignored until lifted.
    public mutating func reset() {
        keys.removeAll()
        wakingKeys.removeAll()
        for (path, var t) in touches {
            t.gestures = GestureRecognizer(
                pictureSize: rotation.logicalSize(forPanel: panel), longPressSeconds: longPressSeconds)
            t.waking = t.decoder.isTouching
            touches[path] = t
        }
    }

    /// A device went away: forget its state.
    public mutating func removed(path: String) {
        touches[path] = nil
        keys[path] = nil
        wakingKeys[path] = nil
    }

    /// Swipes browse days (left: the next day comes in from the right) and screens (up: the
    /// next screen comes up from below); a long press goes to today; a tap is the screen's.
    static func command(_ g: Gesture) -> Command {
        switch g {
        case .swipe(.left): .action(.nextDay)
        case .swipe(.right): .action(.previousDay)
        case .swipe(.up): .action(.nextScreen)
        case .swipe(.down): .action(.previousScreen)
        case .pullDown: .action(.refresh)
        case .longPress: .action(.today)
        case .tap(let p): .tap(p)
        }
    }

    private func touchState(_ device: DeviceDescription) -> TouchState? {
        let caps = device.capabilities
        let multitouch = caps.absoluteAxes[InputCapabilities.absMTPositionX] != nil
        let (xAxis, yAxis) =
            multitouch
            ? (InputCapabilities.absMTPositionX, InputCapabilities.absMTPositionY)
            : (InputCapabilities.absX, InputCapabilities.absY)
        guard let xr = caps.absoluteAxes[xAxis], let yr = caps.absoluteAxes[yAxis] else { return nil }
        let button = caps.keys.contains(Int(InputEvent.btnTouch)) ? InputEvent.btnTouch : InputEvent.btnLeft
        let calibration = TouchCalibration(
            xRange: Int32(xr.minimum)...Int32(max(xr.maximum, xr.minimum + 1)),
            yRange: Int32(yr.minimum)...Int32(max(yr.maximum, yr.minimum + 1)),
            setting: touchSetting, panel: panel, rotation: rotation)
        return TouchState(
            decoder: TouchDecoder(multitouch: multitouch, button: button), calibration: calibration,
            gestures: GestureRecognizer(
                pictureSize: rotation.logicalSize(forPanel: panel), longPressSeconds: longPressSeconds))
    }
}
