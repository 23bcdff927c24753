import Activity
import Clocks
import Gadgetbridge
import Store

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `glance import` of Gadgetbridge's export: its SQLite database, read whole and read-only
/// (module Gadgetbridge), its minutes turned into hourly samples of the rings by
/// `Gadgetbridge.Rings`' rules on the board's local days (TZ), kept all or nothing
/// (`HealthImport.runSamples`).
enum GadgetbridgeJob {
    /// Whether `path` is a regular file that starts as an SQLite database does (told by content,
    /// not by name; a stream is never read here, so nothing of it is consumed).
    static func isSQLite(_ path: String) -> Bool {
        guard path != "-" else { return false }
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return false }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 16)
        let n = head.withUnsafeMutableBytes { read(fd, $0.baseAddress, 16) }
        return n == 16 && Export.isSQLite(head: head)
    }

    /// Imports the export at `path` into `store`; the line to say.
    static func run(_ path: String, into store: Store, options: ImportOptions) throws(StoreError) -> String {
        var st = stat()
        let size: Int64? = stat(path, &st) == 0 ? Int64(st.st_size) : nil
        var days: [DayFigures] = []
        var devices: [String] = []
        var stepGoal: Int?
        let report = try HealthImport.runSamples(
            size: size, into: store, options: options,
            read: { (check) throws(StoreError) -> [Store.Sample] in
                var stop: StoreError?
                let export: Export
                do throws(GadgetbridgeError) {
                    export = try Export.read(path) { fraction in
                        do throws(StoreError) {
                            try check(fraction)
                            return true
                        } catch {
                            stop = error
                            return false
                        }
                    }
                } catch {
                    if error.kind == .stopped, let stop { throw stop }
                    throw storeError(error)
                }
                let rings = Rings.figures(export, zone: SystemLocalClock())
                days = rings.days
                devices = export.devices.map { $0.device.name }
                stepGoal = export.stepGoal
                return rings.samples.map(storeSample)
            },
            alsoKeep: { (store) throws(StoreError) in try keepStepGoal(stepGoal, days: days, in: store) })
        return line(report, days: days, devices: devices, file: path, bytes: size ?? 0)
    }

    /// The band's own step goal (Gadgetbridge's `USER_ATTRIBUTES.STEPS_GOAL_SPD`) as the
    /// standing step goal from the first day with Move in steps, when the store has none of its
    /// own in force there (one set with `glance goals set --steps` stays; so does a later
    /// import's, once set): called in the import's transaction.
    static func keepStepGoal(_ goal: Int?, days: [DayFigures], in store: Store) throws(StoreError) {
        guard let goal, goal >= 1, let first = days.filter(\.moveIsSteps).map(\.day).min() else { return }
        let history = try store.goalHistory()
        guard history.allSatisfy({ $0.goals.steps == nil }) else { return }
        try store.setGoals(Goals(steps: Double(min(goal, 250_000))), from: first)
    }

    /// A sample as the store keeps it (energy in kcal, exercise in minutes, stand in hours,
    /// steps), through the Gadgetbridge feed.
    static func storeSample(_ sample: HourSample) -> Store.Sample {
        let metric = sample.metric.sampleMetric
        let unit: String =
            switch metric {
            case .activeEnergy: "kcal"
            case .exerciseTime: "min"
            case .standHours: "hr"
            case .steps: "count"
            }
        return Store.Sample(
            metric: metric, start: sample.start, source: sample.source, quantity: sample.value, unit: unit, value: sample.value,
            day: sample.day, feed: .gadgetbridge)
    }

    /// The store's error for a file Gadgetbridge's reader refused (its message names the file).
    static func storeError(_ error: GadgetbridgeError) -> StoreError {
        switch error.kind {
        case .missing: StoreError(.missing, error.description)
        case .unreadable: StoreError(.io, error.description)
        case .stopped: StoreError(.cancelled, error.description)
        case .notSQLite, .damaged, .notGadgetbridge, .badTimestamps, .badValue: StoreError(.badData, error.description)
        }
    }

    static func line(_ report: SampleImportReport, days: [DayFigures], devices: [String], file: String, bytes: Int64) -> String {
        var line = "imported \(report.days) day\(report.days == 1 ? "" : "s")"
        if let first = report.firstDay, let last = report.lastDay {
            line += first == last ? " (\(first))" : " (\(first) to \(last))"
        }
        line += " from \(file) (Gadgetbridge"
        line += devices.isEmpty ? ": no device with activity)" : ": \(devices.map { Quote.clip($0, 40) }.joined(separator: ", ")))"
        let c = report.counts
        line += ": \(c.new + c.changed + c.unchanged) samples, \(c.new) new, \(c.changed) changed, \(c.unchanged) unchanged"
        line += "; \(ProgressBar.bytes(bytes)) in \(ProgressBar.oneDecimal(report.seconds)) s"
        let inSteps = Set(days.filter(\.moveIsSteps).map(\.source))
        if !inSteps.isEmpty {
            let goal = days.first(where: \.moveIsSteps).map {
                $0.stepGoalIsDefault ? "the standing step goal (glance goals; goals.steps)" : "the band's goal of \($0.stepGoal)"
            } ?? ""
            line += "\nMove is steps for \(inSteps.sorted().map { Quote.clip($0, 60) }.joined(separator: ", ")) (no energy in its data), "
            line += "against \(goal)"
        }
        return line
    }
}
