/// Changes to a day's figures (glance log, a request to glance serve): nil leaves a figure,
/// .some(nil) clears it.
public struct SummaryChanges: Sendable, Equatable {
    public var activeEnergyBurned: Energy??
    public var activeEnergyBurnedGoal: Energy??
    public var moveTime: Double??
    public var moveTimeGoal: Double??
    public var exerciseTime: Double??
    public var exerciseTimeGoal: Double??
    public var standHours: Double??
    public var standHoursGoal: Double??
    /// What the Move ring measures; nil: inferred from the goals when one is given, else kept.
    public var moveMode: MoveMode?
    /// Remove the day's summary.
    public var remove = false

    public init() {}

    public var changesAnything: Bool {
        remove || moveMode != nil || moveGoalGiven || activeEnergyBurned != nil || moveTime != nil
            || exerciseTime != nil || exerciseTimeGoal != nil || standHours != nil || standHoursGoal != nil
    }
    public var moveGoalGiven: Bool { activeEnergyBurnedGoal != nil || moveTimeGoal != nil }

    public func apply(to s: inout ActivitySummary) {
        if let v = activeEnergyBurned { s.activeEnergyBurned = v }
        if let v = activeEnergyBurnedGoal { s.activeEnergyBurnedGoal = v }
        if let v = moveTime { s.moveTime = v }
        if let v = moveTimeGoal { s.moveTimeGoal = v }
        if let v = exerciseTime { s.exerciseTime = v }
        if let v = exerciseTimeGoal { s.exerciseTimeGoal = v }
        if let v = standHours { s.standHours = v }
        if let v = standHoursGoal { s.standHoursGoal = v }
        if let moveMode {
            s.moveMode = moveMode
        } else if moveGoalGiven {
            s.moveMode = .inferred(energyGoal: s.activeEnergyBurnedGoal?.value, moveTimeGoal: s.moveTimeGoal)
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
