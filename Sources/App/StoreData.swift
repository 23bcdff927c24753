import Activity
import Configuration
import Platform
import Raster
import Screens
import Store

/// The store as the app's data: days for the rings, gauges from metrics or files, the running
/// task for the progress screen. A change by any process (an import, `glance log`) wakes the
/// loop through the store watcher's descriptor; file gauges are read again on their interval.
public final class StoreData: DataSource {
    public let store: Store
    private let watcher: StoreWatcher
    private let settings: [GaugeSetting]
    private var readings: [GaugeReading]
    /// When each gauge was last read (the loop's monotonic clock).
    private var lastRead: [Duration?]
    /// File gauges are read only while the gauge screen is on the panel.
    private var fileGaugesShown = false
    private let log: (String) -> Void
    private var reported: Set<String> = []
    /// What the store said, kept until it changes: screens are drawn often (the intro, a
    /// spinner), the store changes rarely.
    private var summaryCache: [CalendarDay: ActivitySummary?] = [:]
    private var taskCache: ProgressTask??
    /// Queries made (for tests: a redraw without a change must not ask the store).
    public private(set) var queries = 0

    /// `create`: a store that does not exist is made (else: `.missing`).
    public init(path: String, create: Bool = true, gauges: [GaugeSetting], log: @escaping (String) -> Void)
        throws(StoreError)
    {
        store = try Store(path: path, create: create)
        // One connection for reading and watching (the app's own writes, a Cancel, are known).
        watcher = try StoreWatcher(store: store)
        settings = gauges
        readings = Array(repeating: GaugeReading(), count: gauges.count)
        lastRead = Array(repeating: nil, count: gauges.count)
        self.log = log
        refreshGauges(storeChanged: true, now: monotonicNow())
    }

    /// The store's source for a configured one (a file's offset is applied on reading).
    static func source(_ s: GaugeSourceSetting) -> GaugeSource {
        switch s {
        case .metric(let name): .metric(name: name)
        case .file(let path, let scale, _, let interval):
            .file(path: path, scale: scale, interval: .milliseconds(Int64((interval * 1000).rounded())))
        }
    }

    public func summary(for day: CalendarDay) -> ActivitySummary? {
        if let cached = summaryCache[day] { return cached }
        queries += 1
        do {
            let summary = try store.summary(for: day)
            remember(day, summary)
            return summary
        } catch {
            once("\(error.message)")
            return nil
        }
    }

    public func summaries(_ days: [CalendarDay]) -> [CalendarDay: ActivitySummary] {
        let missing = days.filter { summaryCache[$0] == nil }
        if let first = missing.min(), let last = missing.max() {
            queries += 1
            do {
                var found: [CalendarDay: ActivitySummary] = [:]
                for (day, summary) in try store.summaries(from: first, through: last) { found[day] = summary }
                for day in missing { remember(day, found[day]) }
            } catch {
                once("\(error.message)")
                return [:]
            }
        }
        var result: [CalendarDay: ActivitySummary] = [:]
        for day in days { if let summary = summaryCache[day] ?? nil { result[day] = summary } }
        return result
    }

    private func remember(_ day: CalendarDay, _ summary: ActivitySummary?) {
        if summaryCache.count > 400 { summaryCache.removeAll() }
        summaryCache[day] = .some(summary)
    }

    public func gauges(now: Duration) -> [Gauge] {
        zip(settings, readings).map { setting, reading in
            var value = reading.value
            if case .file(_, _, let offset, _) = setting.source, let v = value { value = v + offset }
            // The range: the configuration's, else the source's (a metric's), else 0…100; one that
            // mixes both the wrong way round is the configuration's (checked when it was read).
            var low = setting.givenMinimum ?? reading.minimum ?? setting.minimum
            var high = setting.givenMaximum ?? reading.maximum ?? setting.maximum
            if !(high > low) { (low, high) = (setting.minimum, setting.maximum) }
            return Gauge(
                style: setting.style, value: value, minimum: low, maximum: high,
                title: setting.title, unit: setting.unit.isEmpty ? (reading.unit ?? "") : setting.unit,
                tint: setting.tint)
        }
    }

    /// The first running task, from the cache while the store has not changed.
    public func runningTask() -> ProgressTask? {
        if let cached = taskCache { return cached }
        queries += 1
        let task = (try? store.runningTasks())?.first
        taskCache = .some(task)
        return task
    }

    public func task() -> ProgressContent? {
        guard let task = runningTask() else { return nil }
        let amount: ProgressAmount = task.fraction.map { .determinate($0) } ?? .indeterminate
        let label = task.description ?? task.name
        return ProgressContent(
            amount: amount, style: .circular, label: label, cancellable: task.cancellable && !task.cancelRequested)
    }

    public func cancelTask() {
        guard let task = runningTask() else { return }
        do {
            _ = try store.requestCancel(task.name)
            taskCache = nil
        } catch {
            log("cancel \(task.name): \(error.message)")
        }
    }

    public var descriptors: [FileDescriptor] { [FileDescriptor(rawValue: watcher.fileDescriptor)] }

    public var endReason: String? { watcher.replaced ? watcher.replacedMessage : nil }

    public func handle(ready: [FileDescriptor], now: Duration) -> Bool {
        let changed = watcher.changed()
        if changed {
            summaryCache.removeAll()
            taskCache = nil
        }
        let before = readings
        refreshGauges(storeChanged: changed, now: now)
        return changed || readings != before
    }

    /// Every gauge read again now (files too, when shown), the store's answers forgotten.
    public func refresh(now: Duration) -> Bool {
        summaryCache.removeAll()
        taskCache = nil
        lastRead = Array(repeating: nil, count: settings.count)
        let before = readings
        refreshGauges(storeChanged: true, now: now)
        return readings != before
    }

    public func showGauges(_ shown: Bool, now: Duration) -> Bool {
        guard shown != fileGaugesShown else { return false }
        fileGaugesShown = shown
        guard shown else { return false }
        let before = readings
        refreshGauges(storeChanged: false, now: now)
        return readings != before
    }

    public func nextDeadline(now: Duration) -> Duration? {
        var deadlines: [Duration] = []
        if fileGaugesShown {
            for (i, setting) in settings.enumerated() {
                if let next = Self.source(setting.source).nextRefresh(lastRead: lastRead[i], now: now) {
                    deadlines.append(next)
                }
            }
        }
        let timeout = watcher.pollTimeout
        if timeout >= 0 { deadlines.append(now + .milliseconds(Int64(timeout))) }
        return deadlines.min()
    }

    /// Reads the gauges that are due: metrics when the store changed, files on their interval
    /// while they are on screen.
    private func refreshGauges(storeChanged: Bool, now: Duration) {
        for (i, setting) in settings.enumerated() {
            let source = Self.source(setting.source)
            if case .file = source, !fileGaugesShown { continue }
            guard source.isDue(lastRead: lastRead[i], now: now, storeChanged: storeChanged) else { continue }
            readings[i] = source.read(store: store)
            lastRead[i] = now
            if let problem = readings[i].problem { once("gauge \(i + 1) (\(setting.title)): \(problem)") }
        }
    }

    /// Logs a problem once (the loop asks again and again).
    private func once(_ message: String) {
        if reported.insert(message).inserted { log(message) }
    }
}
