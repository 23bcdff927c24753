import Controls

extension KeyMap {
    /// The buttons' keys in the order they usually sit (left to right, top to bottom); others
    /// come after, by code.
    static let hintOrder = [
        "KEY_LEFT", "KEY_UP", "KEY_ENTER", "KEY_SELECT", "KEY_OK", "KEY_SPACE", "KEY_KPENTER", "KEY_DOWN", "KEY_RIGHT",
        "BTN_0", "BTN_1", "BTN_2", "BTN_3", "BTN_4", "BTN_5", "BTN_6", "BTN_7", "BTN_8", "BTN_9",
    ].compactMap(EventNames.keyCode(named:))

    /// At most this many rows: what a 240x240 panel holds readably.
    public static let hintRows = 4

    /// What each button of `devices` does: the keys the map binds on devices that are a few
    /// buttons (gpio-keys, a remote, a five-way switch; not a typing keyboard, which needs no
    /// hint), in their usual order, at most `hintRows`. Empty: no such buttons.
    public func hints(devices: [InputCapabilities]) -> [KeyHint] {
        var keys = Set<Int>()
        for caps in devices where !caps.isFullKeyboard {
            // A touch panel's and a mouse's buttons are theirs (BTN_0… are buttons' own).
            let kinds = caps.kinds
            if kinds.contains(.touchscreen) || kinds.contains(.absolutePointer) { continue }
            keys.formUnion(caps.keys.filter { bindings[UInt16(clamping: $0)] != nil })
        }
        keys.subtract(InputCapabilities.systemKeys)
        let ordered =
            Self.hintOrder.filter { keys.contains(Int($0)) }
            + keys.map { UInt16(clamping: $0) }.filter { !Self.hintOrder.contains($0) }.sorted()
        var seen = Set<Action>()
        var result: [KeyHint] = []
        for code in ordered {
            guard let press = bindings[code] else { continue }
            // Several keys doing the same (KEY_ENTER and KEY_OK on a remote): one row.
            guard seen.insert(press).inserted else { continue }
            result.append(KeyHint(code: code, symbol: Self.symbol(code, press), press: press, hold: longPress[press]))
        }
        return Array(result.prefix(Self.hintRows))
    }

    /// A direction for the arrow keys, the middle button for what selects, else the key's
    /// number or name (BTN_0 is "1").
    static func symbol(_ code: UInt16, _ action: Action) -> KeyHint.Symbol {
        let name = EventNames.codeName(InputEvent.keyType, code)
        switch name {
        case "KEY_LEFT": return .left
        case "KEY_RIGHT": return .right
        case "KEY_UP": return .up
        case "KEY_DOWN": return .down
        case "KEY_ENTER", "KEY_KPENTER", "KEY_SELECT", "KEY_OK", "KEY_SPACE": return .select
        default:
            if name.hasPrefix("BTN_"), let n = Int(name.dropFirst(4)) { return .label(String(n + 1)) }
            let short = name.hasPrefix("KEY_") ? String(name.dropFirst(4)) : name
            return .label(String(short.prefix(3)))
        }
    }
}
