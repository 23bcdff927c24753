import Controls

extension KeyMap {
    /// The defaults with `keys` (key names such as `KEY_RIGHT` to action names) on top; "none"
    /// removes a key. Names that are not key names fail, all of them together.
    public static func make(
        keys: [String: String], longPress: [Action: Action] = Action.defaultLongPress, longPressSeconds: Double = 0.8
    ) -> Result<KeyMap, UnknownKeyNames> {
        var bindings = [UInt16: Action]()
        for key in defaults {
            if let code = EventNames.keyCode(named: key.name) { bindings[code] = key.action }
        }
        var unknown: [String] = []
        // The names in order, not the pairs sorted: an array of tuples would bring the runtime's
        // tuple metadata code into every start (docs/speed.md).
        for name in keys.keys.sorted() {
            let value = keys[name] ?? ""
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
