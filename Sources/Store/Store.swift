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

    /// Opens the store at `path`, creating it (and its folder) when `create` is set, and brings
    /// its schema up to date.
    ///
    /// Nothing is written before the file is known to be a Glance store: a SQLite file with tables
    /// but no Glance schema version (someone else's database, given with `--db` by mistake) is
    /// refused as it is (`.badData`). Opening a current store without `create` (the read-only
    /// commands) writes nothing; an older Glance store is migrated.
    public init(path: String, create: Bool = true) throws(StoreError) {
        if !create {
            var st = stat()
            guard stat(path, &st) == 0 else {
                if errno == EACCES {
                    throw StoreError(.permission, "store \(path): permission denied" + StoreError.permissionHint)
                }
                throw StoreError(
                    .missing, "store \(path): no such file (import or log something first, or give --db PATH)")
            }
        } else {
            try StoreLocation.createParentFolders(of: path)
        }
        self.path = path
        let existed = access(path, F_OK) == 0
        db = try Connection(path: path, create: create)
        // A new store in a setgid folder (the service's /var/lib/glance, 2770) is its group's to
        // write as well: members of group glance feed the panel. SQLite gives its -wal and -shm
        // files the same mode.
        if !existed { Self.shareWithGroupIfSetgid(path) }
        file = Self.identity(of: path)
        // Wait for a writer instead of failing at once; imports keep their write short.
        sqlite3_busy_timeout(db.handle, 5000)
        let version = try Schema.version(of: db)
        if create || version < Schema.currentVersion { try useWAL() }
        // Settings of this connection, not of the file. In WAL mode NORMAL never corrupts; a power
        // cut may lose the last commit only.
        try db.execute("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON")
        if version < Schema.currentVersion { try Schema.migrate(db) }
    }

    static func shareWithGroupIfSetgid(_ path: String) {
        guard let slash = path.lastIndex(of: "/") else { return }
        let folder = slash == path.startIndex ? "/" : String(path[..<slash])
        var st = stat()
        guard stat(folder, &st) == 0, st.st_mode & S_ISGID != 0 else { return }
        chmod(path, 0o660)
    }

    /// Switches the file to WAL (a no-op when it is already), so readers never wait for a writer.
    private func useWAL() throws(StoreError) {
        let mode = try db.prepare("PRAGMA journal_mode=WAL")
        if try mode.step(), mode.text(0) != "wal" {
            throw StoreError(.io, "store \(path): cannot switch to WAL (is the folder read-only?)")
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
