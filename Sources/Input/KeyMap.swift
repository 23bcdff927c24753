import Controls

/// Which key does what: key codes to actions, the action a long press gives, and which actions
/// repeat while a key is held.
public struct KeyMap: Sendable, Equatable {
    public var bindings: [UInt16: Action]
    /// A key whose action is listed here acts on release when tapped, and does the mapped
    /// action instead once held for `longPressSeconds`.
    public var longPress: [Action: Action]
    public var longPressSeconds: Double

    /// Defaults that work with two buttons (KEY_LEFT, KEY_ENTER), three (KEY_LEFT, KEY_ENTER,
    /// KEY_RIGHT), a five-way switch (and KEY_UP, KEY_DOWN) and a keyboard; gpio-keys buttons
    /// reporting BTN_0…BTN_4 work too. KEY_POWER is never mapped by default: logind owns it. The
    /// brightness keys act on devices that have other keys glance uses (a keyboard, a remote);
    /// a device with nothing but them is left to the system (`InputCapabilities.grabPolicy`).
    public static let defaultBindings: [String: Action] = [
        "KEY_LEFT": .previousDay, "KEY_RIGHT": .nextDay, "KEY_UP": .previousScreen, "KEY_DOWN": .nextScreen,
        "KEY_ENTER": .select, "KEY_KPENTER": .select, "KEY_SPACE": .select, "KEY_SELECT": .select, "KEY_OK": .select,
        "KEY_ESC": .cancel, "KEY_BACK": .cancel, "KEY_BACKSPACE": .cancel, "KEY_EXIT": .cancel,
        "KEY_PAGEUP": .previousScreen, "KEY_PAGEDOWN": .nextScreen, "KEY_TAB": .nextScreen, "KEY_HOME": .today,
        "KEY_T": .today, "KEY_PREVIOUS": .previousDay, "KEY_NEXT": .nextDay, "KEY_REFRESH": .refresh, "KEY_F5": .refresh,
        "KEY_BRIGHTNESSUP": .brighter, "KEY_BRIGHTNESSDOWN": .darker,
        "BTN_0": .previousDay, "BTN_1": .select, "BTN_2": .nextDay, "BTN_3": .previousScreen, "BTN_4": .nextScreen,
    ]

    /// Actions that repeat while their key is held (browsing days, the brightness); others ignore
    /// auto-repeat.
    public static let repeating: Set<Action> = [.previousDay, .nextDay, .brighter, .darker]

    public init(
        bindings: [UInt16: Action], longPress: [Action: Action] = [.select: .today], longPressSeconds: Double = 0.8
    ) {
        self.bindings = bindings
        self.longPress = longPress
        self.longPressSeconds = longPressSeconds
    }

    /// The key codes bound to something: the input hub opens only devices that have one of them
    /// (or are touch).
    public var codes: Set<Int> { Set(bindings.keys.map(Int.init)) }

    /// The defaults with `keys` (key names such as `KEY_RIGHT` to action names) on top; "none"
    /// removes a key. Names that are not key names fail, all of them together.
    public static func make(
        keys: [String: String], longPress: [Action: Action] = [.select: .today], longPressSeconds: Double = 0.8
    ) -> Result<KeyMap, UnknownKeyNames> {
        var bindings: [UInt16: Action] = [:]
        for (name, action) in defaultBindings {
            if let code = EventNames.keyCode(named: name) { bindings[code] = action }
        }
        var unknown: [String] = []
        for (name, value) in keys.sorted(by: { $0.key < $1.key }) {
            guard let code = EventNames.keyCode(named: name) else {
                unknown.append(name)
                continue
            }
            if value == "none" {
                bindings[code] = nil
            } else if let action = Action(rawValue: value) {
                bindings[code] = action
            }
        }
        guard unknown.isEmpty else { return .failure(UnknownKeyNames(names: unknown)) }
        return .success(KeyMap(bindings: bindings, longPress: longPress, longPressSeconds: longPressSeconds))
    }
}

/// Names given as keys to map that name no key this program knows, in order.
public struct UnknownKeyNames: Error, Sendable, Equatable {
    public var names: [String]

    public init(names: [String]) { self.names = names }
}

/// Turns key presses, repeats and releases into actions: immediately on press, or, for a key
/// with a long-press action, on release when tapped and at the deadline when held.
///
/// Pure: the loop feeds it events and the time, and wakes it at `nextDeadline`.
public struct KeyInterpreter: Sendable {
    public let map: KeyMap
    private var held: [UInt16: (since: Double, longDone: Bool)] = [:]

    public init(map: KeyMap) { self.map = map }

    /// Actions for one key event (EV_KEY value 1 press, 2 repeat, 0 release).
    public mutating func key(_ code: UInt16, value: Int32, time: Double) -> [Action] {
        guard let action = map.bindings[code] else { return [] }
        let hasLong = map.longPress[action] != nil
        switch value {
        case 1:
            held[code] = (time, false)
            return hasLong ? [] : [action]
        case 2:
            // Held keys repeat only where repeating makes sense, and never a long-press key.
            return !hasLong && KeyMap.repeating.contains(action) ? [action] : []
        case 0:
            guard let press = held.removeValue(forKey: code) else { return [] }
            return hasLong && !press.longDone ? [action] : []
        default:
            return []
        }
    }

    /// Long presses whose time has come.
    public mutating func tick(time: Double) -> [Action] {
        var result: [Action] = []
        for (code, press) in held.sorted(by: { $0.key < $1.key }) where !press.longDone {
            guard let action = map.bindings[code], let long = map.longPress[action],
                time >= press.since + map.longPressSeconds
            else { continue }
            held[code] = (press.since, true)
            result.append(long)
        }
        return result
    }

    /// When `tick` has something to do next (a held key reaching its long press), if ever.
    public var nextDeadline: Double? {
        held.compactMap { code, press -> Double? in
            guard !press.longDone, let action = map.bindings[code], map.longPress[action] != nil else { return nil }
            return press.since + map.longPressSeconds
        }.min()
    }
}
