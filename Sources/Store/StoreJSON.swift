import Activity
import JSON

/// The store's things as JSON, as `glance serve` gives them and the scripts' commands
/// (`glance metric --json`, `glance export --json`) print them.
public enum StoreJSON {
    public static func number(_ x: Double?) -> JSON { x.map { .number($0) } ?? .null }

    public static func json(_ day: CalendarDay, _ s: ActivitySummary) -> JSON {
        var members: [(key: String, value: JSON)] = [("date", .string(day.description))]
        members.append(("move", number(s.activeEnergyBurned?.kilocalories)))
        members.append(("moveGoal", number(s.activeEnergyBurnedGoal?.kilocalories)))
        members.append(("moveTime", number(s.moveTime)))
        members.append(("moveTimeGoal", number(s.moveTimeGoal)))
        members.append(("exercise", number(s.exerciseTime)))
        members.append(("exerciseGoal", number(s.exerciseTimeGoal)))
        members.append(("stand", number(s.standHours)))
        members.append(("standGoal", number(s.standHoursGoal)))
        members.append(("moveMode", .string(s.moveMode.rawValue)))
        members.append(("steps", number(s.steps)))
        members.append(("stepsGoal", number(s.stepsGoal)))
        return .object(members)
    }

    public static func json(_ p: Store.GoalPeriod, start: Bool = true) -> JSON {
        var members: [(key: String, value: JSON)] = start ? [("from", .string(p.start.description))] : []
        members.append(("move", number(p.goals.move?.kilocalories)))
        members.append(("exercise", number(p.goals.exercise)))
        members.append(("stand", number(p.goals.stand)))
        members.append(("steps", number(p.goals.steps)))
        return .object(members)
    }

    public static func json(_ m: Metric) -> JSON {
        .object([
            ("name", .string(m.name)), ("value", number(m.value)), ("min", number(m.minimum)), ("max", number(m.maximum)),
            ("unit", m.unit.map { .string($0) } ?? .null),
        ])
    }

    public static func json(_ t: ProgressTask) -> JSON {
        .object([
            ("name", .string(t.name)), ("state", .string(t.state.rawValue)), ("done", .number(t.done)),
            ("total", number(t.total)), ("description", t.description.map { .string($0) } ?? .null),
            ("cancellable", .bool(t.cancellable)), ("cancelRequested", .bool(t.cancelRequested)),
        ])
    }
}
