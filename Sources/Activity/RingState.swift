/// The three Activity rings.
public enum Ring: String, Sendable, CaseIterable {
    case move, exercise, stand
}

/// What one ring shows.
public enum RingState: Sendable, Equatable, Hashable {
    /// The dim track only: no data, or no usable goal.
    case empty
    /// Value 0 against a real goal: a dot at 12 o'clock.
    case dot
    /// Value / goal in turns, never clamped: past 1.0 the ring runs on around itself.
    case progress(Double)

    /// The state for a value against a goal, per the rules of rings.md.
    ///
    /// A missing value or goal, a goal that is 0, negative, NaN or infinite, and (defensively) a
    /// value that is negative or not finite all give `.empty`.
    public init(value: Double?, goal: Double?) {
        guard let value, let goal, goal.isFinite, goal > 0, value.isFinite, value >= 0 else {
            self = .empty
            return
        }
        // Entry points keep value / goal within 100,000 turns (FigureRange); a store changed by
        // something else may not: a ratio that overflows is drawn as that many turns, not empty.
        let turns = value / goal
        self = value == 0 ? .dot : .progress(turns.isFinite ? min(turns, Self.maxTurns) : Self.maxTurns)
    }

    /// The most turns a ring shows (beyond it, every ring looks the same).
    public static let maxTurns = 100_000.0

    /// Progress in turns: 0 for empty and dot.
    public var turns: Double {
        if case .progress(let p) = self { return p }
        return 0
    }
}

/// The rings a day shows: all three, or the Move ring alone.
public enum RingSet: Sendable, Equatable, Hashable {
    case three(move: RingState, exercise: RingState, stand: RingState)
    case moveOnly(RingState)

    /// Every ring empty: a day with no summary (a missing day, a future date).
    public static let noSummary = RingSet.three(move: .empty, exercise: .empty, stand: .empty)

    /// The rings for a day's summary (nil: no summary for that day).
    ///
    /// Move-only: the rings.md table names move-time mode with neither an exercise nor a stand
    /// goal; its note on goals adds that iPhone-only days (energy mode, exercise and stand goals
    /// 0) show the Move ring alone as the Fitness app does. Both follow from one rule: a summary
    /// with no usable exercise goal and no usable stand goal shows Move alone, in either mode.
    public init(_ summary: ActivitySummary?) {
        guard let summary else {
            self = .noSummary
            return
        }
        let move: RingState
        switch summary.moveMode {
        case .activeEnergy:
            move = RingState(
                value: summary.activeEnergyBurned?.kilocalories,
                goal: summary.activeEnergyBurnedGoal?.kilocalories)
        case .moveTime:
            move = RingState(value: summary.moveTime, goal: summary.moveTimeGoal)
        case .steps:
            move = RingState(value: summary.steps, goal: summary.stepsGoal)
        }
        if !Self.isUsableGoal(summary.exerciseTimeGoal) && !Self.isUsableGoal(summary.standHoursGoal) {
            self = .moveOnly(move)
            return
        }
        self = .three(
            move: move,
            exercise: RingState(value: summary.exerciseTime, goal: summary.exerciseTimeGoal),
            stand: RingState(value: summary.standHours, goal: summary.standHoursGoal))
    }

    /// A goal that can carry progress: present, finite and above zero.
    public static func isUsableGoal(_ goal: Double?) -> Bool {
        guard let goal else { return false }
        return goal.isFinite && goal > 0
    }

    /// A ring drawn and its state. (A struct, not a tuple: an array of tuples brings the
    /// runtime's tuple metadata code into the first frame, docs/speed.md.)
    public struct Drawn: Sendable, Equatable {
        public let ring: Ring
        public let state: RingState
    }

    /// The rings drawn, outermost first.
    public var rings: [Drawn] {
        switch self {
        case .three(let move, let exercise, let stand):
            [Drawn(ring: .move, state: move), Drawn(ring: .exercise, state: exercise), Drawn(ring: .stand, state: stand)]
        case .moveOnly(let move):
            [Drawn(ring: .move, state: move)]
        }
    }
}
