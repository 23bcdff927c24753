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
/// ten times a second, to the task row at most four times a second) and notices requests to stop.
final class ImportMonitor {
    let store: Store
    let taskName: String?
    let progress: ((ImportProgress) -> Void)?
    let shouldStop: (() -> Bool)?
    let started = monotonicSeconds()
    var total: Int64?
    var days = 0
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
    func tick(_ position: Int64) throws(StoreError) {
        let now = monotonicSeconds()
        guard now - lastReport >= Self.reportInterval else { return }
        lastReport = now
        let snapshot = ImportProgress(bytesDone: position, bytesTotal: total, days: days, elapsed: now - started)
        progress?(snapshot)
        if shouldStop?() == true {
            throw StoreError(.cancelled, "import stopped by a signal")
        }
        guard let taskName, now - lastTask >= Self.taskInterval else { return }
        lastTask = now
        let task: ProgressTask
        do {
            task = try store.updateTask(
                taskName, done: Double(position), description: .set(Self.describe(snapshot.fraction)))
        } catch  where error.kind == .busy {
            return  // another writer held the store for 5 s: skip this report, not the import
        }
        if task.cancelRequested {
            throw StoreError(.cancelled, "import cancelled (task \(taskName))")
        }
    }

    /// A last report at the end (100 % on the terminal).
    func finish(_ position: Int64) {
        progress?(
            ImportProgress(bytesDone: position, bytesTotal: total, days: days, elapsed: monotonicSeconds() - started))
    }
}
