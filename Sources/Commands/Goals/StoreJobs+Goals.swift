import Runtime
import DeviceLogic
import Activity
import Configuration
import Platform
import Store
import Clocks
import ConfigurationFile

/// `glance goals`'s work, in the store's frame (`StoreJobs.with`, in Store).
extension StoreJobs {
    // MARK: glance goals

    /// `glance goals`'s description (its help), beside what it does.
    public static let goalsAbout = """
        A day without goals of its own (one fed from the phone, or logged without them) is measured \
        against the goals in force on its date: those set from the latest date on or before it, else the \
        configuration's ("goals": 500 kcal, 30 min and 12 h by default). Setting goals from a date leaves \
        the days before it as they were; a goal not given keeps the value in force on that date. `list` \
        prints the history, the configuration's first.
        """

    public enum GoalsJob: Sendable {
        case set(Goals, from: CalendarDay?)
        case list
        case remove(from: CalendarDay)
    }

    /// `glance goals`: the standing goals' history, set from a date, or a period removed.
    /// `person`: whose (`--person NAME|ID`; nil: person 1).
    public static func goals(
        _ job: GoalsJob, database: String?, person: String? = nil, config: String? = nil, console: Console
    ) -> Outcome {
        let (found, status) = configuredGoals(config, console: console)
        guard let defaults = found else { return status }
        let access: Store.Access = if case .set = job { .create } else if case .list = job { .read } else { .write }
        return with(database, access: access, person: person, console: console) { store throws(StoreError) in
            switch job {
            case .set(let goals, let from):
                let period = try store.setGoals(goals, from: from ?? SystemLocalClock().today())
                console.say(goalLine(period.goals.over(defaults), from: "from \(period.start)"))
            case .list:
                let history = try store.goalHistory()
                let first = history.first.map { "until \($0.start.adding(days: -1))" } ?? "always"
                try console.writeResult(goalLine(defaults, from: "\(first) (the configuration's)") + "\n")
                for period in history {
                    try console.writeResult(goalLine(period.goals.over(defaults), from: "from \(period.start)") + "\n")
                }
            case .remove(let from):
                guard try store.removeGoals(from: from) else { throw StoreError(.notFound, "no goals set from \(from)") }
            }
            return Outcome.ok
        }
    }

    static func goalLine(_ g: Goals, from: String) -> String {
        func number(_ x: Double?) -> String { x.map(NumberText.plain) ?? "—" }
        let move = g.move.map { "\(NumberText.plain($0.value)) \($0.unit.rawValue)" } ?? "— kcal"
        let steps = g.steps.map { ", steps \(NumberText.plain($0))" } ?? ""
        return "\(from): move \(move), exercise \(number(g.exercise)) min, stand \(number(g.stand)) h\(steps)"
    }
}
