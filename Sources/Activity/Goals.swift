/// Standing goals: what a day without goals of its own is measured against (set with `glance
/// goals set`, or the configuration's `goals`). nil: none given here.
public struct Goals: Sendable, Equatable {
    public var move: Energy?
    /// Minutes.
    public var exercise: Double?
    /// Hours.
    public var stand: Double?

    public init(move: Energy? = nil, exercise: Double? = nil, stand: Double? = nil) {
        self.move = move
        self.exercise = exercise
        self.stand = stand
    }

    /// These goals, each one missing taken from `other`.
    public func over(_ other: Goals) -> Goals {
        Goals(move: move ?? other.move, exercise: exercise ?? other.exercise, stand: stand ?? other.stand)
    }

    public var isEmpty: Bool { move == nil && exercise == nil && stand == nil }

    /// These goals on the rings of `summary` that have none of their own (a Move goal only where
    /// Move measures energy: a move-time day's goal is its own).
    public func fill(_ summary: inout ActivitySummary) {
        if summary.activeEnergyBurnedGoal == nil, summary.moveMode == .activeEnergy, let move {
            summary.activeEnergyBurnedGoal = move
        }
        if summary.exerciseTimeGoal == nil, let exercise { summary.exerciseTimeGoal = exercise }
        if summary.standHoursGoal == nil, let stand { summary.standHoursGoal = stand }
    }

    /// A summary holding only these goals (to check them as the store checks a day's).
    public var asSummary: ActivitySummary {
        ActivitySummary(activeEnergyBurnedGoal: move, exerciseTimeGoal: exercise, standHoursGoal: stand)
    }
}

/// The metrics a source sends samples of (Health Auto Export's names), each feeding one figure
/// of the day: active energy (kcal), exercise minutes, stand hours.
public enum SampleMetric: String, Sendable, Equatable, CaseIterable {
    case activeEnergy = "active_energy"
    case exerciseTime = "apple_exercise_time"
    case standHours = "apple_stand_hour"
}
