import Runtime
import DeviceLogic
import Activity
import Configuration
import Platform
import Store
import Clocks
import ConfigurationFile

/// `glance task`'s work, in the store's frame (`StoreJobs.with`, in Store).
extension StoreJobs {
    // MARK: glance task

    /// `glance task`'s description (its help), beside what it does.
    public static let taskAbout = """
        A task is work the progress screen shows while it runs: a bar or circle filling to done/total, or \
        a spinner while the total is unknown, with a short description and, for a cancellable task, a \
        Cancel button. Each verb also takes --db PATH.
          start      begins (or restarts) the task: nothing done, no cancel request
          update     records progress. Exits 79 when someone asked the task to stop (Cancel on
                     the screen, or glance task cancel): a script's loop can stop on that (75
                     is a busy store: try again)
          finish     ends it as done (or --failed); after a cancel request as cancelled; the
                     indicator goes away
          cancel     asks a running, cancellable task to stop (its owner stops it; an import
                     rolls back and ends as cancelled)
          list       prints every task: name, state, done/total, description
          remove     forgets a task
        """

    public enum TaskJob: Sendable {
        case start(name: String, total: Double?, description: String?, cancellable: Bool, pid: Int32?)
        case update(name: String, done: Double?, total: FieldChange<Double>, description: FieldChange<String>)
        case finish(name: String, failed: Bool, description: FieldChange<String>)
        case cancel(String)
        case list
        case remove(String)
    }

    public static func task(_ job: TaskJob, database: String?, console: Console) -> Outcome {
        let access: Store.Access
        switch job {
        case .start: access = .create
        case .list: access = .read
        case .update, .finish, .cancel, .remove: access = .write
        }
        return with(database, access: access, console: console) { store throws(StoreError) in
            switch job {
            case .start(let name, let total, let description, let cancellable, let pid):
                try store.startTask(name, total: total, description: description, cancellable: cancellable, pid: pid)
            case .update(let name, let done, let total, let description):
                let task = try store.updateTask(name, done: done, total: total, description: description)
                if task.cancelRequested {
                    console.complain(
                        "task \(task.name): cancel requested; stop the work and run glance task finish \(task.name) (it ends as cancelled)")
                    return Outcome.cancelled
                }
            case .finish(let name, let failed, let description):
                let task = try store.finishTask(name, state: failed ? .failed : .done, description: description)
                if task.state == .cancelled { console.say("task \(name) cancelled (it was asked to stop)") }
            case .cancel(let name):
                try store.requestCancel(name)
                console.say("asked task \(name) to stop")
            case .list:
                for t in try store.tasks() { try console.writeResult(describe(t) + "\n") }
            case .remove(let name):
                guard try store.removeTask(named: name) else { throw StoreError(.notFound, "no task \(name)") }
            }
            return Outcome.ok
        }
    }

    static func describe(_ t: ProgressTask) -> String {
        var line = "\(t.name) \(t.state.rawValue)"
        line += " \(NumberText.plain(t.done))/\(t.total.map(NumberText.plain) ?? "?")"
        if let f = t.fraction { line += " (\(Int((f * 100).rounded(.down))) %)" }
        // Once ended the request is in the state (a task finished after it is cancelled).
        if t.cancelRequested && t.state == .running { line += " cancel-requested" }
        if let d = t.description { line += " — \(d)" }
        return line
    }
}
