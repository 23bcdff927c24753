/// Standing goals: what a day without goals of its own is measured against (set with `glance
/// goals set`, or the configuration's `goals`). nil: none given here.
public struct Goals: Sendable, Equatable {
    public var move: Energy?
    /// Minutes.
    public var exercise: Double?
    /// Hours.
    public var stand: Double?
    /// Steps: the Move goal of a day that moves in steps (a source without energy).
    public var steps: Double?

    public init(move: Energy? = nil, exercise: Double? = nil, stand: Double? = nil, steps: Double? = nil) {
        self.move = move
        self.exercise = exercise
        self.stand = stand
        self.steps = steps
    }

    /// These goals, each one missing taken from `other`.
    public func over(_ other: Goals) -> Goals {
        Goals(
            move: move ?? other.move, exercise: exercise ?? other.exercise, stand: stand ?? other.stand,
            steps: steps ?? other.steps)
    }

    public var isEmpty: Bool { move == nil && exercise == nil && stand == nil && steps == nil }

    /// These goals on the rings of `summary` that have none of their own (a Move goal only where
    /// Move measures energy: a move-time day's goal is its own).
    public func fill(_ summary: inout ActivitySummary) {
        if summary.activeEnergyBurnedGoal == nil, summary.moveMode == .activeEnergy, let move {
            summary.activeEnergyBurnedGoal = move
        }
        if summary.exerciseTimeGoal == nil, let exercise { summary.exerciseTimeGoal = exercise }
        if summary.standHoursGoal == nil, let stand { summary.standHoursGoal = stand }
        if summary.stepsGoal == nil, summary.moveMode == .steps, let steps { summary.stepsGoal = steps }
    }

    /// A summary holding only these goals (to check them as the store checks a day's).
    public var asSummary: ActivitySummary {
        ActivitySummary(activeEnergyBurnedGoal: move, exerciseTimeGoal: exercise, standHoursGoal: stand, stepsGoal: steps)
    }
}

/// The metrics a source sends samples of (Health Auto Export's names for the rings' three), each
/// feeding one figure of the day: active energy (kcal), exercise minutes, stand hours, steps (Move
/// on a day without energy).
public enum SampleMetric: String, Sendable, Equatable, CaseIterable {
    case activeEnergy = "active_energy"
    case exerciseTime = "apple_exercise_time"
    case standHours = "apple_stand_hour"
    case steps = "steps"
}
