import Configuration
import DeviceLogic
import Activity
import Runtime
import CLI
import Store
import HelperCommands

/// `glance task`: its declaration; the work is `StoreJobs.task` (and `ScriptJSON.tasks`), beside it.
extension DataCommands {
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
}
