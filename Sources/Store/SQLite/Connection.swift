import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// SQLite copies bound text and blobs (the C macro SQLITE_TRANSIENT, which Swift cannot import).
let sqliteTransient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// One SQLite connection; closed when released.
final class Connection {
    let handle: OpaquePointer
    let path: String
    /// The size this connection may grow the file to (`PRAGMA max_page_count`), in MiB; nil: none.
    var sizeLimit: Int?

    /// How a connection opens its file.
    enum Mode: Equatable {
        /// Read and write; `create` makes the file when it is missing.
        case readWrite(create: Bool)
        /// Read only (`SQLITE_OPEN_READONLY`); nothing is written, not even a journal.
        case readOnly
        /// Read only, and the file taken as one nobody changes (`immutable=1`): no locks, no
        /// `-shm` or `-wal`, so it works in a folder this user may not write or on a read-only
        /// mount. Only for a file without a WAL holding commits.
        case immutable
    }

    /// Opens the database at `path`.
    init(path: String, mode: Mode = .readWrite(create: false)) throws(StoreError) {
        var flags = SQLITE_OPEN_NOMUTEX
        var name = path
        switch mode {
        case .readWrite(let create): flags |= SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .immutable:
            flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            name = "file:\(Self.uriPath(path))?mode=ro&immutable=1"
        }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(name, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            let system = db.map { sqlite3_system_errno($0) } ?? 0
            sqlite3_close_v2(db)
            if system == EACCES || system == EPERM {
                throw StoreError(.permission, "store \(path): cannot open: permission denied" + StoreError.permissionHint)
            }
            if mode == .readWrite(create: true) && access(path, F_OK) != 0 {
                // SQLite falls back to opening read-only, so its errno is that attempt's: ask the folder.
                let folder = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
                if access(folder, W_OK) != 0 {
                    let why = errno
                    if why == EACCES || why == EPERM {
                        throw StoreError(
                            .permission, "store \(path): cannot create it: permission denied" + StoreError.permissionHint)
                    }
                    throw StoreError(
                        .cannotCreate,
                        "store \(path): cannot create it in \(folder): \(String(cString: strerror(why))) (give --db PATH elsewhere)")
                }
            }
            throw StoreError(rc == SQLITE_CANTOPEN ? .missing : .io, "store \(path): cannot open: \(message)")
        }
        handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
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

    deinit { sqlite3_close_v2(handle) }

    /// The error for a failed call, naming the call and the store.
    func error(_ call: String, _ rc: Int32) -> StoreError {
        let message = String(cString: sqlite3_errmsg(handle))
        let primary = rc & 0xFF
        if primary == SQLITE_BUSY || primary == SQLITE_LOCKED {
            return StoreError(.busy, "store \(path): \(call): \(message) (another process is writing; try again)")
        }
        let system = sqlite3_system_errno(handle)
        if primary == SQLITE_FULL, system != ENOSPC, system != EDQUOT, let sizeLimit {
            return StoreError(
                .io, isFull: true,
                "store \(path): \(call): the store has reached the \(sizeLimit) MiB it may grow to (nothing was changed)")
        }
        if primary == SQLITE_FULL || system == ENOSPC || system == EDQUOT {
            return StoreError(.io, isFull: true, "store \(path): \(call): no space left on the device (free some; nothing was changed)")
        }
        if access(path, W_OK) != 0 && errno == EROFS
            && [SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_IOERR].contains(primary)
        {
            return StoreError(.io, "store \(path): \(call): it is on a read-only file system (nothing was changed)")
        }
        if primary == SQLITE_READONLY && access(path, W_OK) != 0 {
            return StoreError(.permission, "store \(path): \(call): \(message)" + StoreError.permissionHint)
        }
        if primary == SQLITE_CORRUPT {
            return StoreError.damaged(path, "\(call): \(message)")
        }
        if primary == SQLITE_NOTADB {
            return StoreError(.badData, isDamage: true, "not a Glance store: \(path) (\(message); give the Glance store with --db)")
        }
        if primary == SQLITE_CONSTRAINT {
            return StoreError(.invalidArgument, "store \(path): \(call): \(message)")
        }
        return StoreError(.io, "store \(path): \(call): \(message)")
    }

    /// Run before the first statement that may write (what `Store`'s `checkLater` put off), once
    /// it has passed; while it fails, every such statement throws its error and writes nothing.
    var beforeWriting: (() throws(StoreError) -> Void)?

    /// Runs `beforeWriting` if it has not passed yet.
    func finishPending() throws(StoreError) {
        guard let pending = beforeWriting else { return }
        beforeWriting = nil  // its own statements (the check, the switch to WAL) do not wait for it
        do throws(StoreError) {
            try pending()
        } catch {
            beforeWriting = pending
            throw error
        }
    }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(StoreError) {
        try finishPending()
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw error(Self.callName(sql), rc) }
    }

