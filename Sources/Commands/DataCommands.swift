import Configuration
import DeviceLogic
import Activity
import App
import CLI
import Store
import HelperCommands

/// The store's commands: `log`, `goals`, `metric`, `task`, `export`, `demo-data` (`import` is
/// HelperCommands' `ImportCommand`).
public enum DataCommands {
    /// The store's commands' statuses, with a command's own words for some of them.
    static func storeExits(_ own: ExitStatusNote...) -> [ExitStatusNote] {
        storeExits.map { note in own.first { $0.code == note.code } ?? note } + own.filter { o in !storeExits.contains { $0.code == o.code } }
    }

    static let storeExits = [
        ExitStatusNote(.ok, "done"),
        ExitStatusNote(.dataError, "bad data, or --db is not a Glance store (left as it is)"),
        ExitStatusNote(.noInput, "no store (a command that only reads)"),
        ExitStatusNote(.cannotCreate, "the store cannot be made there (a command that writes)"), ExitStatusNote(.ioError, "a read or write failed"),
        ExitStatusNote(.temporaryFailure, "the store is busy; try again"),
        ExitStatusNote(.noPermission, "the store (or its folder) may not be opened or written by this user"),
    ]

    // MARK: glance log

    static let log = CommandSpec<StoreJobs.Log>(
        "log", summary: "set a day's Move, Exercise and Stand figures",
        usage: ["log [--date D] [--move V] [--move-goal G] [--exercise V] … [--db PATH]"],
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
                    .value(
                        "--move-mode", as: Value.choice(MoveMode.self, expected: "activeEnergy or moveTime"),
                        help: "what the Move ring measures. Without it, giving --move-goal or --move-time-goal infers "
                            + "the mode as for an import (move time when there is a move-time goal and no energy goal); "
                            + "otherwise the day keeps its mode", to: \.changes.moveMode),
                    .flag("--remove", help: "remove the day's summary (every ring empty)", sets: \.changes.remove),
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

    // MARK: glance goals

    struct Goals {
        var goals = Activity.Goals()
        var dashed = false
        var from: CalendarDay?
        var database: String?
        var config: String?
        var job = StoreJobs.GoalsJob.list
    }

    static let goals = CommandSpec<Goals>(
        "goals", summary: "set or list the standing goals, each from the date it starts",
        usage: ["goals set [--move G] [--exercise G] [--stand G] [--from D] [--db PATH]", "goals [list] | glance goals remove --from D"],
        about: StoreJobs.goalsAbout,
        groups: [
            OptionGroup(
                "",
                note: "A goal is 0 (no progress: an iPhone-only day's Exercise and Stand) or from 1 up: energy to "
                    + "100000 (kcal or kJ), minutes to 1440, hours to 24.",
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
                    .value("--from", as: Value.day,
                        help: "the date they start: YYYY-MM-DD, today or yesterday", default: "today", to: \.from),
                    CommonOptions.store(\.database),
                    PanelCommands.configOption.lifted(\.config),
                ])
        ],
        operands: Operands(
            "set|list|remove",
            verbs: [
                .init("set", ["--move", "--exercise", "--stand", "--from"]) { (_, line) throws(UsageError) in
                    guard !line.dashed else { throw UsageError("goals set: a goal is a number (0 for none), not -") }
                    guard !line.goals.isEmpty else { throw UsageError("goals set: give at least one goal, e.g. --move 500") }
                    line.job = .set(line.goals, from: line.from)
                },
                .init("list"),
                .init("remove", ["--from"]) { (_, line) throws(UsageError) in
                    guard let from = line.from else { throw UsageError("goals remove: say which with --from D") }
                    line.job = .remove(from: from)
                },
            ], common: ["--db", "--config"], defaultVerb: "list"),
        epilogue: "Examples:\n  glance goals set --move 500 --exercise 30 --stand 12\n  glance goals set --move 600 --from 2026-12-07",
        exits: storeExits(
            ExitStatusNote(.dataError, "remove: no goals set from that date; or --db is not a Glance store (left as it is)"),
            ExitStatusNote(.noInput, "list, remove: no store yet; or a configuration named with --config cannot be read"))
            + [ExitStatusNote(.config, "the configuration (where the default goals come from) is invalid")])

