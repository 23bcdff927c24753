import Clocks
import Activity
import Configuration
import DeviceLogic
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
    /// The gauges' values: metrics from this store, files, commands, MQTT.
    public let feed: GaugeFeed
    private let log: (String) -> Void
    private var reported: Set<String> = []
    /// What the store said, kept until it changes: screens are drawn often (the intro, a
    /// spinner), the store changes rarely.
    private var summaryCache: [CalendarDay: ActivitySummary?] = [:]
    /// The running task and what the progress screen shows of it, while `taskKnown` (asked
    /// since the store changed).
    private var taskKnown = false
    private var taskCache: ProgressTask?
    private var contentCache: ProgressContent?
    /// The goals a day without its own and before any standing goals is shown with (the
    /// configuration's `goals`).
    public var defaultGoals: Goals {
        didSet {
            summaryCache.removeAll()
            householdCache = nil
        }
    }
    /// Queries made (for tests: a redraw without a change must not ask the store).
    public private(set) var queries = 0

    /// `access`: `.create` (glance run, watch) makes a store that does not exist; `.read`
    /// (render) opens it read-only and never makes one (`.missing`). `wallClock`: the gauges'
    /// (tests give a made-up one, with the session's made-up time). `checkLater`: the store's
    /// check is left to `finishOpening()` (`Store`'s `checkLater`: glance run's first frame).
    public init(
        path: String, access: Store.Access = .create, gauges: [GaugeSetting],
        goals: Goals = GoalSetting().standing, wallClock: @escaping () -> Double = wallClockNow,
        checkLater: Bool = false, log: @escaping (String) -> Void
    ) throws(StoreError) {
        defaultGoals = goals
        store = try Store(path: path, access: access, checkLater: checkLater)
        // One connection for reading and watching (the app's own writes, a Cancel, are known).
        watcher = try StoreWatcher(store: store)
        watched = [FileDescriptor(rawValue: watcher.fileDescriptor)]
        feed = GaugeFeed(settings: gauges, wallClock: wallClock, log: log)
        self.log = log
        _ = feed.readMetrics(store)
    }

    /// What the opening left for later (`checkLater`): the store's check, which throws the
    /// damage the opening would have. A no-op once it has passed.
    public func finishOpening() throws(StoreError) {
        try store.finishOpening()
    }

    /// Whether the store has no day yet (asked once until it changes).
    public var isEmpty: Bool {
        if let known = emptyCache { return known }
        queries += 1
        let empty = (try? !store.hasDays()) ?? false
        emptyCache = empty
        return empty
    }
    private var emptyCache: Bool?

    public func summary(for day: CalendarDay) -> ActivitySummary? {
        if let cached = summaryCache[day] { return cached }
        queries += 1
        do {
            let summary = try store.shownSummary(for: day, defaults: defaultGoals)
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
                for shown in try store.shownDays(from: first, through: last, defaults: defaultGoals) { found[shown.day] = shown.summary }
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

    /// The household's people with their shown days among `days` (each person's goals, their
    /// own samples), read once until the store changes.
    public func household(_ days: [CalendarDay]) -> [HouseholdPerson] {
        if let cached = householdCache, cached.days == days { return cached.people }
        queries += 1
        defer { store.person = 1 }
        do {
            var people: [HouseholdPerson] = []
            for person in try store.people() {
                store.person = person.id
                var shown: [CalendarDay: ActivitySummary] = [:]
                if let first = days.min(), let last = days.max() {
                    let wanted = Set(days)
                    for entry in try store.shownDays(from: first, through: last, defaults: defaultGoals) where wanted.contains(entry.day) {
                        let day = entry.day, summary = entry.summary
                        shown[day] = summary
                    }
                }
                people.append(
                    HouseholdPerson(id: person.id, name: person.name, colour: person.colour, lastPush: person.lastPush, days: shown))
            }
            householdCache = (days, people)
            return people
        } catch {
            once("\(error.message)")
            return []
        }
    }
    private var householdCache: (days: [CalendarDay], people: [HouseholdPerson])?

    private func remember(_ day: CalendarDay, _ summary: ActivitySummary?) {
        if summaryCache.count > 400 { summaryCache.removeAll() }
        summaryCache[day] = .some(summary)
    }

    public func gauges(now: Duration) -> [Gauge] { feed.gauges() }

    /// The first running task, from the cache while the store has not changed.
    public func runningTask() -> ProgressTask? {
        lookForTask()
        return taskCache
    }

    /// What the progress screen shows of the running task, made once per look at the store (the
    /// controller asks for it twice a frame while the spinner turns).
    public func task() -> ProgressContent? {
        lookForTask()
        return contentCache
    }

    private func lookForTask() {
        guard !taskKnown else { return }
        queries += 1
        let task = (try? store.runningTasks())?.first
        taskCache = task
        contentCache = task.map { task in
            ProgressContent(
                amount: task.fraction.map { .determinate($0) } ?? .indeterminate, style: .circular,
                label: task.description ?? task.name, cancellable: task.cancellable && !task.cancelRequested,
                cancelling: task.cancelRequested)
        }
        taskKnown = true
    }

    public func cancelTask() {
        guard let task = runningTask() else { return }
        do {
            _ = try store.requestCancel(task.name)
            taskKnown = false
        } catch {
            log("cancel \(task.name): \(error.message)")
        }
    }

    /// The watcher's descriptor, made once (the loop asks for the descriptors before every sleep).
    private let watched: [FileDescriptor]

    public var descriptors: [FileDescriptor] {
        let feeds = feed.descriptors
        return feeds.isEmpty ? watched : watched + feeds
    }

    public var endReason: String? { watcher.replaced ? watcher.replacedMessage : nil }

    public func handle(ready: [FileDescriptor], now: Duration) -> Bool {
        // The store is looked at when the watcher says something happened in its folder, or when
        // a look it put off is due; not on every turn of the loop (each frame of a spinner).
        let changed = (ready.contains(watched[0]) || watcher.pollTimeout == 0) && watcher.changed()
        if changed {
            summaryCache.removeAll()
            householdCache = nil
            emptyCache = nil
            taskKnown = false
        }
        let metrics = changed ? feed.readMetrics(store) : false
        let gauges = feed.handle(ready: ready, now: now)
        if changed || metrics {
            lastChange = .store
        } else if gauges {
            lastChange = .gauges
        }
        return changed || metrics || gauges
    }

    /// What the last change that was found came from: the store, or a gauge's own source (MQTT,
    /// a file, a command), as `glance watch` says beside each picture.
    public private(set) var lastChange = DataChange.store

    /// Every gauge read again now (files and commands too, when shown), the store's answers
    /// forgotten.
    public func refresh(now: Duration) -> Bool {
        summaryCache.removeAll()
        householdCache = nil
        emptyCache = nil
        taskKnown = false
        let metrics = feed.readMetrics(store)
        return feed.refresh(now: now) || metrics
    }

    public func showGauges(_ shown: Bool, now: Duration) -> Bool { feed.show(shown, now: now) }

    public func nextDeadline(now: Duration) -> Duration? {
        let timeout = watcher.pollTimeout
        return earliest(feed.nextDeadline(now: now), timeout >= 0 ? now + .milliseconds(Int64(timeout)) : nil)
    }

    public func preference(_ name: String) -> String? {
        do {
            return try store.preference(name)
        } catch {
            once("\(error.message)")
            return nil
        }
    }

    public func keep(_ values: [(name: String, value: String?)]) {
        do {
            try store.setPreferences(values)
        } catch {
            once("cannot keep \(values.map(\.name).joined(separator: ", ")) in the store: \(error.message)")
        }
    }

    /// Logs a problem once (the loop asks again and again).
    private func once(_ message: String) {
        if reported.insert(message).inserted { log(message) }
    }
}
