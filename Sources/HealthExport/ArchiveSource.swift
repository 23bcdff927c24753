import Activity
import Store
import CArchive

/// The `export.xml` inside an `export.zip` from the Health app, streamed out of the zip by
/// libarchive (nothing is unpacked to disk). A regular file is opened by name (libarchive then
/// reads the zip's central directory); a stream (standard input, a FIFO) is read as it comes.
final class ArchiveSource: ByteSource {
    let name: String
    let total: Int64?
    private(set) var position: Int64 = 0
    private let archive: OpaquePointer
    private let zipName: String
    private let entryName: String
    /// What libarchive reads a streamed zip from.
    private let feed: Feed
    private var finished = false
    /// Why the input could not be read (a signal, a read error): that reason, not libarchive's,
    /// is what the import reports.
    private var inputFailure: StoreError? { feed.failure }

    /// The input as libarchive's read callback sees it.
    final class Feed {
        let input: InputFile
        var failure: StoreError?
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        init(_ input: InputFile) { self.input = input }
        deinit { chunk.deallocate() }

        /// The next bytes of the input, or -1 (the reason kept).
        func read(_ buffer: UnsafeMutablePointer<UnsafeRawPointer?>?) -> Int {
            do throws(StoreError) {
                let n = try input.read(into: chunk.baseAddress!, count: chunk.count)
                buffer?.pointee = UnsafeRawPointer(chunk.baseAddress!)
                return n
            } catch {
                failure = failure ?? error
                return -1
            }
        }
    }

    /// Opens the zip and finds `apple_health_export/export.xml` (or an `export.xml` at the top or
    /// one folder down, for exports that were unpacked and zipped again).
    init(input: InputFile) throws(StoreError) {
        let feed = Feed(input)
        self.feed = feed
        zipName = input.name
        var inputFailure: StoreError? { feed.failure }
        guard let archive = archive_read_new() else { throw StoreError(.io, "\(input.name): libarchive: out of memory") }
        self.archive = archive
        archive_read_support_format_zip(archive)
        var entry: OpaquePointer?
        var found: String?
        do throws(StoreError) {
            let opened: Int32
            if let path = input.path {
                opened = archive_read_open_filename(archive, path, 1 << 20)
            } else {
                // `feed` lives as long as the archive: the callback may use it unretained.
                let context = Unmanaged.passUnretained(feed).toOpaque()
                opened = archive_read_open(archive, context, nil, { _, context, buffer in
                    Unmanaged<Feed>.fromOpaque(context!).takeUnretainedValue().read(buffer)
                }, nil)
            }
            guard opened == ARCHIVE_OK else {
                throw inputFailure ?? StoreError(.badData, "\(input.name): cannot open as a zip: \(Self.message(archive))")
            }
            var seen: [String] = []
            while true {
                let rc = archive_read_next_header(archive, &entry)
                if rc == ARCHIVE_EOF { break }
                guard rc == ARCHIVE_OK || rc == ARCHIVE_WARN, entry != nil else {
                    throw inputFailure ?? StoreError(.badData, "\(input.name): damaged zip: \(Self.message(archive))")
                }
                let entryName = archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
                if Self.isExport(entryName) {
                    found = entryName
                    break
                }
                if seen.count < 5 { seen.append(Quote.clip(entryName)) }
                archive_read_data_skip(archive)
            }
            guard let found, let entry else {
                let listing =
                    seen.isEmpty
                    ? "it is empty" : "it holds \(seen.joined(separator: ", "))\(seen.count == 5 ? ", …" : "")"
                throw StoreError(
                    .badData,
                    "\(input.name): no apple_health_export/export.xml inside (\(listing)); give the export.zip the Health app made, or its export.xml"
                )
            }
            if archive_entry_is_encrypted(entry) != 0 {
                throw StoreError(
                    .badData,
                    "\(input.name): \(Quote.clip(found)) is encrypted (a zip with a password; the Health app makes none): "
                        + "unzip it with its password and import the export.xml")
            }
        } catch {
            archive_read_free(archive)
            throw error
        }
        entryName = found!
        name = "\(input.name) (\(Quote.clip(found!)))"
        total = archive_entry_size_is_set(entry) != 0 ? archive_entry_size(entry) : nil
    }

    deinit { archive_read_free(archive) }

    static func isExport(_ name: String) -> Bool {
        let parts = name.split(separator: "/")
        guard let last = parts.last, last == "export.xml", parts.count <= 2 else { return false }
        return !name.hasPrefix("__MACOSX/")
    }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(StoreError) -> Int {
        guard !finished else { return 0 }
        let n = archive_read_data(archive, buffer, count)
        guard n >= 0 else {
            if let inputFailure { throw inputFailure }
            let message = Self.message(archive)
            let why =
                message.lowercased().contains("encrypt")
                ? "the zip is encrypted (unzip it with its password and import the export.xml)"
                : "the zip is damaged or cut short"
            throw StoreError(.badData, "\(name): cannot unpack: \(Quote.clip(message, 80)) (\(why))")
        }
        position += Int64(n)
        if n == 0 {
            finished = true
            try checkNoOtherExport()
        }
        return n
    }

    /// After the export: the rest of the zip holds no second export.xml (which would leave it
    /// unclear which one is meant: they used to be read first come, first taken).
    private func checkNoOtherExport() throws(StoreError) {
        var entry: OpaquePointer?
        while true {
            let rc = archive_read_next_header(archive, &entry)
            if rc == ARCHIVE_EOF { return }
            guard rc == ARCHIVE_OK || rc == ARCHIVE_WARN, entry != nil else {
                throw inputFailure ?? StoreError(.badData, "\(zipName): damaged zip: \(Quote.clip(Self.message(archive), 80))")
            }
            let other = archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
            if Self.isExport(other) {
                throw StoreError(
                    .badData,
                    "\(zipName): it holds two exports, \(Quote.clip(entryName)) and \(Quote.clip(other)); "
                        + "unzip it and import the export.xml you mean")
            }
            archive_read_data_skip(archive)
        }
    }

    private static func message(_ archive: OpaquePointer) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? "unknown error"
    }
}
