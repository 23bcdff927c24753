import Activity
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A piece of work the progress screen shows: how far it is, what it is doing, whether it can be
/// cancelled and whether someone asked it to stop.
public struct ProgressTask: Sendable, Equatable {
    public enum State: String, Sendable, CaseIterable {
        case running, done, failed, cancelled
    }

    public var name: String
    public var done: Double
    /// nil while the amount of work is unknown (an indeterminate indicator).
    public var total: Double?
    /// A short line such as "Importing health data — 41 %".
    public var description: String?
    public var cancellable: Bool
    public var cancelRequested: Bool
    public var state: State
    /// The process doing the work, when it registered one; a dead owner means the task was abandoned.
    public var pid: Int32?
    public var started: Int64
    public var updated: Int64

    /// done / total in 0...1; nil when the total is unknown (indeterminate).
    public var fraction: Double? {
        guard let total, total > 0, total.isFinite else { return nil }
        let f = done / total
        guard !f.isNaN else { return nil }
        return min(max(f, 0), 1)
    }
}

extension Store {
    private static let taskColumns =
        "name, done, total, description, cancellable, cancel_requested, state, pid, started, updated"

    /// Starts (or restarts) a task: state running, nothing done, no cancel request.
    ///
    /// Fails with `.busy` when a task of that name is running and its owner is alive.
    @discardableResult
    public func startTask(_ name: String, total: Double?, description: String?, cancellable: Bool, pid: Int32? = nil)
        throws(StoreError) -> ProgressTask
    {
        try Self.checkName(name, what: "task")
        try Self.checkAmount(total, name: name, what: "total")
        try Self.checkText(description, "task \(name): description", characters: TextLimit.description)
        return try transaction { () throws(StoreError) -> ProgressTask in
            if let old = try task(named: name), old.state == .running, Self.isAlive(old.pid) {
                let owner = old.pid.map { " (process \($0))" } ?? ""
                throw StoreError(.busy, "task \(name) is already running\(owner); finish or cancel it first")
            }
            let now = unixTime()
            let task = ProgressTask(
                name: name, done: 0, total: total, description: description,
                cancellable: cancellable, cancelRequested: false, state: .running, pid: pid, started: now, updated: now)
            try db.prepare("INSERT OR REPLACE INTO tasks (\(Self.taskColumns)) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)")
                .bind(
                    .text(name), .real(0), .optional(total), .optional(description), .bool(cancellable), .bool(false),
                    .text(ProgressTask.State.running.rawValue), pid.map { .integer(Int64($0)) }, .integer(now),
                    .integer(now)
                )
                .run()
            return task
        }
    }

    /// Records progress of a running task; returns the task, whose `cancelRequested` tells the
    /// worker to stop.
    @discardableResult
    public func updateTask(
        _ name: String, done: Double? = nil, total: FieldChange<Double> = .keep,
        description: FieldChange<String> = .keep
    ) throws(StoreError) -> ProgressTask {
        try Self.checkAmount(done, name: name, what: "done")
        if case .set(let t) = total { try Self.checkAmount(t, name: name, what: "total") }
        if case .set(let d) = description { try Self.checkText(d, "task \(name): description", characters: TextLimit.description) }
        return try transaction { () throws(StoreError) -> ProgressTask in
            guard var task = try task(named: name) else {
                throw StoreError(.notFound, "no task \(name) (start it with glance task start \(name))")
            }
            guard task.state == .running else {
                throw StoreError(.invalidArgument, "task \(name) is \(task.state.rawValue), not running")
            }
            if let done { task.done = done }
            task.total = total.applied(to: task.total)
            task.description = description.applied(to: task.description)
            task.updated = unixTime()
            try db.prepare("UPDATE tasks SET done = ?2, total = ?3, description = ?4, updated = ?5 WHERE name = ?1")
                .bind(
                    .text(name), .real(task.done), .optional(task.total), .optional(task.description),
                    .integer(task.updated)
                )
                .run()
            return task
        }
    }

    /// Ends a task as done, failed or cancelled (a finished task stays listed until removed or
    /// restarted). A running task someone asked to stop that ends without failing ends as
    /// cancelled: it stopped because it was asked to, it did not get done.
    @discardableResult
    public func finishTask(_ name: String, state asked: ProgressTask.State, description: FieldChange<String> = .keep)
        throws(StoreError) -> ProgressTask
    {
        precondition(asked != .running, "finishTask ends a task")
        if case .set(let d) = description { try Self.checkText(d, "task \(name): description", characters: TextLimit.description) }
        return try transaction { () throws(StoreError) -> ProgressTask in
            guard var task = try task(named: name) else { throw StoreError(.notFound, "no task \(name)") }
            let state: ProgressTask.State = asked == .done && task.state == .running && task.cancelRequested ? .cancelled : asked
            if state == .done, let total = task.total { task.done = total }
            task.state = state
            task.description = description.applied(to: task.description)
            task.updated = unixTime()
            try db.prepare("UPDATE tasks SET done = ?2, state = ?3, description = ?4, updated = ?5 WHERE name = ?1")
                .bind(
                    .text(name), .real(task.done), .text(state.rawValue), .optional(task.description),
                    .integer(task.updated)
                )
                .run()
            return task
        }
    }

