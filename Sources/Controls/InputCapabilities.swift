/// What an evdev device can report (its capability bits), and what kind of device that makes it.
///
/// Pure: built from the bit sets the kernel reports, classified as platform.md says.
public struct InputCapabilities: Sendable, Equatable {
    /// EV_* event types.
    public var eventTypes: Set<Int>
    /// KEY_* and BTN_* codes.
    public var keys: Set<Int>
    /// ABS_* axes and their ranges.
    public var absoluteAxes: [Int: AxisRange]
    /// REL_* axes.
    public var relativeAxes: Set<Int>
    /// INPUT_PROP_* properties.
    public var properties: Set<Int>

    public struct AxisRange: Sendable, Equatable {
        public var minimum: Int
        public var maximum: Int
        public init(minimum: Int, maximum: Int) {
            self.minimum = minimum
            self.maximum = maximum
        }
    }

    public init(
        eventTypes: Set<Int> = [], keys: Set<Int> = [], absoluteAxes: [Int: AxisRange] = [:],
        relativeAxes: Set<Int> = [], properties: Set<Int> = []
    ) {
        self.eventTypes = eventTypes
        self.keys = keys
        self.absoluteAxes = absoluteAxes
        self.relativeAxes = relativeAxes
        self.properties = properties
    }

    // Codes from linux/input-event-codes.h (a stable kernel ABI).
    public static let evKey = 0x01, evRel = 0x02, evAbs = 0x03
    public static let absX = 0x00, absY = 0x01, absMTSlot = 0x2F, absMTPositionX = 0x35, absMTPositionY = 0x36
    public static let relX = 0x00, relY = 0x01
    public static let btnMisc = 0x100, btnLeft = 0x110, btnTouch = 0x14A, btnDigi = 0x140
    public static let btnRangeEnd = 0x160
    public static let propDirect = 0x01

    /// What a device is used as; one device can be several (a keyboard with a touchpad).
    public enum Kind: String, Sendable, CaseIterable {
        /// Reports keys or buttons that are not pointer buttons: keyboards, gpio-keys, remotes.
        case keys
        /// A touchscreen: multi-touch positions, or ABS_X/ABS_Y with BTN_TOUCH.
        case touchscreen
        /// ABS_X/ABS_Y with a left button (qemu's tablet): treated like touch.
        case absolutePointer = "absolute pointer"
        /// A mouse or touchpad moving relatively.
        case relativePointer = "relative pointer"
    }

    public var kinds: [Kind] {
        var result: [Kind] = []
        if keys.contains(where: { $0 < Self.btnMisc || $0 >= Self.btnRangeEnd }) { result.append(.keys) }
        let hasXY = absoluteAxes[Self.absX] != nil && absoluteAxes[Self.absY] != nil
        let hasMT = absoluteAxes[Self.absMTPositionX] != nil && absoluteAxes[Self.absMTPositionY] != nil
        if hasMT || (hasXY && keys.contains(Self.btnTouch)) {
            result.append(.touchscreen)
        } else if hasXY && keys.contains(Self.btnLeft) {
            result.append(.absolutePointer)
        }
        if relativeAxes.contains(Self.relX) && relativeAxes.contains(Self.relY) { result.append(.relativePointer) }
        return result
    }

    /// Buttons the system acts on (logind: power off, suspend): KEY_POWER, KEY_SLEEP, KEY_WAKEUP.
    public static let keyPower = 116, keySleep = 142, keyWakeup = 143
    public static let systemKeys: Set<Int> = [keyPower, keySleep, keyWakeup]
    /// KEY_BRIGHTNESSDOWN, KEY_BRIGHTNESSUP: glance's brighter and darker on a keyboard or a
    /// remote that has other keys it uses; a device with nothing else (ACPI's Video Bus) is the
    /// system's, which sets the backlight itself.
    public static let brightnessKeys: Set<Int> = [224, 225]
    /// KEY_A, KEY_Z, KEY_SPACE, KEY_ENTER: a device with all of them is a full keyboard.
    public static let keyboardKeys: Set<Int> = [30, 44, 57, 28]

    /// A typing keyboard, not a few buttons.
    public var isFullKeyboard: Bool { Self.keyboardKeys.isSubset(of: keys) }

