/// What one button does, for the on-screen hint: its press and its hold.
public struct KeyHint: Sendable, Equatable {
    /// How the button is shown: a direction, the middle button, or a label.
    public enum Symbol: Sendable, Equatable {
        case left, right, up, down, select
        case label(String)
    }

    public var code: UInt16
    public var symbol: Symbol
    public var press: Action
    public var hold: Action?

    public init(code: UInt16, symbol: Symbol, press: Action, hold: Action? = nil) {
        self.code = code
        self.symbol = symbol
        self.press = press
        self.hold = hold
    }
}