    /// Asks a running, cancellable task to stop (its owner sees `cancelRequested` and stops).
    @discardableResult
    public func requestCancel(_ name: String) throws(StoreError) -> ProgressTask {
        try transaction { () throws(StoreError) -> ProgressTask in
            guard var task = try task(named: name) else { throw StoreError(.notFound, "no task \(name)") }
            guard task.state == .running else {
                throw StoreError(.invalidArgument, "task \(name) is \(task.state.rawValue); there is nothing to cancel")
            }
            guard task.cancellable else {
                throw StoreError(
                    .invalidArgument, "task \(name) cannot be cancelled (it was started without --cancellable)")
            }
            task.cancelRequested = true
            try db.prepare("UPDATE tasks SET cancel_requested = 1, updated = ?2 WHERE name = ?1")
                .bind(.text(name), .integer(unixTime())).run()
            return task
        }
    }

    /// Records progress of the running task `name` that process `pid` owns (`total` nil: kept).
    /// Returns the task, whose `cancelRequested` tells the worker to stop; nil when the row is no
    /// longer the worker's (removed, ended, or restarted by another process), which should stop it too.
    func updateOwnedTask(_ name: String, pid: Int32, done: Double, total: Double? = nil, description: String)
        throws(StoreError) -> ProgressTask?
    {
        let statement = try db.prepare(
            """
            UPDATE tasks SET done = ?3, total = coalesce(?4, total), description = ?5, updated = ?6
            WHERE name = ?1 AND pid = ?2 AND state = 'running' RETURNING \(Self.taskColumns)
            """)
        statement.bind(
            .text(name), .integer(Int64(pid)), .real(done), .optional(total), .text(description),
            .integer(unixTime()))
        guard try statement.step() else { return nil }
        let task = Self.task(from: statement)
        statement.reset()
        return task
    }

    /// Ends the task `name` that process `pid` owns, with a plain UPDATE: no error when the row has
    /// gone or belongs to another process by now (the work it reported on is what counts).
    func finishOwnedTask(_ name: String, pid: Int32, state: ProgressTask.State, description: String)
        throws(StoreError)
    {
        precondition(state != .running, "finishOwnedTask ends a task")
        try db.prepare(
            """
            UPDATE tasks SET done = CASE WHEN ?3 = 'done' THEN coalesce(total, done) ELSE done END,
                state = ?3, description = ?4, updated = ?5
            WHERE name = ?1 AND pid = ?2
            """
        )
        .bind(.text(name), .integer(Int64(pid)), .text(state.rawValue), .text(description), .integer(unixTime()))
        .run()
    }

    public func task(named name: String) throws(StoreError) -> ProgressTask? {
        let statement = try db.prepare("SELECT \(Self.taskColumns) FROM tasks WHERE name = ?1")
        statement.bind(.text(name))
        guard try statement.step() else { return nil }
        return Self.task(from: statement)
    }

    /// Every task, oldest first. A running task whose owner process has died is reported failed.
    public func tasks() throws(StoreError) -> [ProgressTask] {
        let statement = try db.prepare("SELECT \(Self.taskColumns) FROM tasks ORDER BY started, name")
        var result: [ProgressTask] = []
        while try statement.step() { result.append(Self.task(from: statement)) }
        return result
    }

    /// The tasks a progress screen shows: the running ones.
    public func runningTasks() throws(StoreError) -> [ProgressTask] {
        try tasks().filter { $0.state == .running }
    }

    /// Removes a task; false if there was none.
    @discardableResult
    public func removeTask(named name: String) throws(StoreError) -> Bool {
        try db.prepare("DELETE FROM tasks WHERE name = ?1").bind(.text(name)).run()
        return db.changes > 0
    }

    private static func task(from row: Statement) -> ProgressTask {
        var task = ProgressTask(
            name: row.text(0) ?? "", done: row.double(1) ?? 0, total: row.double(2),
            description: row.text(3).map(Self.readText),
            cancellable: row.int64(4) == 1, cancelRequested: row.int64(5) == 1,
            state: row.text(6).flatMap { ProgressTask.State(rawValue: $0) } ?? .failed,
            pid: row.int64(7).map { Int32(truncatingIfNeeded: $0) }, started: row.int64(8) ?? 0,
            updated: row.int64(9) ?? 0)
        if task.state == .running && !isAlive(task.pid) {
            task.state = .failed
            task.description = "stopped unexpectedly (process \(task.pid ?? 0) is gone)"
        }
        return task
    }

    /// A description as the store hands it out: at most `TextLimit.description` characters, its
    /// control characters shown as `?`, whatever wrote it (sqlite3, an older Glance).
    static func readText(_ text: String) -> String {
        guard TextLimit.problem(text, characters: TextLimit.description) != nil else { return text }
        var out = ""
        for c in text.prefix(TextLimit.description) {
            out += c.unicodeScalars.contains(where: Quote.isControl) ? "?" : String(c)
        }
        return out
    }

    /// Whether the owner is alive (a task without an owner process counts as alive).
    static func isAlive(_ pid: Int32?) -> Bool {
        guard let pid, pid > 0 else { return true }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    static func checkAmount(_ amount: Double?, name: String, what: String) throws(StoreError) {
        if let amount, !(amount.isFinite && amount >= 0 && amount <= Metric.limit) {
            throw StoreError(.invalidArgument, "task \(name): \(what) must be a number from 0 to 10^15")
        }
    }
}
