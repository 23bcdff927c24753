#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// How far an import is, for a progress bar.
public struct ImportProgress: Sendable {
    public var bytesDone: Int64
    /// nil when the size is unknown.
    public var bytesTotal: Int64?
    /// Days read so far.
    public var days: Int
    /// Seconds since the import started.
    public var elapsed: Double

    public var fraction: Double? {
        guard let total = bytesTotal, total > 0 else { return nil }
        return min(max(Double(bytesDone) / Double(total), 0), 1)
    }
}

/// The import's heartbeat: called as bytes are read, it reports progress (to the terminal at most
/// ten times a second, to the task row at most four times a second) and notices requests to stop,
/// and a task row that was removed or ended by someone else (a cancel too).
package final class ImportMonitor {
    let store: Store
    let taskName: String?
    /// This process: the owner of the task row.
    let pid = getpid()
    let progress: ((ImportProgress) -> Void)?
    let shouldStop: (() -> Bool)?
    let started = monotonicSeconds()
    var total: Int64?
    package var days = 0
    private var lastReport = -1.0
    private var lastTask = 0.0

    static let reportInterval = 0.1
    static let taskInterval = 0.25

    init(store: Store, options: ImportOptions) {
        self.store = store
        taskName = options.taskName
        progress = options.progress
        shouldStop = options.shouldStop
    }

    /// The task row's description at a fraction.
    static func describe(_ fraction: Double?) -> String {
        guard let fraction else { return "Importing health data" }
        return "Importing health data — \(Int((fraction * 100).rounded(.down))) %"
    }

    /// Called with the bytes read so far; throws `.cancelled` when the import should stop.
    package func tick(_ position: Int64) throws(StoreError) {
        let now = monotonicSeconds()
        guard now - lastReport >= Self.reportInterval else { return }
        lastReport = now
        let snapshot = ImportProgress(bytesDone: position, bytesTotal: total, days: days, elapsed: now - started)
        progress?(snapshot)
        if shouldStop?() == true {
            throw StoreError(.cancelled, "import stopped by a signal")
        }
        guard taskName != nil, now - lastTask >= Self.taskInterval else { return }
        lastTask = now
        do {
            try report(done: position, description: Self.describe(snapshot.fraction))
        } catch  where error.kind == .busy {
            return  // another writer held the store for 5 s: skip this report, not the import
        }
    }

    /// Called while the input keeps us waiting (a stream with nothing to read yet): asks
    /// `shouldStop` at once (a signal woke us), then ticks as for bytes read.
    func waiting(_ position: Int64) throws(StoreError) {
        if shouldStop?() == true {
            throw StoreError(.cancelled, "import stopped by a signal")
        }
        try tick(position)
    }

    /// Writes progress to the task row; throws `.cancelled` when someone asked the import to stop,
    /// or removed or ended its task (`glance task remove import`): either way it is to stop.
    func report(done: Int64, total: Int64? = nil, description: String) throws(StoreError) {
        guard let taskName else { return }
        let task = try store.updateOwnedTask(
            taskName, pid: pid, done: Double(done), total: total.map(Double.init), description: description)
        guard let task else { throw lostTask(taskName) }
        if task.cancelRequested {
            throw StoreError(.cancelled, "import cancelled (task \(taskName))")
        }
    }

    /// Why the task row is no longer this import's, as the error that stops it.
    private func lostTask(_ name: String) -> StoreError {
        let why: String
        if let task = try? store.task(named: name) {
            why =
                task.pid == pid
                ? "was ended (\(task.state.rawValue)) by another process" : "was restarted by another process"
        } else {
            why = "was removed"
        }
        return StoreError(.cancelled, "import cancelled: its task \(name) \(why) while it ran")
    }

    /// A last report at the end (100 % on the terminal).
    func finish(_ position: Int64) {
        progress?(
            ImportProgress(bytesDone: position, bytesTotal: total, days: days, elapsed: monotonicSeconds() - started))
    }
}
