/// Reads the CSV form of Activity summaries: a header naming the `ActivitySummary` attributes
/// (`dateComponents,activeEnergyBurned,…`), then one day per row. Empty cells are missing values;
/// quoted cells (RFC 4180) are accepted; unknown columns are ignored.
final class HealthCSVReader {
    let source: any ByteSource
    let monitor: ImportMonitor
    let collector: DayCollector

    init(source: any ByteSource, monitor: ImportMonitor, collector: DayCollector) {
        self.source = source
        self.monitor = monitor
        self.collector = collector
    }

    deinit { chunk.deallocate() }

    private let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    private var chunkStart = 0
    private var chunkEnd = 0
    private var line = 1

    /// A byte read one too far (after a CR, to see whether LF follows).
    private var pending: UInt8?

    /// The longest record read (64 KB; a day's row is about 100 bytes): the reader's memory stays
    /// the same whatever the file holds.
    static let maxRecord = 64 << 10

    private func nextByte() throws(StoreError) -> UInt8? {
        if let b = pending {
            pending = nil
            return b
        }
        if chunkStart == chunkEnd {
            let n = try source.read(into: chunk.baseAddress!, count: chunk.count)
            try monitor.tick(source.position)
            if n == 0 { return nil }
            chunkStart = 0
            chunkEnd = n
        }
        defer { chunkStart += 1 }
        return chunk[chunkStart]
    }

    /// After a CR: takes the LF of a CRLF; any other byte is kept for later.
    private func skipLineFeed() throws(StoreError) {
        guard let b = try nextByte() else { return }
        if b != 10 { pending = b }
    }

    /// One record: its cells with their 1-based columns, and the line it starts on; nil at the end.
    /// A line ends with LF, CRLF or a lone CR (as old Mac software writes).
    private func nextRecord() throws(StoreError) -> (cells: [(text: String, column: Int)], line: Int)? {
        var cells: [(text: String, column: Int)] = []
        var cell: [UInt8] = []
        var column = 1
        var cellColumn = 1
        let startLine = line
        var quoted = false
        var wasQuoted = false
        var any = false
        var length = 0
        while true {
            guard let b = try nextByte() else {
                if quoted {
                    throw StoreError(
                        .badData,
                        "\(source.name):\(startLine):\(cellColumn): a quoted cell is not closed (the file looks cut short)"
                    )
                }
                if !any { return nil }
                break
            }
            any = true
            length += 1
            if length > Self.maxRecord {
                throw StoreError(
                    .badData,
                    "\(source.name):\(startLine):1: a record longer than \(Self.maxRecord >> 10) KB (a day's row is about "
                        + "100 bytes): this is not the CSV form of Activity summaries, or it is damaged")
            }
            if quoted {
                if b == UInt8(ascii: "\"") {
                    quoted = false
                } else {
                    if b == 10 || b == 13 {
                        if b == 13 { try skipLineFeed() }
                        line += 1
                        column = 0
                    }
                    cell.append(b == 13 ? 10 : b)
                }
                column += 1
                continue
            }
            if b == UInt8(ascii: "\"") {
                if wasQuoted || cell.isEmpty {
                    if wasQuoted { cell.append(b) }  // "" inside quotes is one quote
                    quoted = true
                    wasQuoted = true
                    column += 1
                    continue
                }
            }
            if b == UInt8(ascii: ",") {
                cells.append((String(decoding: cell, as: UTF8.self), cellColumn))
                cell.removeAll(keepingCapacity: true)
                wasQuoted = false
                column += 1
                cellColumn = column
                continue
            }
            if b == 10 || b == 13 {
                if b == 13 { try skipLineFeed() }
                line += 1
                break
            }
            cell.append(b)
            column += 1
        }
        cells.append((String(decoding: cell, as: UTF8.self), cellColumn))
        return (cells, startLine)
    }

    func run() throws(StoreError) {
        // The header, skipping blank lines and a UTF-8 byte order mark.
        var header: [(text: String, column: Int)] = []
        var headerLine = 1
        while let record = try nextRecord() {
            if record.cells.count == 1 && record.cells[0].text.isEmpty { continue }
            header = record.cells
            headerLine = record.line
            break
        }
        guard !header.isEmpty else {
            throw StoreError(
                .badData, "\(source.name): the file is empty (expected a header line starting with dateComponents)")
        }
        if header[0].text.hasPrefix("\u{FEFF}") { header[0].text.removeFirst() }
        var columns: [ExportField?] = []
        for cell in header {
            columns.append(ExportField(rawValue: String(cell.text.trimmingWhitespace)))
        }
        guard columns.contains(.dateComponents) else {
            throw StoreError(
                .badData,
                "\(source.name):\(headerLine):1: the header has no dateComponents column (expected the ActivitySummary CSV form: dateComponents,activeEnergyBurned,…)"
            )
        }
        // Glance's own export says each day's source; an empty cell there is a day of unknown source.
        let sourceGiven = columns.contains(.source)
        while let record = try nextRecord() {
            if record.cells.count == 1 && record.cells[0].text.isEmpty { continue }  // blank line
            guard record.cells.count == columns.count else {
                let column = record.cells.last.map { $0.column } ?? 1
                try collector.reject(
                    "\(record.cells.count) cells where the header has \(columns.count) (a cut-short or damaged row)",
                    at: "\(source.name):\(record.line):\(column)")
                continue
            }
            var fields = ExportDayFields()
            if sourceGiven { fields.source = "" }
            var bad = false
            for (cell, column) in zip(record.cells, columns) {
                guard let column, !cell.text.isEmpty else { continue }
                do {
                    try fields.set(column, String(cell.text.trimmingWhitespace))
                } catch {
                    try collector.reject(error.message, at: "\(source.name):\(record.line):\(cell.column)")
                    bad = true
                    break
                }
            }
            if bad { continue }
            monitor.days += 1
            try collector.add(fields, at: "\(source.name):\(record.line):1")
        }
    }
}