    // MARK: glance metric

    struct Metric {
        var json = false
        var minimum = FieldChange<Double>.keep
        var maximum = FieldChange<Double>.keep
        var unit = FieldChange<String>.keep
        var database: String?
        var job = StoreJobs.MetricJob.list
    }

    static let metric = CommandSpec<Metric>(
        "metric", summary: "set, list or remove the numbers gauges show",
        usage: [
            "metric set NAME VALUE [--min X] [--max Y] [--unit U] [--db PATH]", "metric list [--db PATH]",
            "metric remove NAME [--db PATH]",
        ],
        about: StoreJobs.metricAbout,
        groups: [
            OptionGroup(
                "",
                [
                    .value("--min", as: Value.clearableReal("X"),
                        help: "the gauge's range, low end (- clears it); min must be below max", to: \.minimum),
                    .value("--max", as: Value.clearableReal("Y"), help: "the high end (- clears it)", to: \.maximum),
                    .value("--unit", as: Value.unit, help: "shown after the value, e.g. °C or % (- clears it)", to: \.unit),
                    .flag(
                        "--json",
                        help: "list: one JSON document, {\"metrics\": [{\"name\", \"value\", \"min\", \"max\", \"unit\", \"updated\"}]} (null where unset; updated in seconds since 1970)", sets: \.json),
                    CommonOptions.store(\.database),
                ])
        ],
        operands: Operands(
            "set|list|remove [NAME [VALUE]]",
            verbs: [
                .init("set", ["--min", "--max", "--unit"], operands: "NAME VALUE") { (words, line) throws(UsageError) in
                    let value = words[1] == "-" ? nil : try Value.real(words[1], option: "VALUE")
                    line.job = .set(name: words[0], value: value, minimum: line.minimum, maximum: line.maximum, unit: line.unit)
                },
                .init("list", ["--json"]), .init("remove", operands: "NAME") { words, line in line.job = .remove(words[0]) },
            ], common: ["--db"]),
        epilogue: "Examples:\n  glance metric set cpu-temperature 47.5 --min 20 --max 90 --unit °C\n  glance metric list --json | jq '.metrics[].name'",
        exits: storeExits(
            ExitStatusNote(.dataError, "remove: no such metric; or --db is not a Glance store (left as it is)"),
            ExitStatusNote(.noInput, "list, remove: no store yet")))

    // MARK: glance task

    struct Task {
        var total = FieldChange<Double>.keep
        var done: Double?
        var description = FieldChange<String>.keep
        var cancellable = false
        var pid: Int32?
        var failed = false
        var database: String?
        var json = false
        var job = StoreJobs.TaskJob.list
    }