    /// What the input hub does with a device.
    public enum GrabPolicy: Sendable, Equatable {
        /// Not opened: nothing on it is for the app (a power button alone, a mouse).
        case skip(reason: String)
        /// Opened but never grabbed: others need its events too.
        case open(reason: String)
        /// Opened, and grabbed when grabbing is on.
        case openAndGrab
    }

    /// Whether the app opens the device and may grab it, given the key codes the key map uses.
    ///
    /// A touchscreen or absolute pointer is always opened; a device with none of `wanted` (the
    /// brightness keys aside) is left alone. A device with the power, sleep or wake-up button that is not a full keyboard (the Pi's
    /// gpio-shutdown and pwr_button, ACPI's Power Button) is never grabbed, so logind still sees
    /// the button. Full keyboards are grabbed: turning grabbing off lets their Power key through.
    public func grabPolicy(wanted: Set<Int>) -> GrabPolicy {
        let kinds = self.kinds
        let touch = kinds.contains(.touchscreen) || kinds.contains(.absolutePointer)
        guard touch || !keys.isDisjoint(with: wanted.subtracting(Self.brightnessKeys)) else {
            return .skip(reason: "no keys glance uses; left to the system")
        }
        if !keys.isDisjoint(with: Self.systemKeys) && !isFullKeyboard {
            let button = keys.contains(Self.keyPower) ? "the power button" : "a sleep or wake-up button"
            return .open(reason: "not grabbed: it has \(button), which logind handles")
        }
        return .openAndGrab
    }

    /// Multi-touch protocol B (slots).
    public var hasTouchSlots: Bool { absoluteAxes[Self.absMTSlot] != nil }

    /// One line for `glance devices`: kinds, then the details that go into a configuration.
    public var summary: String {
        var parts: [String] = []
        let kinds = self.kinds
        if kinds.isEmpty { parts.append("no keys or pointer") }
        for kind in kinds {
            switch kind {
            case .keys:
                let plain = keys.filter { $0 < Self.btnMisc || $0 >= Self.btnRangeEnd }.sorted()
                if plain.count <= 12 {
                    parts.append("keys " + plain.map(Self.keyName).joined(separator: " "))
                } else {
                    let known = Self.navigationKeys.filter { plain.contains($0.code) }.map(\.name)
                    parts.append(
                        "\(plain.count) keys" + (known.isEmpty ? "" : " incl. " + known.joined(separator: " ")))
                }
            case .touchscreen:
                let x = absoluteAxes[Self.absMTPositionX] ?? absoluteAxes[Self.absX]
                let y = absoluteAxes[Self.absMTPositionY] ?? absoluteAxes[Self.absY]
                var text = "touchscreen"
                if let x, let y { text += " x \(x.minimum)..\(x.maximum) y \(y.minimum)..\(y.maximum)" }
                text += hasTouchSlots ? ", multi-touch (slots)" : ", single touch"
                parts.append(text)
            case .absolutePointer:
                let x = absoluteAxes[Self.absX]!
                let y = absoluteAxes[Self.absY]!
                parts.append(
                    "absolute pointer x \(x.minimum)..\(x.maximum) y \(y.minimum)..\(y.maximum) with BTN_LEFT (used as touch)"
                )
            case .relativePointer:
                parts.append("relative pointer")
            }
        }
        if properties.contains(Self.propDirect) { parts.append("direct input") }
        return parts.joined(separator: "; ")
    }

    static let navigationKeys: [(code: Int, name: String)] = [
        (103, "UP"), (108, "DOWN"), (105, "LEFT"), (106, "RIGHT"), (28, "ENTER"), (57, "SPACE"), (1, "ESC"),
        (104, "PAGEUP"), (109, "PAGEDOWN"),
    ]

    static let keyNames: [Int: String] = [
        1: "ESC", 28: "ENTER", 57: "SPACE", 102: "HOME", 103: "UP", 104: "PAGEUP", 105: "LEFT", 106: "RIGHT",
        107: "END", 108: "DOWN", 109: "PAGEDOWN", 113: "MUTE", 114: "VOLUMEDOWN", 115: "VOLUMEUP",
        116: "POWER", 142: "SLEEP", 143: "WAKEUP", 139: "MENU", 158: "BACK", 172: "HOMEPAGE",
        352: "OK", 353: "SELECT", 407: "NEXT", 412: "PREVIOUS",
    ]

    /// "KEY_UP", or "KEY_123" for codes without a name here.
    public static func keyName(_ code: Int) -> String { "KEY_" + (keyNames[code] ?? String(code)) }
}
