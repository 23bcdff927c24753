import Store

/// `glance task`: work in progress, shown on the progress screen.
struct TaskCommand {
    enum Action: String { case start, update, finish, cancel, list, remove }
    var action = Action.list
    var store = StoreSelection()
    var name: String?
    var done: Double?
    var total = FieldChange<Double>.keep
    var description = FieldChange<String>.keep
    var cancellable = false
    var pid: Int32?
    var failed = false

    static let help = """
        Usage: glance task start NAME [--total N] [--description TEXT] [--cancellable] [--pid PID]
               glance task update NAME [--done N] [--total N|unknown] [--description TEXT]
               glance task finish NAME [--failed] [--description TEXT]
               glance task cancel NAME
               glance task list | glance task remove NAME
          (each also takes --db PATH)

        A task is work the progress screen shows while it runs: a bar or circle filling to
        done/total, or a spinner while the total is unknown, with a short description and, for a
        cancellable task, a Cancel button.

          start      begins (or restarts) the task: nothing done, no cancel request
          update     records progress. Exits 75 when someone asked the task to stop (Cancel on
                     the screen, or glance task cancel): a script's loop can stop on that
          finish     ends it as done (or --failed); the indicator goes away
          cancel     asks a running, cancellable task to stop (its owner stops it; an import
                     rolls back and ends as cancelled)
          list       prints every task: name, state, done/total, description
          remove     forgets a task

          --total N|unknown    the amount of work (any unit: bytes, files, steps)
          --done N             how much is done
          --description TEXT   e.g. "Copying photos — 41 %"
          --cancellable        the work can be stopped without harm (offer Cancel)
          --pid PID            the process doing the work: if it dies the task counts as failed
        """

    static func parse(_ argv: [String]) throws(UsageError) -> TaskCommand? {
        var command = TaskCommand()
        var args = Arguments(argv)
        var plain: [String] = []
        var given: Set<String> = []
        while let item = try args.next() {
            switch item {
            case .plain(let text): plain.append(text)
            case .option(let option):
                if option == "--help" || option == "-h" { return nil }
                if try command.store.parse(option, &args) { continue }
                given.insert(option)
                switch option {
                case "--total":
                    let text = try args.value(for: option)
                    command.total =
                        text == "unknown"
                        ? .clear : .set(try Parse.quantity(Substring(text), option: option, whole: text))
                case "--done":
                    let text = try args.value(for: option)
                    command.done = try Parse.quantity(Substring(text), option: option, whole: text)
                case "--description":
                    let text = try args.value(for: option)
                    command.description = text.isEmpty ? .clear : .set(text)
                case "--cancellable": command.cancellable = true
                case "--failed": command.failed = true
                case "--pid":
                    let text = try args.value(for: option)
                    guard let pid = Int32(text), pid > 0 else {
                        throw UsageError("--pid '\(text)': expected a process id")
                    }
                    command.pid = pid
                default: throw UsageError("task: unknown option '\(option)' (see glance task --help)")
                }
            }
        }
        guard let verb = plain.first, let action = Action(rawValue: verb) else {
            throw UsageError("task: give start, update, finish, cancel, list or remove (see glance task --help)")
        }
        command.action = action
        let operands = plain.dropFirst()
        if action == .list {
            guard operands.isEmpty else { throw UsageError("task list takes no names") }
        } else {
            guard operands.count == 1 else { throw UsageError("task \(verb): give one task NAME") }
            command.name = operands.first
        }
        let allowed: Set<String> =
            switch action {
            case .start: ["--total", "--description", "--cancellable", "--pid"]
            case .update: ["--done", "--total", "--description"]
            case .finish: ["--failed", "--description"]
            case .cancel, .list, .remove: []
            }
        if let extra = given.subtracting(allowed).sorted().first {
            throw UsageError("task \(verb): \(extra) does not go with \(verb) (see glance task --help)")
        }
        return command
    }

    func run() -> Int32 {
        store.run(create: action == .start) { store throws(StoreError) in
            switch action {
            case .start:
                let total: Double? = if case .set(let t) = self.total { t } else { nil }
                let text: String? = if case .set(let d) = description { d } else { nil }
                try store.startTask(name!, total: total, description: text, cancellable: cancellable, pid: pid)
            case .update:
                let task = try store.updateTask(name!, done: done, total: total, description: description)
                if task.cancelRequested {
                    complain(
                        "task \(task.name): cancel requested; stop the work and run glance task finish \(task.name) --failed"
                    )
                    return ExitCode.temporaryFailure
                }
            case .finish:
                try store.finishTask(name!, state: failed ? .failed : .done, description: description)
            case .cancel:
                try store.requestCancel(name!)
                writeOut("asked task \(name!) to stop\n")
            case .list:
                for t in try store.tasks() { try writeResult(Self.describe(t) + "\n") }
            case .remove:
                return try removed(store.removeTask(named: name!), "task \(name!)")
            }
            return ExitCode.ok
        }
    }

    static func describe(_ t: ProgressTask) -> String {
        var line = "\(t.name) \(t.state.rawValue)"
        line += " \(Store.csvNumber(t.done))/\(t.total.map { Store.csvNumber($0) } ?? "?")"
        if let f = t.fraction { line += " (\(Int((f * 100).rounded(.down))) %)" }
        if t.cancelRequested { line += " cancel-requested" }
        if let d = t.description { line += " — \(d)" }
        return line
    }
}
