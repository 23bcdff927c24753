import Activity

/// The attributes of an `ActivitySummary` element (and the columns of the CSV form).
package enum ExportField: String, CaseIterable {
    case dateComponents
    case activeEnergyBurned, activeEnergyBurnedGoal, activeEnergyBurnedUnit
    case appleMoveTime, appleMoveTimeGoal
    case appleExerciseTime, appleExerciseTimeGoal
    case appleStandHours, appleStandHoursGoal
    /// Written by `glance export --csv` only: the goal's unit where it differs from the value's.
    case activeEnergyBurnedGoalUnit
    /// Written by `glance export --csv` only: the move mode, which exports leave to inference.
    case moveMode
    /// Written by `glance export --csv` only: a step counter's Move (steps mode) and its goal.
    case steps, stepsGoal
    /// Written by `glance export --csv` only: where the day's figures came from.
    case source
}

/// One day as read from an export, before it becomes an `ActivitySummary`.
package struct ExportDayFields {
    package init() {}
    var date: CalendarDay?
    var energy: Double?
    var energyGoal: Double?
    var unit: EnergyUnit?
    var goalUnit: EnergyUnit?
    var moveTime: Double?
    var moveTimeGoal: Double?
    var exercise: Double?
    var exerciseGoal: Double?
    var stand: Double?
    var standGoal: Double?
    var moveMode: MoveMode?
    var steps: Double?
    var stepsGoal: Double?
    /// Where the day came from, as the file says (nil: the import's own name for the file).
    var source: String?

    /// Sets a field from its text; throws a message naming the field and the bad text.
    package mutating func set(_ field: ExportField, _ text: String) throws(FieldError) {
        switch field {
        case .dateComponents:
            guard let day = CalendarDay(iso: text) else {
                throw FieldError("dateComponents '\(Quote.clip(text))' is not a date (expected YYYY-MM-DD)")
            }
            date = day
        case .activeEnergyBurnedUnit, .activeEnergyBurnedGoalUnit:
            guard let u = EnergyUnit(symbol: text) else {
                throw FieldError("\(field.rawValue) '\(Quote.clip(text))' is not an energy unit (expected kcal, Cal or kJ)")
            }
            if field == .activeEnergyBurnedUnit { unit = u } else { goalUnit = u }
        case .moveMode:
            guard let m = MoveMode(rawValue: text) else {
                throw FieldError("moveMode '\(Quote.clip(text))' is not activeEnergy, moveTime or steps")
            }
            moveMode = m
        case .activeEnergyBurned: energy = try Self.quantity(field, text)
        case .activeEnergyBurnedGoal: energyGoal = try Self.quantity(field, text)
        case .appleMoveTime: moveTime = try Self.quantity(field, text)
        case .appleMoveTimeGoal: moveTimeGoal = try Self.quantity(field, text)
        case .appleExerciseTime: exercise = try Self.quantity(field, text)
        case .appleExerciseTimeGoal: exerciseGoal = try Self.quantity(field, text)
        case .appleStandHours: stand = try Self.quantity(field, text)
        case .appleStandHoursGoal: standGoal = try Self.quantity(field, text)
        case .steps: steps = try Self.quantity(field, text)
        case .stepsGoal: stepsGoal = try Self.quantity(field, text)
        case .source: source = String(Quote.clip(text, 200))
        }
    }

    /// The summary: energy in the unit given (kcal when none is), mode as given or inferred.
    func summary() -> ActivitySummary {
        let valueUnit = unit ?? goalUnit ?? .kilocalorie
        let goalsUnit = goalUnit ?? unit ?? .kilocalorie
        return ActivitySummary(
            activeEnergyBurned: energy.map { Energy($0, valueUnit) },
            activeEnergyBurnedGoal: energyGoal.map { Energy($0, goalsUnit) },
            moveTime: moveTime, moveTimeGoal: moveTimeGoal,
            exerciseTime: exercise, exerciseTimeGoal: exerciseGoal,
            standHours: stand, standHoursGoal: standGoal,
            moveMode: moveMode ?? .inferred(energyGoal: energyGoal, moveTimeGoal: moveTimeGoal, stepsGoal: stepsGoal),
            steps: steps, stepsGoal: stepsGoal)
    }

    /// The range a field's number is taken in, and whether it is a goal.
    static func range(of field: ExportField) -> (FigureRange, goal: Bool)? {
        switch field {
        case .activeEnergyBurned: (.energy, false)
        case .activeEnergyBurnedGoal: (.energy, true)
        case .appleMoveTime, .appleExerciseTime: (.minutes, false)
        case .appleMoveTimeGoal, .appleExerciseTimeGoal: (.minutes, true)
        case .appleStandHours: (.hours, false)
        case .appleStandHoursGoal: (.hours, true)
        case .steps: (.steps, false)
        case .stepsGoal: (.steps, true)
        case .dateComponents, .activeEnergyBurnedUnit, .activeEnergyBurnedGoalUnit, .moveMode, .source: nil
        }
    }

    /// A decimal number ≥ 0 (`12`, `590.252`, `1e3`; see `DecimalText`) in the field's range.
    static func quantity(_ field: ExportField, _ text: String) throws(FieldError) -> Double {
        guard DecimalText.isDecimal(text), let value = Double(text) else {
            throw FieldError("\(field.rawValue) '\(Quote.clip(text))' is not a number")
        }
        guard value.isFinite else { throw FieldError("\(field.rawValue) '\(Quote.clip(text))' is too large") }
        guard value >= 0 else {
            throw FieldError("\(field.rawValue) '\(Quote.clip(text))' is negative (values and goals are 0 or more)")
        }
        if let (range, goal) = range(of: field), let problem = range.problem(value, goal: goal) {
            throw FieldError("\(field.rawValue) '\(Quote.clip(text))' \(problem)")
        }
        return value == 0 ? 0 : value  // no -0
    }
}

/// What is wrong with one field (the caller adds where it is).
package struct FieldError: Error {
    package let message: String
    init(_ message: String) { self.message = message }
}
