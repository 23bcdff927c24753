import Controls
import CEvdev

/// Names of event types and codes (`EV_KEY`, `KEY_RIGHT`, `ABS_MT_SLOT`), from libevdev's tables.
public enum EventNames {
    public static func typeName(_ type: UInt16) -> String {
        libevdev_event_type_get_name(UInt32(type)).map { String(cString: $0) } ?? "EV_\(type)"
    }

    public static func codeName(_ type: UInt16, _ code: UInt16) -> String {
        libevdev_event_code_get_name(UInt32(type), UInt32(code)).map { String(cString: $0) } ?? "\(code)"
    }

    public static func type(named name: String) -> UInt16? {
        let t = libevdev_event_type_from_name(name)
        return t >= 0 ? UInt16(t) : nil
    }

    /// The code of `KEY_…`, `BTN_…`, `ABS_…`, `SYN_…` or `REL_…`.
    public static func code(named name: String) -> (type: UInt16, code: UInt16)? {
        // The part before the first "_" (not `split`, which made an array of every part: half of
        // the key map's making at each start).
        guard let underscore = name.utf8.firstIndex(of: UInt8(ascii: "_")) else { return nil }
        let prefix: String
        switch name[..<underscore] {
        case "KEY", "BTN": prefix = "EV_KEY"
        case "ABS": prefix = "EV_ABS"
        case "SYN": prefix = "EV_SYN"
        case "REL": prefix = "EV_REL"
        default: return nil
        }
        guard let type = type(named: prefix) else { return nil }
        let c = libevdev_event_code_from_name(UInt32(type), name)
        return c >= 0 ? (type, UInt16(c)) : nil
    }

    /// The KEY_/BTN_ code of a key name.
    public static func keyCode(named name: String) -> UInt16? {
        guard let (type, code) = code(named: name), type == InputEvent.keyType else { return nil }
        return code
    }
}
