import Activity
import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The SQLite store: day summaries for the rings, metrics for the gauges, tasks for the progress
/// screen. One `Store` is one connection; use it from one thread.
///
/// Every process opens its own; SQLite's WAL lets a running app read while `glance log` or an
/// import writes.
public final class Store {
    public let path: String
    let db: Connection
    /// The file opened (device and inode), to tell when another file has taken its name.
    private let file: (device: UInt64, inode: UInt64)?
    /// Whose days, samples and goals every day, sample and goal call reads and writes (an id of
    /// `people()`): 1, the store's first person, unless set. Metrics, tasks and preferences are
    /// the panel's, everyone's.
    public var person: Int = 1

    /// What a command does with the store, and so how it is opened.
    public enum Access: Sendable, Equatable {
        /// Reads only (export, lists, render --db, watch): opened read-only, never created, never
        /// changed, not even by a migration or a switch to WAL; where SQLite cannot read it so (a
        /// folder this user may not write, a read-only mount, a full disk) it is opened immutable.
        case read
        /// Writes an existing store (a task update, a metric removal): never creates one.
        case write
        /// Writes, making the store (and its folder) when it is missing.
        case create
    }

    /// Opens the store at `path` for `access` and, for writing, brings its schema up to date.
    ///
    /// Nothing is written before the file is known to be a Glance store: a SQLite file with tables
    /// but no Glance schema version (someone else's database, given with `--db` by mistake) is
    /// refused as it is (`.badData`), and so is an empty file unless the store is to be created.
    /// Before anything is read or written the store is checked (`PRAGMA quick_check`): a damaged
    /// store is refused (`.badData`, saying how to recover) rather than half read or written into.
    ///
    /// `checkLater` (`glance run`, whose first frame waits for the opening): a store at this
    /// build's version is only read here; its check, its switch to WAL (a no-op for a store Glance
    /// made) and the connection's settings for writing are left to `finishOpening()`, which
    /// throws the same damage the opening would have. Until then the store may be read; every
    /// write does them first. A store to be made or migrated is checked here as ever.
    public init(path: String, access: Access = .create, checkLater: Bool = false) throws(StoreError) {
        if access == .create {
            try StoreLocation.createParentFolders(of: path)
        } else {
            var st = stat()
            guard stat(path, &st) == 0 else {
                if errno == EACCES {
                    throw StoreError(.permission, "store \(path): permission denied" + StoreError.permissionHint)
                }
                throw StoreError(
                    .missing, "store \(path): no such file (import or log something first, or give --db PATH)")
            }
        }
        self.path = path
        var before = stat()
        let existed = stat(path, &before) == 0
        db = access == .read ? try Self.openForReading(path) : try Connection(path: path, mode: .readWrite(create: access == .create))
        // A new store in a setgid folder (the service's /var/lib/glance, 2770) is its group's to
        // write as well: members of group glance feed the panel. SQLite gives its -wal and -shm
        // files the same mode.
        if !existed { Self.shareWithGroupIfSetgid(path) }
        file = Self.identity(of: path)
        // Wait for a writer instead of failing at once; imports keep their write short.
        sqlite3_busy_timeout(db.handle, 5000)
        let version = try Schema.version(of: db)
        if version == 0 && access != .create {
            throw StoreError(
                .badData,
                "not a Glance store: \(path) is an empty database (left as it is; a command that writes, such as glance log, makes a store)")
        }
        // Every command sees a damaged store the same way (65, how to recover), before it reads
        // half of it or writes into it (with `checkLater`, before it writes: see below).
        let later = checkLater && access != .read && version == Schema.currentVersion
        if version > 0 && !later { try checkNotDamaged() }
        if access == .read {
            if version < Schema.currentVersion {
                throw StoreError(
                    .badData, "store \(path): schema version \(version) is older than this Glance's; a command that writes updates it")
            }
            return
        }
        if later {
            // Only reads come before `finishOpening()` (or the first write, which does it first).
            let wal = access == .create
            db.beforeWriting = { [unowned self] () throws(StoreError) in
                try self.checkNotDamaged()
                if wal { try self.useWAL() }
                try self.db.execute(Self.connectionSettings)
            }
            return
        }
        if access == .create || version < Schema.currentVersion { try useWAL() }
        try db.execute(Self.connectionSettings)
        if version < Schema.currentVersion { try Schema.migrate(db) }
    }

    /// Settings of this connection, not of the file, for its writes. In WAL mode NORMAL never
    /// corrupts; a power cut may lose the last commit only.
    static let connectionSettings = "PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON"

    /// Does what the opening left for later (`checkLater`): the check (a damaged store throws as
    /// the opening would have: `.badData`, how to recover), the switch to WAL and the
    /// connection's settings. The first statement that may write does it too, before it runs.
    /// Once passed, a no-op; a damaged store throws again on every call and is never written.
    public func finishOpening() throws(StoreError) {
        try db.finishPending()
    }

    static func shareWithGroupIfSetgid(_ path: String) {
        guard let slash = path.lastIndex(of: "/") else { return }
        let folder = slash == path.startIndex ? "/" : String(path[..<slash])
        var st = stat()
        guard stat(folder, &st) == 0, st.st_mode & S_ISGID != 0 else { return }
        chmod(path, 0o660)
    }

