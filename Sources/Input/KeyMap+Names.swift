import Controls

extension KeyMap {
    /// The defaults with `keys` (key names such as `KEY_RIGHT` to action names) on top; "none"
    /// removes a key. Names that are not key names fail, all of them together.
    public static func make(
        keys: [String: String], longPress: [Action: Action] = Action.defaultLongPress, longPressSeconds: Double = 0.8
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
