import CArchive

/// The `export.xml` inside an `export.zip` from the Health app, streamed out of the zip by
/// libarchive (nothing is unpacked to disk).
final class ArchiveSource: ByteSource {
    let name: String
    let total: Int64?
    private(set) var position: Int64 = 0
    private let archive: OpaquePointer

    /// Opens the zip and finds `apple_health_export/export.xml` (or an `export.xml` at the top or
    /// one folder down, for exports that were unpacked and zipped again).
    init(path: String) throws(StoreError) {
        guard let archive = archive_read_new() else { throw StoreError(.io, "\(path): libarchive: out of memory") }
        self.archive = archive
        archive_read_support_format_zip(archive)
        guard archive_read_open_filename(archive, path, 1 << 20) == ARCHIVE_OK else {
            let message = Self.message(archive)
            archive_read_free(archive)
            throw StoreError(.badData, "\(path): cannot open as a zip: \(message)")
        }
        var entry: OpaquePointer?
        var found: String?
        var seen: [String] = []
        while true {
            let rc = archive_read_next_header(archive, &entry)
            if rc == ARCHIVE_EOF { break }
            guard rc == ARCHIVE_OK || rc == ARCHIVE_WARN, let entry else {
                let message = Self.message(archive)
                archive_read_free(archive)
                throw StoreError(.badData, "\(path): damaged zip: \(message)")
            }
            let entryName = archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
            if Self.isExport(entryName) {
                found = entryName
                break
            }
            if seen.count < 5 { seen.append(entryName) }
            archive_read_data_skip(archive)
        }
        guard let found, let entry else {
            archive_read_free(archive)
            let listing =
                seen.isEmpty ? "it is empty" : "it holds \(seen.joined(separator: ", "))\(seen.count == 5 ? ", …" : "")"
            throw StoreError(
                .badData,
                "\(path): no apple_health_export/export.xml inside (\(listing)); give the export.zip the Health app made, or its export.xml"
            )
        }
        name = "\(path) (\(found))"
        total = archive_entry_size_is_set(entry) != 0 ? archive_entry_size(entry) : nil
    }

    deinit { archive_read_free(archive) }

    static func isExport(_ name: String) -> Bool {
        let parts = name.split(separator: "/")
        guard let last = parts.last, last == "export.xml", parts.count <= 2 else { return false }
        return !name.hasPrefix("__MACOSX/")
    }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(StoreError) -> Int {
        let n = archive_read_data(archive, buffer, count)
        guard n >= 0 else {
            throw StoreError(
                .badData, "\(name): cannot unpack: \(Self.message(archive)) (the zip is damaged or cut short)")
        }
        position += Int64(n)
        return n
    }

    private static func message(_ archive: OpaquePointer) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? "unknown error"
    }
}
