import Configuration
import DeviceLogic
import Activity
import Runtime
import CLI
import Store
import HelperCommands

/// `glance log`: its declaration; the work is `StoreJobs.log`, beside it.
extension DataCommands {
    static let log = CommandSpec<StoreJobs.Log>(
        "log", summary: "set a day's Move, Exercise and Stand figures",
        usage: ["log [--person NAME|ID] [--date D] [--move V] [--exercise V] … [--db PATH]"],
        about: StoreJobs.logAbout,
        groups: [
            OptionGroup(
                "",
                note: "A value of - clears that figure. Energy is 0 to 100000 (kcal or kJ), minutes 0 to 1440, "
                    + "hours 0 to 24; a goal is 0 (kept: the ring then shows no progress) or from 1 up to the same.",
                [
                    .value("--date", as: Value.day,
                        help: "YYYY-MM-DD, today or yesterday", default: "today, local time", to: \.day),
                    .value(
                        "--move", as: Value.optionalEnergy(),
                        help: "active energy; kcal unless a unit follows: 350kcal, 350Cal (= kcal), 1460kJ"
                    ) { $0.changes.activeEnergyBurned = FieldChange($1) },
                    .value("--move-goal", as: Value.optionalEnergy(goal: true), help: "its goal, in the same form") {
                        $0.changes.activeEnergyBurnedGoal = FieldChange($1)
                    },
                    .value("--move-time", as: Value.optionalFigure(.minutes), help: "move minutes (Apple Watch move-time mode)") {
                        $0.changes.moveTime = FieldChange($1)
                    },
                    .value("--move-time-goal", as: Value.optionalFigure(.minutes, goal: true), help: "their goal") {
                        $0.changes.moveTimeGoal = FieldChange($1)
                    },
                    .value("--exercise", as: Value.optionalFigure(.minutes),
                        help: "exercise minutes") { $0.changes.exerciseTime = FieldChange($1) },
                    .value("--exercise-goal", as: Value.optionalFigure(.minutes, goal: true), help: "their goal") {
                        $0.changes.exerciseTimeGoal = FieldChange($1)
                    },
                    .value("--stand", as: Value.optionalFigure(.hours),
                        help: "stand hours") { $0.changes.standHours = FieldChange($1) },
                    .value("--stand-goal", as: Value.optionalFigure(.hours, goal: true), help: "their goal") {
                        $0.changes.standHoursGoal = FieldChange($1)
                    },
                    .value("--steps", as: Value.optionalFigure(.steps), help: "steps (Move in steps mode)") {
                        $0.changes.steps = FieldChange($1)
                    },
                    .value("--steps-goal", as: Value.optionalFigure(.steps, goal: true), help: "their goal") {
                        $0.changes.stepsGoal = FieldChange($1)
                    },
                    .value(
                        "--move-mode", as: Value.choice(MoveMode.self, expected: "activeEnergy, moveTime or steps"),
                        help: "what the Move ring measures. Without it, giving --move-goal or --move-time-goal infers "
                            + "the mode as for an import (move time when there is a move-time goal and no energy goal); "
                            + "otherwise the day keeps its mode", to: \.changes.moveMode),
                    .flag("--remove", help: "remove the day's summary (every ring empty)", sets: \.changes.remove),
                    CommonOptions.person(\.person),
                    CommonOptions.store(\.database),
                    PanelCommands.configOption.lifted(\.config),
                ])
        ],
        epilogue: "Example:\n  glance log --move 420 --move-goal 500 --exercise 25 --exercise-goal 30",
        exits: storeExits(
            ExitStatusNote(.noInput, "a configuration named with --config cannot be read"),
            ExitStatusNote(.config, "the configuration (where the goals come from) is invalid")),
        finish: { (line) throws(UsageError) in
            let c = line.changes
            if c.remove && !c.onlyRemoves {
                throw UsageError("log: --remove removes the whole day; give no figures with it")
            }
            if !c.changesAnything {
                throw UsageError("log: give at least one figure, e.g. --move 350 (see glance log --help)")
            }
        })
}