    /// Prepares `sql`. Statements are not cached (the store's calls are few); `persistent` tells
    /// SQLite a statement is kept and run many times (the import's insert).
    func prepare(_ sql: String, persistent: Bool = false) throws(StoreError) -> Statement {
        var statement: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let rc = sqlite3_prepare_v3(handle, sql, -1, flags, &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw error("prepare \(Self.callName(sql))", rc) }
        let prepared = Statement(statement, connection: self, sql: sql)
        if beforeWriting != nil && sqlite3_stmt_readonly(statement) == 0 { try finishPending() }
        return prepared
    }

    /// The first value of the first row of `sql`, as an integer (nil: no row or NULL).
    func integer(_ sql: String) throws(StoreError) -> Int64? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.int64(0)
    }

    /// Runs `body` in one transaction (BEGIN IMMEDIATE: the write lock is taken up front, so a
    /// read-modify-write cannot be overtaken); rolls back if it throws. Inside another
    /// transaction it is a savepoint of that one.
    func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        let nested = sqlite3_get_autocommit(handle) == 0
        try execute(nested ? "SAVEPOINT nested" : "BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute(nested ? "RELEASE nested" : "COMMIT")
            return result
        } catch {
            sqlite3_exec(handle, nested ? "ROLLBACK TO nested; RELEASE nested" : "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    var changes: Int { Int(sqlite3_changes(handle)) }

    /// The first words of a statement, to name it in an error.
    static func callName(_ sql: String) -> String {
        let words = sql.split(whereSeparator: { $0 == " " || $0 == "\n" }).prefix(3)
        return words.joined(separator: " ")
    }
}

/// A prepared statement; finalized when released.
final class Statement {
    let handle: OpaquePointer
    unowned let connection: Connection
    let sql: String

    init(_ handle: OpaquePointer, connection: Connection, sql: String) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds values to ?1, ?2, … in order (nil binds NULL) after a reset.
    @discardableResult
    func bind(_ values: SQLValue?...) -> Statement { bind(values) }

    @discardableResult
    func bind(_ values: [SQLValue?]) -> Statement {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            switch value {
            case nil: sqlite3_bind_null(handle, index)
            case .real(let d): sqlite3_bind_double(handle, index, d)
            case .integer(let n): sqlite3_bind_int64(handle, index, n)
            case .text(let s):
                // With its length: a NUL inside is kept, not where the text is cut.
                var copy = s
                copy.withUTF8 { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { chars in
                        if let base = chars.baseAddress {
                            _ = sqlite3_bind_text(handle, index, base, Int32(clamping: chars.count), sqliteTransient)
                        } else {
                            _ = sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
                        }
                    }
                }
            }
        }
        return self
    }

    /// Advances; true when a row is available, false when done.
    func step() throws(StoreError) -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        sqlite3_reset(handle)
        guard rc == SQLITE_DONE else { throw connection.error(Connection.callName(sql), rc) }
        return false
    }

    /// Runs a statement that returns no rows.
    func run() throws(StoreError) {
        while try step() {}
    }

    /// Ends the statement's current run (and its read snapshot) without finalizing it.
    func reset() { sqlite3_reset(handle) }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func double(_ column: Int32) -> Double? { isNull(column) ? nil : sqlite3_column_double(handle, column) }

    func int64(_ column: Int32) -> Int64? { isNull(column) ? nil : sqlite3_column_int64(handle, column) }

    func text(_ column: Int32) -> String? {
        guard let p = sqlite3_column_text(handle, column) else { return nil }
        // Its whole length (after the pointer, as SQLite documents): a NUL inside does not end it.
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
    }
}

/// A value to bind.
enum SQLValue {
    case real(Double)
    case integer(Int64)
    case text(String)
}

extension SQLValue {
    static func optional(_ d: Double?) -> SQLValue? { d.map { .real($0) } }
    static func optional(_ s: String?) -> SQLValue? { s.map { .text($0) } }
    static func bool(_ b: Bool) -> SQLValue { .integer(b ? 1 : 0) }
}
