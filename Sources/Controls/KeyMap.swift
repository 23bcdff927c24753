

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
    /// reporting BTN_0…BTN_4 do what KEY_LEFT, KEY_ENTER, KEY_RIGHT, KEY_UP and KEY_DOWN do (so
    /// BTN_0 and BTN_1 are the two-button layout). With `Action.defaultLongPress` two buttons
    /// reach every action but the brightness. KEY_POWER is never mapped by default: logind owns it. The
    /// brightness keys act on devices that have other keys glance uses (a keyboard, a remote);
    /// a device with nothing but them is left to the system (`InputCapabilities.grabPolicy`).
    public static let defaults: [KeyDefault] = [
        KeyDefault("KEY_LEFT", .previousDay), KeyDefault("KEY_RIGHT", .nextDay), KeyDefault("KEY_UP", .previousScreen),
        KeyDefault("KEY_DOWN", .nextScreen), KeyDefault("KEY_ENTER", .select), KeyDefault("KEY_KPENTER", .select),
        KeyDefault("KEY_SPACE", .select), KeyDefault("KEY_SELECT", .select), KeyDefault("KEY_OK", .select),
        KeyDefault("KEY_ESC", .cancel), KeyDefault("KEY_BACK", .cancel), KeyDefault("KEY_BACKSPACE", .cancel),
        KeyDefault("KEY_EXIT", .cancel), KeyDefault("KEY_PAGEUP", .previousScreen),
        KeyDefault("KEY_PAGEDOWN", .nextScreen), KeyDefault("KEY_TAB", .nextScreen), KeyDefault("KEY_HOME", .today),
        KeyDefault("KEY_T", .today), KeyDefault("KEY_PREVIOUS", .previousDay), KeyDefault("KEY_NEXT", .nextDay),
        KeyDefault("KEY_REFRESH", .refresh), KeyDefault("KEY_F5", .refresh), KeyDefault("KEY_BRIGHTNESSUP", .brighter),
        KeyDefault("KEY_BRIGHTNESSDOWN", .darker), KeyDefault("KEY_HELP", .help), KeyDefault("BTN_0", .previousDay),
        KeyDefault("BTN_1", .select), KeyDefault("BTN_2", .nextDay), KeyDefault("BTN_3", .previousScreen),
        KeyDefault("BTN_4", .nextScreen),
    ]

    /// The same, by key name.
    public static let defaultBindings: [String: Action] = {
        var bindings = [String: Action]()
        for key in defaults { bindings[key.name] = key.action }
        return bindings
    }()

    /// What the keys and touches do by default, in the words of `glance run --help` (beside the
    /// table, and held to it by a test).
    public static let defaultsHelp = """
        Keys (defaults; the configuration's "keys" changes them): Left/Right the previous and next day, \
        Up/Down or Page Up/Down the screens, Enter or Space the next screen (held: today), Home today, \
        Esc the progress screen's Cancel, the brightness keys brighter and darker (kept across restarts), \
        F5 or Refresh fresh data. Touch: swipe left/right for days, up/down for screens, hold \
        for today, tap for the next screen (or Cancel). A screen in pages (a small or round panel's \
        rings, then each figure; gauges too many for one page) shows its pages before the next screen. \
        While dimmed or blank, the first touch or key only wakes the display.
        """

    /// Actions that repeat while their key is held (browsing days, the brightness); others ignore
    /// auto-repeat.
    public static let repeating: Set<Action> = [.previousDay, .nextDay, .brighter, .darker]

    public init(
        bindings: [UInt16: Action], longPress: [Action: Action] = Action.defaultLongPress, longPressSeconds: Double = 0.8
    ) {
        self.bindings = bindings
        self.longPress = longPress
        self.longPressSeconds = longPressSeconds
    }

    /// The key codes bound to something: the input hub opens only devices that have one of them
    /// (or are touch).
    public var codes: Set<Int> { Set(bindings.keys.map(Int.init)) }
}

