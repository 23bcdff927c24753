import Feeds
import HealthExport
import Platform
import Store

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `glance import`'s work, in glance-import (libxml2 and libarchive are linked here only): an Apple
/// Health export (`HealthImport`), or Gadgetbridge's export (`GadgetbridgeJob`).
enum ImportJob {
    /// Imports `file` all or nothing. Ctrl-C, SIGTERM and SIGHUP are taken through a signalfd and
    /// noticed between chunks, so the import stops cleanly (exit 75, the days unchanged) instead of
    /// dying mid-way; one that comes too late to stop it is taken, not delivered afterwards.
    static func run(
        _ file: String, skipInvalid: Bool, taskName: String?, showProgress: Bool, database: String?, person: String? = nil,
        console: Console
    ) -> Outcome {
        let signals: SignalReceiver
        do {
            signals = try SignalReceiver([SIGINT, SIGTERM, SIGHUP])
        } catch {
            console.complain(error.description)
            return Outcome.software
        }
        let stop = StopSignals(signals)
        let status = importFile(
            file, skipInvalid: skipInvalid, taskName: taskName, showProgress: showProgress, database: database, person: person,
            console: console, stop: stop)
        // One that came after the last check (during the merge, say) is taken here, not delivered
        // when the mask is restored: its default action would kill us after the work was done.
        stop.drain()
        if let late = stop.signal, status == Outcome.ok {
            console.complain("\(signalName(late)) came when the import was already complete; its days are in the store")
        }
        return status
    }

    /// The signals that stop an import, noticed between its chunks: the first one taken is kept.
    final class StopSignals {
        let receiver: SignalReceiver
        private(set) var signal: Int32?
        init(_ receiver: SignalReceiver) { self.receiver = receiver }

        /// Whether one came (taken from the receiver when pending).
        func check() -> Bool {
            if signal == nil, let taken = try? receiver.next() { signal = taken }
            return signal != nil
        }

        /// Takes every pending one (the first kept).
        func drain() {
            _ = check()
            while let late = try? receiver.next() { signal = signal ?? late }
        }
    }

    /// Imports `file` all or nothing into the store at `database` (the default place when nil), as
    /// the days and samples of `person` (`--person NAME|ID`; nil: person 1), stopped by `stop`'s
    /// signals; says what it did on `console`. The exit status.
    static func importFile(
        _ file: String, skipInvalid: Bool, taskName: String?, showProgress: Bool, database: String?, person: String? = nil,
        console: Console, stop: StopSignals
    ) -> Outcome {
        var options = ImportOptions()
        options.skipInvalid = skipInvalid
        options.taskName = taskName
        options.shouldStop = { stop.check() }
        options.wake = stop.receiver.descriptor.rawValue
        options.readings = readings
        let shown = file == "-" ? "standard input" : file
        // A store this import makes is removed again when the import fails: "the store is
        // unchanged" must leave no empty store behind where there was none.
        let target = try? storePath(database)
        let existed = target.map(fileExists) ?? true
        var bar = ProgressBar(console: console, label: "importing \(file == "-" ? shown : file.split(separator: "/").last.map(String.init) ?? file)")
        let drawsBar = showProgress && ProgressBar.isAvailable
        // Gadgetbridge's export is told by its content (an SQLite database), not its name.
        let gadgetbridge = GadgetbridgeJob.isSQLite(file)
        let status = StoreJobs.with(database, person: person, console: console) { store throws(StoreError) in
            let report: ImportReport
            do throws(StoreError) {
                if drawsBar { options.progress = { bar.draw($0) } }
                if gadgetbridge {
                    let line = try GadgetbridgeJob.run(file, into: store, options: options)
                    bar.finish()
                    console.say(line)
                    return Outcome.ok
                }
                report = try HealthImport.run(file, into: store, options: options)
                bar.finish()
            } catch {
                bar.finish()
                var hint: String? = nil
                switch error.kind {
                case .badData:
                    hint =
                        "nothing was imported; the store is unchanged"
                        + (error.isSkippableRow ? " (to skip bad rows and import the rest, add --skip-invalid)" : "")
                case .cancelled: hint = "nothing was imported; the store is unchanged"
                default: break
                }
                return StoreJobs.fail(error, hint, console: console)
            }
            console.say(importLine(report, file: shown))
            if report.skipped > 0 {
                var text = "skipped \(report.skipped) invalid row\(report.skipped == 1 ? "" : "s")"
                text += report.skipped > report.skippedExamples.count ? ", the first \(report.skippedExamples.count):" : ":"
                for example in report.skippedExamples { text += "\n  \(example)" }
                console.complain(text)
            }
            return Outcome.ok
        }
        if status != Outcome.ok, !existed, let target, holdsNothing(target, but: taskName) {
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(target + suffix) }
        }
        return status
    }

    /// The largest glance-readings file taken (it is read whole: a year of a reading a minute,
    /// four figures each, is about 60 MB).
    static let readingsLimit = 128 << 20

    /// A glance-readings file, read whole, as the store's samples in the board's days.
    static func readings(_ source: any ByteSource) throws(StoreError) -> [Store.Sample] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try source.read(into: &chunk, count: chunk.count)
            if n == 0 { break }
            bytes += chunk[..<n]
            guard bytes.count <= readingsLimit else {
                throw StoreError(.badData, "\(source.name): larger than \(readingsLimit >> 20) MiB, more than a readings file holds")
            }
        }
        do throws(FeedError) {
            let readings = try Readings.decode(try Located.parse(bytes))
            let samples = try readings.samples(calendar: .system).map { s in
                Store.Sample(
                    metric: s.metric, start: s.start, source: s.source, quantity: s.quantity, unit: s.unit, value: s.value, day: s.day,
                    feed: s.feed.flatMap(Store.Feed.init(rawValue:)) ?? .readings)
            }
            let steps = try readings.stepsParts(calendar: .system).map { s in
                Store.Sample(
                    metric: .steps, start: s.start, source: s.source, quantity: s.count, unit: "count", value: s.count, day: s.day,
                    feed: s.feed.flatMap(Store.Feed.init(rawValue:)) ?? .readings)
            }
            return samples + steps
        } catch {
            throw StoreError(.badData, "\(source.name): \(error)")
        }
    }

    static func importLine(_ report: ImportReport, file: String) -> String {
        var line = "imported \(report.days) day\(report.days == 1 ? "" : "s")"
        if let first = report.firstDay, let last = report.lastDay {
            line += first == last ? " (\(first))" : " (\(first) to \(last))"
        }
        line += " from \(file): \(report.newDays) new, \(report.changedDays) changed, \(report.unchangedDays) unchanged"
        line += "; \(ProgressBar.bytes(report.bytes)) in \(ProgressBar.oneDecimal(report.seconds)) s"
        return line
    }

    static func signalName(_ signal: Int32) -> String {
        signal == SIGINT ? "SIGINT (Ctrl-C)" : SignalReceiver.name(signal)
    }
}

/// Whether the store at `path` holds no day, no metric, no person but the first, and no task but
/// the import's own (so nobody else has written to the store the import made in the meantime).
private func holdsNothing(_ path: String, but task: String?) -> Bool {
    guard let store = try? Store(path: path, access: .read), (try? store.dayCount()) == 0,
        (try? store.people())?.count == 1,
        (try? store.metrics())?.isEmpty == true, let tasks = try? store.tasks()
    else { return false }
    return tasks.allSatisfy { $0.name == (task ?? "") }
}
