import Activity

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// How to import.
public struct ImportOptions {
    /// Skip rows that cannot be read (and count them) instead of failing.
    public var skipInvalid = false
    /// The task the import shows itself as (nil: none). Cancelling it stops the import.
    public var taskName: String? = "import"
    /// Called with progress at most ten times a second.
    public var progress: ((ImportProgress) -> Void)?
    /// Asked with each progress report; true stops the import (e.g. Ctrl-C was pressed).
    public var shouldStop: (() -> Bool)?
    /// Days added to every date read (the demo data set ends today).
    public var dateShift = 0
    /// A descriptor that becomes readable when `shouldStop` may have turned true (the signalfd
    /// of SIGINT and SIGTERM): waiting for a stream's bytes also waits on it.
    public var wake: Int32?
    /// Reads a glance-readings file (JSON) whole into samples: given by glance-import, whose
    /// Feeds module knows the format; without it such a file is refused.
    package var readings: Readings?
    package typealias Readings = (any ByteSource) throws(StoreError) -> [Store.Sample]

    public init() {}
}

/// What an import did.
public struct ImportReport: Sendable {
    public var format: HealthImport.Format
    /// Days read (after duplicates within the file collapsed).
    public var days = 0
    public var newDays = 0
    public var changedDays = 0
    public var unchangedDays = 0
    public var firstDay: CalendarDay?
    public var lastDay: CalendarDay?
    /// Rows skipped with `skipInvalid`, and the first few reasons (`file:line:column: what`).
    public var skipped = 0
    public var skippedExamples: [String] = []
    /// Bytes read (of the XML inside a zip).
    public var bytes: Int64 = 0
    public var seconds = 0.0
}

/// Imports Apple Health data into the store: `export.xml`, the `export.zip` the Health app
/// makes, or the CSV form of Activity summaries.
///
/// All or nothing: the days are gathered aside and merged in one transaction at the end, so a
/// failure, a cancel or a `kill -9` leaves the days exactly as they were (the task row records how
/// the import ended). Re-importing the same file changes nothing.
public enum HealthImport {
    public enum Format: String, Sendable {
        case xml, zip, csv
        /// A glance-readings file (docs/data.md): samples, not days.
        case readings
    }

