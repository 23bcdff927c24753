import Configuration
import DeviceLogic
import Activity
import Runtime
import CLI
import Store
import HelperCommands

/// `glance goals`: its declaration; the work is `StoreJobs.goals`, beside it.
extension DataCommands {
    struct Goals {
        var goals = Activity.Goals()
        var dashed = false
        var from: CalendarDay?
        var database: String?
        var config: String?
        var person: String?
        var job = StoreJobs.GoalsJob.list
    }

    static let goals = CommandSpec<Goals>(
        "goals", summary: "set or list the standing goals, each from the date it starts",
        usage: [
            "goals set [--move G] [--exercise G] [--stand G] [--steps G] [--from D] [--db PATH]",
            "goals [list] [--person NAME|ID] | glance goals remove --from D [--person NAME|ID]",
        ],
        about: StoreJobs.goalsAbout,
        groups: [
            OptionGroup(
                "",
                note: "A goal is 0 (no progress: an iPhone-only day's Exercise and Stand) or from 1 up: energy to "
                    + "100000 (kcal or kJ), minutes to 1440, hours to 24, steps to 250000.",
                [
                    .value("--move", as: Value.optionalEnergy(goal: true),
                        help: "the Move goal; kcal unless a unit follows: 2000kJ") {
                        $0.goals.move = $1
                        $0.dashed = $0.dashed || $1 == nil
                    },
                    .value("--exercise", as: Value.optionalFigure(.minutes, goal: true), help: "the Exercise goal in minutes") {
                        $0.goals.exercise = $1
                        $0.dashed = $0.dashed || $1 == nil
                    },
                    .value("--stand", as: Value.optionalFigure(.hours, goal: true), help: "the Stand goal in hours") {
                        $0.goals.stand = $1
                        $0.dashed = $0.dashed || $1 == nil
                    },
                    .value(
                        "--steps", as: Value.optionalFigure(.steps, goal: true),
                        help: "the step goal: Move on a day whose source counts steps and no energy"
                    ) {
                        $0.goals.steps = $1
                        $0.dashed = $0.dashed || $1 == nil
                    },
                    .value("--from", as: Value.day,
                        help: "the date they start: YYYY-MM-DD, today or yesterday", default: "today", to: \.from),
                    CommonOptions.person(\.person, help: "whose goals: a person's name or id (default: person 1, the store's first)"),
                    CommonOptions.store(\.database),
                    PanelCommands.configOption.lifted(\.config),
                ])
        ],
        operands: Operands(
            "set|list|remove",
            verbs: [
                .init("set", ["--move", "--exercise", "--stand", "--steps", "--from"]) { (_, line) throws(UsageError) in
                    guard !line.dashed else { throw UsageError("goals set: a goal is a number (0 for none), not -") }
                    guard !line.goals.isEmpty else { throw UsageError("goals set: give at least one goal, e.g. --move 500") }
                    line.job = .set(line.goals, from: line.from)
                },
                .init("list"),
                .init("remove", ["--from"]) { (_, line) throws(UsageError) in
                    guard let from = line.from else { throw UsageError("goals remove: say which with --from D") }
                    line.job = .remove(from: from)
                },
            ], common: ["--db", "--config", "--person"], defaultVerb: "list"),
        epilogue: "Examples:\n  glance goals set --move 500 --exercise 30 --stand 12\n  glance goals set --move 600 --from 2026-12-07",
        exits: storeExits(
            ExitStatusNote(.dataError, "remove: no goals set from that date; or --db is not a Glance store (left as it is)"),
            ExitStatusNote(.noInput, "list, remove: no store yet; or a configuration named with --config cannot be read"))
            + [ExitStatusNote(.config, "the configuration (where the default goals come from) is invalid")])
}
