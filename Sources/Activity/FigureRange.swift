/// The range a day's figures are taken in, at every entry point (the command line, imports, the
/// store), so no value, goal or ratio of the two can overflow and nothing meaningless is shown:
///
/// | kind | values | goals |
/// | --- | --- | --- |
/// | energy (kcal, Cal or kJ) | 0 to 100,000 | 0 (no goal) or 1 to 100,000 |
/// | minutes (move, exercise) | 0 to 1,440 | 0 or 1 to 1,440 |
/// | hours (stand) | 0 to 24 | 0 or 1 to 24 |
/// | steps (Move from a step counter) | 0 to 250,000 | 0 or 1 to 250,000 |
///
/// A day has 1,440 minutes and 24 hours; 100,000 is above any energy a day can hold in either
/// unit; 250,000 steps is above any day's (an ultramarathon's 24 hours are about 150,000). With
/// goals of at least 1, value / goal is at most 250,000 turns (drawn as the rings' most, 100,000).
public enum FigureRange: Sendable {
    case energy, minutes, hours, steps

    public var maximum: Double {
        switch self {
        case .energy: 100_000
        case .minutes: 1440
        case .hours: 24
        case .steps: 250_000
        }
    }

    /// The smallest goal other than 0 (none).
    public static let smallestGoal = 1.0

    var words: String {
        switch self {
        case .energy: "kcal or kJ"
        case .minutes: "minutes in a day"
        case .hours: "hours in a day"
        case .steps: "steps in a day"
        }
    }

    /// Why `value` is no figure of this kind (a goal with `goal`), or nil when it is one.
    public func problem(_ value: Double, goal: Bool) -> String? {
        guard value.isFinite, value >= 0 else { return "must be a number of 0 or more" }
        let top = NumberText.plain(maximum)
        if value > maximum {
            return goal ? "is above \(top): a goal is 0 (none) or from 1 to \(top) (\(words))" : "is above \(top) (\(words))"
        }
        if goal && value > 0 && value < Self.smallestGoal {
            return "is a goal below 1: a goal is 0 (none) or from 1 to \(top) (\(words))"
        }
        return nil
    }
}
