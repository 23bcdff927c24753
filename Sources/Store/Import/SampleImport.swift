import Activity

/// What an import of samples did.
public struct SampleImportReport: Sendable {
    /// Samples new, changed (a sample of the same metric, hour and source had another value) and
    /// unchanged.
    public var counts = Store.SampleCounts()
    /// Days with samples, and the first and last of them.
    public var days = 0
    public var firstDay: CalendarDay?
    public var lastDay: CalendarDay?
    public var seconds = 0.0
    public init() {}
}

extension HealthImport {
    /// Imports samples a reader outside the store gathers whole from a file (Gadgetbridge's
    /// database), all or nothing like every import: `read` reads everything first, while the
    /// store is untouched (it is given `check`, to call now and then with the fraction read: it
    /// reports progress on the terminal and the task row, and throws `.cancelled` when the import
    /// is to stop); then one transaction keeps the samples (`putSamples`), runs `alsoKeep` (what
    /// the store cannot take as samples yet) and ends the import's task. A failure, a cancel or a
    /// `kill -9` leaves the store as it was; only the task row says how the import ended.
    /// `size`: the file's, for the progress bar.
    public static func runSamples(
        size: Int64?, into store: Store, options: ImportOptions,
        read: (_ check: (Double) throws(StoreError) -> Void) throws(StoreError) -> [Store.Sample],
        alsoKeep: (Store) throws(StoreError) -> Void = { _ throws(StoreError) in }
    ) throws(StoreError) -> SampleImportReport {
        let monitor = ImportMonitor(store: store, options: options)
        monitor.total = size
        if let taskName = options.taskName {
            try store.startTask(
                taskName, total: nil, description: ImportMonitor.describe(nil), cancellable: true, pid: monitor.pid)
        }
        do throws(StoreError) {
            let whole = Double(size ?? 0)
            let samples = try read { (fraction) throws(StoreError) in
                try monitor.tick(Int64((whole * min(max(fraction, 0), 1)).rounded()))
            }
            let days = Set(samples.map(\.day))
            monitor.days = days.count
            monitor.finish(size ?? 0)
            var report = SampleImportReport()
            report.counts = try store.transaction { () throws(StoreError) -> Store.SampleCounts in
                let counts = try store.putSamples(samples)
                try alsoKeep(store)
                if let taskName = options.taskName {
                    let plural = days.count == 1 ? "" : "s"
                    try store.finishOwnedTask(
                        taskName, pid: monitor.pid, state: .done, description: "Imported \(days.count) day\(plural)")
                }
                return counts
            }
            report.days = days.count
            report.firstDay = days.min()
            report.lastDay = days.max()
            report.seconds = monotonicSeconds() - monitor.started
            return report
        } catch {
            fail(store, options, error, pid: monitor.pid)
            throw error
        }
    }
}
