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
    private var lastRead: [ContinuousClock.Instant?]
    private let log: (String) -> Void
    private var reported: Set<String> = []

    public init(path: String, gauges: [GaugeSetting], log: @escaping (String) -> Void) throws(StoreError) {
        store = try Store(path: path)
        watcher = try StoreWatcher(path: path)
        settings = gauges
        readings = Array(repeating: GaugeReading(), count: gauges.count)
        lastRead = Array(repeating: nil, count: gauges.count)
        self.log = log
        refreshGauges(storeChanged: true)
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
        do {
            return try store.summary(for: day)
        } catch {
            once("\(error.message)")
            return nil
        }
    }

    public func summaries(_ days: [CalendarDay]) -> [CalendarDay: ActivitySummary] {
        guard let first = days.min(), let last = days.max() else { return [:] }
        do {
            let found = try store.summaries(from: first, through: last)
            var result: [CalendarDay: ActivitySummary] = [:]
            for (day, summary) in found where days.contains(day) { result[day] = summary }
            return result
        } catch {
            once("\(error.message)")
            return [:]
        }
    }

    public func gauges(now: Duration) -> [Gauge] {
        zip(settings, readings).map { setting, reading in
            var value = reading.value
            if case .file(_, _, let offset, _) = setting.source, let v = value { value = v + offset }
            return Gauge(
                style: setting.style, value: value, minimum: setting.minimum, maximum: setting.maximum,
                title: setting.title, unit: setting.unit.isEmpty ? (reading.unit ?? "") : setting.unit, tint: setting.tint)
        }
    }

    public func task() -> ProgressContent? {
        guard let task = (try? store.runningTasks())?.first else { return nil }
        let amount: ProgressAmount = task.fraction.map { .determinate($0) } ?? .indeterminate
        let label = task.description ?? task.name
        return ProgressContent(amount: amount, style: .circular, label: label, cancellable: task.cancellable && !task.cancelRequested)
    }

    public func cancelTask() {
        guard let task = (try? store.runningTasks())?.first else { return }
        do {
            _ = try store.requestCancel(task.name)
        } catch {
            log("cancel \(task.name): \(error.message)")
        }
    }

    public var descriptors: [FileDescriptor] { [FileDescriptor(rawValue: watcher.fileDescriptor)] }

    public func handle(ready: [FileDescriptor], now: Duration) -> Bool {
        let changed = watcher.changed()
        let before = readings
        refreshGauges(storeChanged: changed)
        return changed || readings != before
    }

    public func nextDeadline(now: Duration) -> Duration? {
        let clockNow = ContinuousClock.now
        var deadlines: [Duration] = []
        for (i, setting) in settings.enumerated() {
            if let next = Self.source(setting.source).nextRefresh(lastRead: lastRead[i], now: clockNow) {
                deadlines.append(now + (next - clockNow))
            }
        }
        let timeout = watcher.pollTimeout
        if timeout >= 0 { deadlines.append(now + .milliseconds(Int64(timeout))) }
        return deadlines.min()
    }

    private func refreshGauges(storeChanged: Bool) {
        let now = ContinuousClock.now
        for (i, setting) in settings.enumerated() {
            let source = Self.source(setting.source)
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