    static let task = CommandSpec<Task>(
        "task", summary: "start, update, finish or cancel work shown on the progress screen",
        usage: [
            "task start NAME [--total N] [--description TEXT] [--cancellable] [--pid PID]",
            "task update NAME [--done N] [--total N|unknown] [--description TEXT]",
            "task finish NAME [--failed] [--description TEXT]", "task cancel NAME", "task list | glance task remove NAME",
        ],
        about: StoreJobs.taskAbout,
        groups: [
            OptionGroup(
                "",
                [
                    .value("--total", as: Value.total,
                        help: "the amount of work (any unit: bytes, files, steps); start, update", to: \.total),
                    .value("--done", as: Value.amount, help: "how much is done; update", to: \.done),
                    .value("--description", as: Value.text, help: "e.g. \"Copying photos — 41 %\"; start, update, finish") {
                        $0.description = $1.isEmpty ? .clear : .set($1)
                    },
                    .flag("--cancellable", help: "the work can be stopped without harm (offer Cancel); start", sets: \.cancellable),
                    .value("--pid", as: Value.pid,
                        help: "the process doing the work: if it dies the task counts as failed; start", to: \.pid),
                    .flag("--failed", help: "the work failed; finish", sets: \.failed),
                    .flag(
                        "--json",
                        help: "list: one JSON document, {\"tasks\": [{\"name\", \"state\", \"done\", \"total\", \"fraction\", \"description\", \"cancellable\", \"cancelRequested\", \"pid\", \"started\", \"updated\"}]}", sets: \.json),
                    CommonOptions.store(\.database),
                ])
        ],
        operands: Operands(
            "start|update|finish|cancel|list|remove [NAME]",
            verbs: [
                .init("start", ["--total", "--description", "--cancellable", "--pid"], operands: "NAME") { words, line in
                    let total: Double? = if case .set(let t) = line.total { t } else { nil }
                    let text: String? = if case .set(let d) = line.description { d } else { nil }
                    line.job = .start(name: words[0], total: total, description: text, cancellable: line.cancellable, pid: line.pid)
                },
                .init("update", ["--done", "--total", "--description"], operands: "NAME") { words, line in
                    line.job = .update(name: words[0], done: line.done, total: line.total, description: line.description)
                },
                .init("finish", ["--failed", "--description"], operands: "NAME") { words, line in
                    line.job = .finish(name: words[0], failed: line.failed, description: line.description)
                },
                .init("cancel", operands: "NAME") { words, line in line.job = .cancel(words[0]) },
                .init("list", ["--json"]), .init("remove", operands: "NAME") { words, line in line.job = .remove(words[0]) },
            ], common: ["--db"]),
        exits: storeExits(ExitStatusNote(.cancelled, "update: someone asked the task to stop (Cancel, glance task cancel): stop")))

    // MARK: glance export

    struct Export {
        var csv = false
        var json = false
        var table = Store.Table.days
        var output: String?
        var database: String?
    }

    static let export = CommandSpec<Export>(
        "export", summary: "write the store's days, metrics or tasks as CSV or JSON",
        usage: ["export --csv|--json [--table days|metrics|tasks] [--output FILE] [--db PATH]"],
        about: StoreJobs.exportAbout,
        groups: [
            OptionGroup(
                "",
                [
                    .flag("--csv", help: "CSV", sets: \.csv),
                    .flag("--json", help: "JSON (one document)", sets: \.json),
                    .value("--table", as: Value.choice(Store.Table.self, expected: "days, metrics or tasks"),
                        help: "which table", default: "days", to: \.table),
                    .value("--output", "-o", as: Value.output("FILE", extensions: ["csv"]),
                        help: "write FILE instead of standard output", to: \.output),
                    CommonOptions.store(\.database),
                ])
        ],
        exits: [
            ExitStatusNote(.ok, "written"),
            ExitStatusNote(.dataError, "--db is not a Glance store (left as it is)"), ExitStatusNote(.noInput, "no store"),
            ExitStatusNote(.cannotCreate, "FILE cannot be created"),
            ExitStatusNote(
                .ioError, "standard output or FILE could not be written whole (a full disk, say; the message says why)"),
            ExitStatusNote(.temporaryFailure, "the store is busy, try again"),
            ExitStatusNote(.noPermission, "the store may not be opened by this user"),
        ],
        finish: { (line) throws(UsageError) in
            guard line.csv != line.json else { throw UsageError("export: say --csv or --json (one of them)") }
        })

    // MARK: glance demo-data

    static let demoData = CommandSpec<StoreJobs.DemoDataLine>(
        "demo-data", summary: "load the bundled demo days and metrics into the store",
        usage: ["demo-data [--end D] [--print] [--db PATH]"],
        about: StoreJobs.demoDataAbout,
        groups: [
            OptionGroup(
                "",
                [
                    .value("--end", as: Value.day,
                        help: "the date of the last demo day: YYYY-MM-DD, today or yesterday", default: "today", to: \.end),
                    .flag("--print", help: "print the bundled days as CSV instead of loading them", sets: \.printOnly),
                    CommonOptions.store(\.database),
                ])
        ],
        exits: storeExits)
}