/// A key's default binding: the key's name (`KEY_LEFT`) and what it does. (A struct, not a
/// dictionary literal, whose key-value tuples bring the runtime's tuple metadata code into every
/// start: docs/speed.md.)
public struct KeyDefault: Sendable {
    public let name: String
    public let action: Action
    public init(_ name: String, _ action: Action) {
        self.name = name
        self.action = action
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
/// A key whose action repeats (the days, the brightness) and that also has a long press is a
/// long press only on a device that does not repeat (gpio-keys buttons): where the device
/// repeats it (a keyboard, which does within 250 ms, before the long press is due), the first
/// repeat gives the press and the repeat, and holding it goes on browsing.
///
/// Pure: the loop feeds it events and the time, and wakes it at `nextDeadline`.
public struct KeyInterpreter: Sendable {
    public let map: KeyMap
    private var held: [UInt16: Press] = [:]

    struct Press: Sendable {
        var since: Double
        var state: State
    }

    enum State: Sendable {
        /// Held, its action (or long press) still to come.
        case pending
        /// Its long press was given (or it was part of a chord): its release does nothing.
        case done
        /// Repeating (the device repeats it): each repeat acts.
        case repeating
    }

    public init(map: KeyMap) { self.map = map }

    /// Actions for one key event (EV_KEY value 1 press, 2 repeat, 0 release).
    public mutating func key(_ code: UInt16, value: Int32, time: Double) -> [Action] {
        guard let action = map.bindings[code] else { return [] }
        let hasLong = map.longPress[action] != nil
        let repeats = KeyMap.repeating.contains(action)
        switch value {
        case 1:
            held[code] = Press(since: time, state: .pending)
            return hasLong ? [] : [action]
        case 2:
            guard repeats else { return [] }
            guard hasLong else { return [action] }
            // The device repeats this key: it browses, as it would without a long press.
            switch held[code]?.state {
            case .pending:
                held[code]?.state = .repeating
                return [action, action]
            case .repeating: return [action]
            case .done, nil: return []
            }
        case 0:
            guard let press = held.removeValue(forKey: code) else { return [] }
            return hasLong && press.state == .pending ? [action] : []
        default:
            return []
        }
    }

    /// Long presses whose time has come.
    public mutating func tick(time: Double) -> [Action] {
        var result: [Action] = []
        for (code, press) in held.sorted(by: { $0.key < $1.key }) where press.state == .pending {
            guard let action = map.bindings[code], let long = map.longPress[action],
                time >= press.since + map.longPressSeconds
            else { continue }
            held[code]?.state = .done
            result.append(long)
        }
        return result
    }

    /// When `tick` has something to do next (a held key reaching its long press), if ever.
    public var nextDeadline: Double? {
        pending.map { $0.since + map.longPressSeconds }.min()
    }

    /// The keys held still whose long press is to come, and since when.
    public var pending: [(code: UInt16, since: Double)] {
        held.compactMap { code, press in
            guard press.state == .pending, let action = map.bindings[code], map.longPress[action] != nil else {
                return nil
            }
            return (code, press.since)
        }
    }

    /// The keys held now were taken by a chord: nothing more comes of them (no long press, no
    /// action on release).
    public mutating func chordTaken() {
        for code in held.keys where held[code]?.state == .pending { held[code]?.state = .done }
    }

    /// Two or more keys held still together until the first of them is due its long press, on
    /// one device or several (each gpio-key overlay line is a device of its own): the chord
    /// (`Action.help`), and the keys give nothing else. To be asked before each `tick`.
    public static func chord(_ interpreters: inout [String: KeyInterpreter], time: Double) -> Action? {
        var count = 0
        var first = Double.infinity
        var seconds = Double.infinity
        for k in interpreters.values {
            for p in k.pending {
                count += 1
                first = min(first, p.since)
            }
            if !k.pending.isEmpty { seconds = min(seconds, k.map.longPressSeconds) }
        }
        guard count >= 2, time >= first + seconds else { return nil }
        for path in interpreters.keys { interpreters[path]?.chordTaken() }
        return .help
    }
}
