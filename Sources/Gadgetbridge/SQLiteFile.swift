import Activity
import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A Gadgetbridge export opened for reading only: `SQLITE_OPEN_READONLY` and `immutable=1`, so
/// SQLite takes no lock, makes no `-journal`, `-wal` or `-shm` beside it and writes nothing into
/// it (the file may be one Syncthing is about to replace; Gadgetbridge's export is a copy, so no
/// journal of it is ever pending). Everything is read through this one connection, so a file
/// replaced under its name after the opening is still read whole as it was.
final class SQLiteFile {
    let handle: OpaquePointer
    /// The file as given, for messages.
    let name: String

    /// The first bytes of every SQLite 3 database.
    static let magic: [UInt8] = Array("SQLite format 3".utf8) + [0]

    /// Opens `path` after checking its header: an SQLite 3 database, whole pages (a copy cut short
    /// mid-page is refused here, before SQLite reads past its end).
    init(path: String) throws(GadgetbridgeError) {
        name = path
        let header = try Self.header(path)
        let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
        var db: OpaquePointer?
        let rc = sqlite3_open_v2("file:\(Self.uriPath(path))?mode=ro&immutable=1", &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_close_v2(db)
            throw GadgetbridgeError(.unreadable, file: path, "cannot open it: \(message)")
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        // Whole pages: SQLite itself would read a short last page as zeros in places and fail later,
        // or not at all for a page nothing reads.
        if header.size % Int64(header.pageSize) != 0 {
            throw GadgetbridgeError(
                .damaged, file: path,
                "the file is cut short: \(header.size) bytes is no whole number of its \(header.pageSize)-byte pages (a copy still being "
                    + "written, or a transfer that stopped); export it again from Gadgetbridge, or wait for Syncthing to finish")
        }
        if let pages = header.pages, Int64(pages) * Int64(header.pageSize) > header.size {
            throw GadgetbridgeError(
                .damaged, file: path,
                "the file is cut short: its header says \(pages) pages of \(header.pageSize) bytes, the file has \(header.size) bytes; "
                    + "export it again from Gadgetbridge, or wait for Syncthing to finish")
        }
        try checkWhole()
    }

    deinit { sqlite3_close_v2(handle) }

    /// The file's size, page size and (when the header's count is valid) page count; throws for a
    /// file that is missing, unreadable, empty or not SQLite.
    static func header(_ path: String) throws(GadgetbridgeError) -> (size: Int64, pageSize: Int, pages: UInt32?) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let why = errno
            if why == ENOENT {
                throw GadgetbridgeError(.missing, file: path, "no such file (give the path of Gadgetbridge's export, e.g. Gadgetbridge.db)")
            }
            throw GadgetbridgeError(.unreadable, file: path, "cannot open it: \(String(cString: strerror(why)))")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            throw GadgetbridgeError(.unreadable, file: path, "cannot read it: \(String(cString: strerror(errno)))")
        }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            throw GadgetbridgeError(.unreadable, file: path, "is a folder, not Gadgetbridge's export file")
        }
        var bytes = [UInt8](repeating: 0, count: 100)
        var got = 0
        while got < 100 {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, 100 - got) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else {
                throw GadgetbridgeError(.unreadable, file: path, "cannot read it: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            got += n
        }
        guard got > 0 else { throw GadgetbridgeError(.notSQLite, file: path, "the file is empty (export the database again from Gadgetbridge)") }
        guard got >= 16, Array(bytes[0..<16]) == magic else {
            throw GadgetbridgeError(
                .notSQLite, file: path,
                "not an SQLite database, so not Gadgetbridge's export (in Gadgetbridge: Settings › Data management › Export DB, "
                    + "or Auto export; the file it writes is an SQLite database)")
        }
        guard got == 100 else {
            throw GadgetbridgeError(.damaged, file: path, "the file is cut short inside its 100-byte header; export it again from Gadgetbridge")
        }
        // Bytes 16-17: the page size, big-endian; 1 means 65536.
        let raw = Int(bytes[16]) << 8 | Int(bytes[17])
        let pageSize = raw == 1 ? 65536 : raw
        guard pageSize >= 512, pageSize & (pageSize - 1) == 0 else {
            throw GadgetbridgeError(.damaged, file: path, "its header gives no valid page size (\(raw)); export it again from Gadgetbridge")
        }
        func be32(_ at: Int) -> UInt32 { bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        // Bytes 28-31: pages in the file, valid when the change counter (24) equals 92's.
        let pages = be32(28)
        let valid = pages > 0 && be32(24) == be32(92)
        return (Int64(st.st_size), pageSize, valid ? pages : nil)
    }

    /// `PRAGMA quick_check`: every page and record whole.
    private func checkWhole() throws(GadgetbridgeError) {
        let result: String?
        do {
            let check = try prepare("PRAGMA quick_check(1)")
            result = try check.step() ? check.text(0) : nil
        } catch {
            throw GadgetbridgeError(
                .damaged, file: name,
                "the database is damaged (\(error.reason)); export it again from Gadgetbridge")
        }
        if let result, result != "ok" {
            throw GadgetbridgeError(
                .damaged, file: name,
                "the database is damaged (quick_check: \(Quote.clip(result, 120))); export it again from Gadgetbridge")
        }
    }

    /// A path as the path of a `file:` URI: `%`, `?` and `#` escaped.
    static func uriPath(_ path: String) -> String {
        var out = ""
        for c in path.unicodeScalars {
            switch c {
            case "%": out += "%25"
            case "?": out += "%3f"
            case "#": out += "%23"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    func prepare(_ sql: String) throws(GadgetbridgeError) -> Row {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw failure(rc) }
        return Row(statement, file: self)
    }

    /// The error for a failed call: damage for SQLite's corruption codes, else unreadable.
    func failure(_ rc: Int32) -> GadgetbridgeError {
        let message = String(cString: sqlite3_errmsg(handle))
        switch rc & 0xFF {
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            return GadgetbridgeError(.damaged, file: name, "the database is damaged (\(Quote.clip(message, 120))); export it again from Gadgetbridge")
        case SQLITE_IOERR:
            return GadgetbridgeError(
                .damaged, file: name,
                "a read failed (\(Quote.clip(message, 120))): the file is cut short or damaged; export it again from Gadgetbridge")
        default:
            return GadgetbridgeError(.unreadable, file: name, "cannot read it: \(Quote.clip(message, 120))")
        }
    }

    /// A prepared statement, its rows read in turn.
    final class Row {
        let handle: OpaquePointer
        unowned let file: SQLiteFile

        init(_ handle: OpaquePointer, file: SQLiteFile) {
            self.handle = handle
            self.file = file
        }

        deinit { sqlite3_finalize(handle) }

        func bind(_ index: Int32, _ value: Int64) -> Row {
            sqlite3_bind_int64(handle, index, value)
            return self
        }

        func bind(_ index: Int32, _ value: String) -> Row {
            sqlite3_bind_text(handle, index, value, -1, unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self))
            return self
        }

        /// The next row: true while there is one.
        func step() throws(GadgetbridgeError) -> Bool {
            let rc = sqlite3_step(handle)
            if rc == SQLITE_ROW { return true }
            if rc == SQLITE_DONE { return false }
            throw file.failure(rc)
        }

        func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
        func int64(_ column: Int32) -> Int64? { isNull(column) ? nil : sqlite3_column_int64(handle, column) }
        func double(_ column: Int32) -> Double? { isNull(column) ? nil : sqlite3_column_double(handle, column) }
        func text(_ column: Int32) -> String? {
            guard let p = sqlite3_column_text(handle, column) else { return nil }
            let count = Int(sqlite3_column_bytes(handle, column))
            return String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
        }
        /// Whether the column holds an integer (not text, a real or a blob that SQLite would convert).
        func isInteger(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_INTEGER }
    }

    /// Table names, as sqlite_master has them.
    func tables() throws(GadgetbridgeError) -> [String] {
        let row = try prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        var names: [String] = []
        while try row.step() { if let name = row.text(0) { names.append(name) } }
        return names
    }

    /// A table's columns, upper-cased (greenDAO writes them upper-case; SQLite compares names
    /// without case).
    func columns(_ table: String) throws(GadgetbridgeError) -> Set<String> {
        let row = try prepare("PRAGMA table_info(\(Self.quoted(table)))")
        var names: Set<String> = []
        while try row.step() { if let name = row.text(1) { names.insert(name.uppercased()) } }
        return names
    }

    /// An identifier in double quotes (a table name from sqlite_master, never from elsewhere).
    static func quoted(_ name: String) -> String {
        "\"" + name.replacingAll("\"", with: "\"\"") + "\""
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
