/// Changes to a day's figures (glance log, a request to glance serve): each figure kept, set or
/// cleared (`FieldChange`, the one keep/clear/set type).
public struct SummaryChanges: Sendable, Equatable {
    public var activeEnergyBurned = FieldChange<Energy>.keep
    public var activeEnergyBurnedGoal = FieldChange<Energy>.keep
    public var moveTime = FieldChange<Double>.keep
    public var moveTimeGoal = FieldChange<Double>.keep
    public var exerciseTime = FieldChange<Double>.keep
    public var exerciseTimeGoal = FieldChange<Double>.keep
    public var standHours = FieldChange<Double>.keep
    public var standHoursGoal = FieldChange<Double>.keep
    public var steps = FieldChange<Double>.keep
    public var stepsGoal = FieldChange<Double>.keep
    /// What the Move ring measures; nil: inferred from the goals when one is given, else kept.
    public var moveMode: MoveMode?
    /// Remove the day's summary.
    public var remove = false

    public init() {}

    public var changesAnything: Bool {
        remove || moveMode != nil || moveGoalGiven || activeEnergyBurned != .keep || moveTime != .keep
            || exerciseTime != .keep || exerciseTimeGoal != .keep || standHours != .keep || standHoursGoal != .keep
            || steps != .keep
    }
    public var moveGoalGiven: Bool { activeEnergyBurnedGoal != .keep || moveTimeGoal != .keep || stepsGoal != .keep }

    public func apply(to s: inout ActivitySummary) {
        s.activeEnergyBurned = activeEnergyBurned.applied(to: s.activeEnergyBurned)
        s.activeEnergyBurnedGoal = activeEnergyBurnedGoal.applied(to: s.activeEnergyBurnedGoal)
        s.moveTime = moveTime.applied(to: s.moveTime)
        s.moveTimeGoal = moveTimeGoal.applied(to: s.moveTimeGoal)
        s.exerciseTime = exerciseTime.applied(to: s.exerciseTime)
        s.exerciseTimeGoal = exerciseTimeGoal.applied(to: s.exerciseTimeGoal)
        s.standHours = standHours.applied(to: s.standHours)
        s.standHoursGoal = standHoursGoal.applied(to: s.standHoursGoal)
        s.steps = steps.applied(to: s.steps)
        s.stepsGoal = stepsGoal.applied(to: s.stepsGoal)
        if let moveMode {
            s.moveMode = moveMode
        } else if moveGoalGiven {
            s.moveMode = .inferred(energyGoal: s.activeEnergyBurnedGoal?.value, moveTimeGoal: s.moveTimeGoal, stepsGoal: s.stepsGoal)
        }
    }
}


extension SummaryChanges {
    /// Only --remove, no figure.
    public var onlyRemoves: Bool {
        var figures = self
        figures.remove = false
        return remove && !figures.changesAnything
    }
}
