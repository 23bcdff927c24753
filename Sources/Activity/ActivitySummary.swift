/// What the Move ring measures on a day.
public enum MoveMode: String, Sendable, CaseIterable {
    /// Move is active energy burned against an energy goal (the default).
    case activeEnergy
    /// Move is minutes of movement against a move-time goal (Apple Watch for children).
    case moveTime
    /// Move is steps against a step goal: a source that counts steps and no energy (a band or
    /// watch through Gadgetbridge, a phone's step counter).
    case steps
}

/// One day's activity, HealthKit style: every quantity and goal may be missing.
///
/// Times are in minutes, stand in hours. Values that are negative, NaN or infinite are invalid
/// input: `invalidFields` names them so the edge (import, command line) can reject them before
/// they reach a screen.
public struct ActivitySummary: Sendable, Equatable, Hashable {
    public var activeEnergyBurned: Energy?
    public var activeEnergyBurnedGoal: Energy?
    public var moveTime: Double?
    public var moveTimeGoal: Double?
    public var exerciseTime: Double?
    public var exerciseTimeGoal: Double?
    public var standHours: Double?
    public var standHoursGoal: Double?
    /// Steps, and the day's step goal: Move's figures when `moveMode` is `.steps`.
    public var steps: Double?
    public var stepsGoal: Double?
    public var moveMode: MoveMode

    public init(
        activeEnergyBurned: Energy? = nil, activeEnergyBurnedGoal: Energy? = nil,
        moveTime: Double? = nil, moveTimeGoal: Double? = nil,
        exerciseTime: Double? = nil, exerciseTimeGoal: Double? = nil,
        standHours: Double? = nil, standHoursGoal: Double? = nil,
        moveMode: MoveMode = .activeEnergy,
        steps: Double? = nil, stepsGoal: Double? = nil
    ) {
        self.activeEnergyBurned = activeEnergyBurned
        self.activeEnergyBurnedGoal = activeEnergyBurnedGoal
        self.moveTime = moveTime
        self.moveTimeGoal = moveTimeGoal
        self.exerciseTime = exerciseTime
        self.exerciseTimeGoal = exerciseTimeGoal
        self.standHours = standHours
        self.standHoursGoal = standHoursGoal
        self.moveMode = moveMode
        self.steps = steps
        self.stepsGoal = stepsGoal
    }

    /// The quantities of the summary by name, in the order people read them.
    public var fields: [(name: String, value: Double?)] {
        [
            ("activeEnergyBurned", activeEnergyBurned?.value),
            ("activeEnergyBurnedGoal", activeEnergyBurnedGoal?.value),
            ("moveTime", moveTime), ("moveTimeGoal", moveTimeGoal),
            ("exerciseTime", exerciseTime), ("exerciseTimeGoal", exerciseTimeGoal),
            ("standHours", standHours), ("standHoursGoal", standHoursGoal),
            ("steps", steps), ("stepsGoal", stepsGoal),
        ]
    }

    /// Each quantity's range and whether it is a goal, in `fields` order.
    static let ranges: [(FigureRange, goal: Bool)] = [
        (.energy, false), (.energy, true), (.minutes, false), (.minutes, true), (.minutes, false), (.minutes, true),
        (.hours, false), (.hours, true), (.steps, false), (.steps, true),
    ]

    /// Names of the quantities outside their `FigureRange` (negative, NaN, infinite, too large,
    /// a goal between 0 and 1): invalid input.
    ///
    /// Goals of 0 are valid data (iPhone-only days carry them); they simply carry no progress.
    public var invalidFields: [String] { problems.map(\.name) }

    /// Each quantity outside its range, with why (`standHoursGoal`, `is above 24 …`).
    public var problems: [(name: String, value: Double, problem: String)] {
        zip(fields, Self.ranges).compactMap { field, range in
            guard let value = field.value, let problem = range.0.problem(value, goal: range.goal) else { return nil }
            return (field.name, value, problem)
        }
    }
}

extension MoveMode {
    /// The mode of a day in an export, which has no mode attribute: move time when there is a
    /// usable move-time goal and no usable energy goal, else steps when there is a usable step
    /// goal and neither other, else active energy.
    public static func inferred(energyGoal: Double?, moveTimeGoal: Double?, stepsGoal: Double? = nil) -> MoveMode {
        if RingSet.isUsableGoal(energyGoal) { return .activeEnergy }
        if RingSet.isUsableGoal(moveTimeGoal) { return .moveTime }
        return RingSet.isUsableGoal(stepsGoal) ? .steps : .activeEnergy
    }
}
