/// A change to a field that may be left alone, set, or cleared.
public enum FieldChange<Value: Sendable & Equatable>: Sendable, Equatable {
    case keep
    case set(Value)
    case clear

    /// A value given: set to it, or (nil: "-", null) cleared.
    public init(_ given: Value?) { self = given.map { .set($0) } ?? .clear }

    public func applied(to old: Value?) -> Value? {
        switch self {
        case .keep: old
        case .set(let v): v
        case .clear: nil
        }
    }
}