    package static func format(head: [UInt8], name: String) throws(StoreError) -> Format {
        guard !head.isEmpty else { throw StoreError(.badData, "\(name): the file is empty") }
        if head.starts(with: Array("SQLite format 3".utf8) + [0]) {
            // glance-import takes a named SQLite file (Gadgetbridge's export) before it gets here.
            throw StoreError(
                .badData,
                "\(name): an SQLite database (Gadgetbridge's export?), which is read from a file, not a stream; give its path")
        }
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06]) { return .zip }
        if XMLEncoding.detect(head) != .utf8 { return .xml }  // UTF-16, with or without a byte order mark
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let firstText = bytes.first { ![9, 10, 13, 32].contains($0) }
        if firstText == UInt8(ascii: "<") { return .xml }
        if firstText == UInt8(ascii: "{") { return .readings }
        let text = String(decoding: bytes, as: UTF8.self)
        let firstLine = text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r" }).first
        if text.hasPrefix("dateComponents") || firstLine?.contains("dateComponents") == true {
            return .csv
        }
        throw StoreError(
            .badData,
            "\(name): not an Apple Health export (expected export.xml, export.zip or a CSV whose header starts with dateComponents) "
                + "nor Gadgetbridge's (an SQLite database) nor a glance-readings file (JSON)"
        )
    }

    /// Imports the file at `path` (`-`: standard input) with `readers` for its XML and zip forms
    /// (the module HealthExport's `run(_:into:options:)` gives libxml2's and libarchive's): its
    /// format is told from its first bytes. A stream (standard input, a named pipe) is read as it
    /// comes; while the import waits for it, `options.wake` (a signalfd) and `shouldStop` are
    /// watched, so a signal stops it at once.
    package static func run(_ path: String, into store: Store, options: ImportOptions, readers: ExportReaders)
        throws(StoreError) -> ImportReport
    {
        let input = try InputFile(path: path)
        return try run(into: store, options: options, xml: readers.xml) { (monitor) throws(StoreError) -> (Format, any ByteSource) in
            input.wake = options.wake
            // Unowned: the input keeps this closure, and must not keep itself (nor, through the
            // monitor, the store, whose last close checkpoints its WAL).
            input.idle = { [unowned input] () throws(StoreError) in try monitor.waiting(input.position) }
            let format = try format(head: try input.peek(512), name: input.name)
            switch format {
            case .zip: return (format, try readers.zip(input))
            case .xml, .csv, .readings: return (format, input)
            }
        }
    }

    /// Imports CSV held in memory (the bundled demo data set).
    public static func run(csv bytes: [UInt8], name: String, into store: Store, options: ImportOptions)
        throws(StoreError) -> ImportReport
    {
        try run(into: store, options: options, xml: nil) { _ throws(StoreError) -> (Format, any ByteSource) in
            (.csv, MemorySource(bytes, name: name))
        }
    }

    static func run(
        into store: Store, options: ImportOptions, xml: ExportReaders.XML?,
        open: (ImportMonitor) throws(StoreError) -> (Format, any ByteSource)
    ) throws(StoreError) -> ImportReport {
        let monitor = ImportMonitor(store: store, options: options)
        if let taskName = options.taskName {
            try store.startTask(
                taskName, total: nil, description: ImportMonitor.describe(nil), cancellable: true,
                pid: monitor.pid)
        }
        let format: Format
        let collector: DayCollector
        let source: any ByteSource
        do {
            (format, source) = try open(monitor)
            monitor.total = source.total
            if let total = source.total {
                try monitor.report(done: 0, total: total, description: ImportMonitor.describe(0))
            }
            collector = try DayCollector(db: store.db, person: store.person, skipInvalid: options.skipInvalid, dateShift: options.dateShift)
            if format == .csv { collector.source = "CSV file" }
        } catch {
            fail(store, options, error, pid: monitor.pid)
            throw error
        }
        do throws(StoreError) {
            switch format {
            case .xml, .zip:
                guard let xml else { throw StoreError(.badData, "\(format.rawValue): this program reads no export of that form (glance import does)") }
                try xml(source, monitor, collector)
            case .csv:
                try HealthCSVReader(source: source, monitor: monitor, collector: collector).run()
            case .readings:
                break
            }
            var samples: [Store.Sample] = []
            if format == .readings {
                guard let readings = options.readings else {
                    throw StoreError(.badData, "\(source.name): a glance-readings file: this program reads none (glance import does)")
                }
                samples = try readings(source)
            }
            monitor.finish(source.position)
            var report = ImportReport(format: format)
            let counts =
                format == .readings
                ? try merge(samples, into: store, taskName: options.taskName, pid: monitor.pid)
                : try merge(collector, into: store, taskName: options.taskName, pid: monitor.pid)
            collector.discard()
            report.days = counts.days
            report.newDays = counts.new
            report.changedDays = counts.changed
            report.unchangedDays = counts.unchanged
            report.firstDay = counts.first
            report.lastDay = counts.last
            report.skipped = collector.skipped
            report.skippedExamples = collector.skippedExamples
            report.bytes = source.position
            report.seconds = monotonicSeconds() - monitor.started
            return report
        } catch {
            collector.discard()
            fail(store, options, error, pid: monitor.pid)
            throw error
        }
    }

    /// Merges the gathered days and marks the task done, in one transaction. Once the file is read
    /// the import commits: a task row removed or ended by someone else in that last instant does
    /// not stop it (the row, if any is left, is updated; a missing one is no error).
    static func merge(_ collector: DayCollector, into store: Store, taskName: String?, pid: Int32)
        throws(StoreError) -> DayCollector.MergeCounts
    {
        try store.transaction { () throws(StoreError) -> DayCollector.MergeCounts in
            let counts = try collector.merge()
            if let taskName {
                let plural = counts.days == 1 ? "" : "s"
                try store.finishOwnedTask(
                    taskName, pid: pid, state: .done, description: "Imported \(counts.days) day\(plural)")
            }
            return counts
        }
    }

    /// Keeps a readings file's samples (a sample of the same metric, start and source as one kept
    /// replaces it, as a push's) and marks the task done, in one transaction; counts the days
    /// whose shown figures are new, changed or unchanged.
    static func merge(_ samples: [Store.Sample], into store: Store, taskName: String?, pid: Int32)
        throws(StoreError) -> DayCollector.MergeCounts
    {
        try store.transaction { () throws(StoreError) -> DayCollector.MergeCounts in
            var counts = DayCollector.MergeCounts()
            let touched = Set(samples.map(\.day))
            if let first = touched.min(), let last = touched.max() {
                func shown() throws(StoreError) -> [CalendarDay: ActivitySummary] {
                    var days: [CalendarDay: ActivitySummary] = [:]
                    for entry in try store.shownDays(from: first, through: last) where touched.contains(entry.day) {
                        let day = entry.day, summary = entry.summary
                        days[day] = summary
                    }
                    return days
                }
                let before = try shown()
                try store.putSamples(samples)
                let after = try shown()
                for day in touched {
                    if before[day] == nil {
                        counts.new += 1
                    } else if before[day] != after[day] {
                        counts.changed += 1
                    } else {
                        counts.unchanged += 1
                    }
                }
                (counts.days, counts.first, counts.last) = (touched.count, first, last)
            }
            if let taskName {
                let plural = counts.days == 1 ? "" : "s"
                try store.finishOwnedTask(
                    taskName, pid: pid, state: .done, description: "Imported \(counts.days) day\(plural)")
            }
            return counts
        }
    }

    /// Marks the import's task failed or cancelled (best effort: the error that got us here wins).
    static func fail(_ store: Store, _ options: ImportOptions, _ error: StoreError, pid: Int32) {
        guard let taskName = options.taskName else { return }
        let state: ProgressTask.State = error.kind == .cancelled ? .cancelled : .failed
        let text = state == .cancelled ? "Import cancelled; nothing was changed" : "Import failed; nothing was changed"
        try? store.finishOwnedTask(taskName, pid: pid, state: state, description: text)
    }
}

/// How an export's XML and its zip are read: given by the module HealthExport (libxml2,
/// libarchive), so that a program that imports only CSV (glance demo-data, glance run) does not
/// link them.
package struct ExportReaders {
    package typealias Zip = (InputFile) throws(StoreError) -> any ByteSource
    package typealias XML = (any ByteSource, ImportMonitor, DayCollector) throws(StoreError) -> Void
    package var zip: Zip
    package var xml: XML
    package init(zip: @escaping Zip, xml: @escaping XML) {
        self.zip = zip
        self.xml = xml
    }
}
