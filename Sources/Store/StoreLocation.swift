import Activity
import Platform
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where the store lives when no `--db PATH` is given.
public enum StoreLocation {
    /// The system store, for a device that runs Glance as a service.
    public static let systemPath = "/var/lib/glance/glance.db"

    /// A user's store, as the help says it (`$HOME/.local/share` when XDG_DATA_HOME is unset).
    static let userPath = "$XDG_DATA_HOME/glance/glance.db"

    /// The default places as the help says them.
    public static let defaults = "\(systemPath) for root, else \(userPath)"

    /// The places for the manual's FILES and ENVIRONMENT.
    public static let files = [
        (systemPath, "the store when running as root (the service's)"),
        (userPath, "the store otherwise (~/.local/share/glance/glance.db)"),
    ]
    public static let environment = [("XDG_DATA_HOME, HOME", "where a user's store is")]

    /// `/var/lib/glance/glance.db` for root, and for a user who may write it (a member of group
    /// `glance`: the service's store is group-writable); else `$XDG_DATA_HOME/glance/glance.db`
    /// (falling back to `$HOME/.local/share`, as the XDG base directory spec says); nil when
    /// neither is set.
    public static func defaultPath(
        isRoot: Bool, systemStoreWritable: Bool = false, environment: (String) -> String?
    ) -> String? {
        if isRoot || systemStoreWritable { return systemPath }
        if let data = environment("XDG_DATA_HOME"), data.hasPrefix("/") {
            return "\(data.trimmingTrailingSlashes)/glance/glance.db"
        }
        if let home = environment("HOME"), home.hasPrefix("/") {
            return "\(home.trimmingTrailingSlashes)/.local/share/glance/glance.db"
        }
        return nil
    }

    /// The default path for this process.
    public static func defaultPath() -> String? {
        defaultPath(isRoot: geteuid() == 0, systemStoreWritable: isWritableStore(systemPath), environment: environmentVariable)
    }

    /// Whether `path` is a store this process may write: the file and its folder writable (SQLite
    /// writes its -wal and -shm files beside it).
    public static func isWritableStore(_ path: String) -> Bool {
        guard let slash = path.lastIndex(of: "/") else { return false }
        let folder = slash == path.startIndex ? "/" : String(path[..<slash])
        return access(path, R_OK | W_OK) == 0 && access(folder, W_OK | X_OK) == 0
    }


    /// Creates the folders above `path` that are missing (like `mkdir -p`).
    static func createParentFolders(of path: String) throws(StoreError) {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
        let folder = String(path[..<slash])
        var st = stat()
        if stat(folder, &st) == 0 { return }
        try createParentFolders(of: folder)
        if mkdir(folder, 0o755) != 0 && errno != EEXIST {
            let denied = errno == EACCES || errno == EPERM
            throw StoreError(
                denied ? .permission : .cannotCreate,
                "store \(path): cannot create the folder \(folder): \(String(cString: strerror(errno)))"
                    + (denied ? StoreError.permissionHint : ""))
        }
    }
}

extension String {
    var trimmingTrailingSlashes: String {
        var s = Substring(self)
        while s.count > 1 && s.hasSuffix("/") { s = s.dropLast() }
        return String(s)
    }
}

/// Seconds since 1970 (wall clock), for `updated` columns.
func unixTime() -> Int64 { Int64(time(nil)) }

/// The monotonic clock (Platform's, the loop's) in seconds, for rates and throttling.
func monotonicSeconds() -> Double { monotonicNow().inSeconds }

/// The store's file: the one given, else the default place (root's system store, or the user's).
public func storePath(_ given: String?) throws(OutputFailure) -> String {
    if let given { return given }
    guard let path = StoreLocation.defaultPath() else {
        throw OutputFailure("no store path: set HOME or XDG_DATA_HOME, or give --db PATH", status: Outcome.usage)
    }
    return path
}