    /// A read-only connection: as such where SQLite can (the WAL's readers share its `-shm`),
    /// else immutable, when no WAL holds commits the immutable reader would not see.
    private static func openForReading(_ path: String) throws(StoreError) -> Connection {
        let first: StoreError
        do {
            let db = try Connection(path: path, mode: .readOnly)
            _ = try db.integer("SELECT count(*) FROM sqlite_master")
            return db
        } catch where error.kind == .io || error.kind == .permission || error.kind == .missing {
            first = error
        }
        var st = stat()
        if stat(path + "-wal", &st) == 0 && st.st_size > 0 { throw first }
        return try Connection(path: path, mode: .immutable)
    }

    /// `PRAGMA quick_check`: the file's pages and records are whole (a few milliseconds for a
    /// store of years).
    private func checkNotDamaged() throws(StoreError) {
        let check = try db.prepare("PRAGMA quick_check(1)")
        guard try check.step() else { return }
        let result = check.text(0) ?? ""
        check.reset()
        guard result != "ok" else { return }
        // "*** in database main ***" heads SQLite's report: the finding is the line after it.
        let finding = result.split(separator: "\n").filter { !$0.hasPrefix("***") }.joined(separator: "; ")
        throw StoreError.damaged(path, "quick_check: \(finding)")
    }

    /// Switches the file to WAL (a no-op when it is already), so readers never wait for a writer.
    /// The switch needs the file to itself, and SQLite does not wait for it in the busy handler:
    /// when another process is making the same new store (or switching it) it is tried again for
    /// up to the busy timeout, and is done when the other has switched it.
    private func useWAL() throws(StoreError) {
        var waited = 0
        while true {
            do throws(StoreError) {
                let mode = try db.prepare("PRAGMA journal_mode=WAL")
                if try mode.step(), mode.text(0) != "wal" {
                    throw StoreError(.io, "store \(path): cannot switch to WAL (is the folder read-only?)")
                }
                return
            } catch where error.kind == .busy && waited < 5000 {
                usleep(10_000)
                waited += 10
            }
        }
    }

    /// Whether the path now names another file than the one opened: someone renamed a database
    /// over it, or deleted it and made a new one (the open connection still reads the old file).
    /// A deleted file is not replaced until a new one takes the name. A copy written into the same
    /// file (cp over it) is not seen here, and is not safe while the store is open.
    public func isReplaced() -> Bool {
        guard let file, let now = Self.identity(of: path) else { return false }
        return now != file
    }

    private static func identity(of path: String) -> (device: UInt64, inode: UInt64)? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return (UInt64(st.st_dev), UInt64(st.st_ino))
    }

    /// How long a write waits for another process's lock before it fails with `.busy` (5 s
    /// unless set: an import's merge is short; a server that must answer others sets less).
    public func setBusyTimeout(milliseconds: Int) {
        sqlite3_busy_timeout(db.handle, Int32(clamping: milliseconds))
    }

    /// Caps the size this connection may grow the store to, in MiB (`PRAGMA max_page_count`; a
    /// store already larger may not grow): a write beyond it fails, `isFull`, and is rolled back.
    public func setSizeLimit(megabytes: Int) throws(StoreError) {
        let pageSize = max(try db.integer("PRAGMA page_size") ?? 4096, 512)
        let pages = Int64(megabytes) * (1 << 20) / pageSize
        _ = try db.integer("PRAGMA max_page_count = \(pages)")
        db.sizeLimit = megabytes
    }

    /// What the store's files are now (the database and its WAL: device, inode, size, times of
    /// change): when it differs from before, something wrote them (or damaged them).
    public static func fileState(_ path: String) -> [Int64] {
        var state: [Int64] = []
        for file in [path, path + "-wal"] {
            var st = stat()
            if stat(file, &st) == 0 {
                state += [
                    Int64(st.st_dev), Int64(st.st_ino), Int64(st.st_size), Int64(st.st_mtim.tv_sec), Int64(st.st_mtim.tv_nsec),
                    Int64(st.st_ctim.tv_sec), Int64(st.st_ctim.tv_nsec),
                ]
            } else {
                state.append(-1)
            }
        }
        return state
    }

    /// Checks the file as it is on disk now (`PRAGMA quick_check` on a connection of its own, so
    /// no page this connection has cached hides damage written under it). Throws the damage
    /// (`isDamage`), or another error opening it.
    public static func checkFile(_ path: String) throws(StoreError) {
        _ = try Store(path: path, access: .read)
    }

    /// Changes whenever another connection commits (`PRAGMA data_version`).
    public func dataVersion() throws(StoreError) -> Int64 {
        try db.integer("PRAGMA data_version") ?? 0
    }

    /// `ok`, or what SQLite's integrity check found.
    public func integrityCheck() throws(StoreError) -> String {
        let statement = try db.prepare("PRAGMA integrity_check")
        var lines: [String] = []
        while try statement.step() { lines.append(statement.text(0) ?? "") }
        return lines.joined(separator: "\n")
    }

    /// The schema version of the open store.
    public func schemaVersion() throws(StoreError) -> Int {
        Int(try db.integer("PRAGMA user_version") ?? 0)
    }

    /// Runs `body` as one transaction: everything it writes lands together or not at all.
    public func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try db.transaction(body)
    }
}
