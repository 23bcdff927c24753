/// A change to a field that may be left alone, set, or cleared.
public enum FieldChange<Value: Sendable & Equatable>: Sendable, Equatable {
    case keep
    case set(Value)
    case clear

    /// A value given: set to it, or (nil: "-", null) cleared.
    public init(_ given: Value?) { self = given.map { .set($0) } ?? .clear }

    /// Written out, not derived: the derived one switches over the pair, a tuple whose metadata
    /// the generic code asks the runtime for (its tuple code, run at the first frame:
    /// docs/speed.md).
    public static func == (a: FieldChange, b: FieldChange) -> Bool {
        switch a {
        case .keep:
            if case .keep = b { return true }
            return false
        case .clear:
            if case .clear = b { return true }
            return false
        case .set(let x):
            if case .set(let y) = b { return x == y }
            return false
        }
    }

    public func applied(to old: Value?) -> Value? {
        switch self {
        case .keep: old
        case .set(let v): v
        case .clear: nil
        }
    }
}
