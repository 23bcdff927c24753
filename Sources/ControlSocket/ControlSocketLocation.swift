#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where the running panel's control socket is (`glance run` listens there; `glance screenshot`
/// and `glance mqtt` ask there): the service's in /run/glance, a user's in their runtime
/// directory. The panel's side (`ControlServer`) is App's; what is said on the socket
/// (`PanelRequest`, `PanelState`) is Controls'.
public enum ControlSocketLocation {
    /// Where the app listens: `$RUNTIME_DIRECTORY` (systemd's RuntimeDirectory=, /run/glance for
    /// the service), else /run/glance for root, else `$XDG_RUNTIME_DIR/glance`; nil: nowhere.
    public static func defaultPath() -> String? {
        if let runtime = environment("RUNTIME_DIRECTORY"), let first = runtime.split(separator: ":").first {
            return String(first) + "/glance.sock"
        }
        if geteuid() == 0 { return systemPath }
        if let user = environment("XDG_RUNTIME_DIR") { return user + "/glance/glance.sock" }
        return nil
    }

    public static let systemPath = "/run/glance/glance.sock"

    /// The places for the manual's FILES and ENVIRONMENT.
    public static let files = [
        (systemPath, "the running app's control socket (glance screenshot), for root and group glance"),
        ("$XDG_RUNTIME_DIR/glance/glance.sock", "a user's own glance run's control socket"),
    ]
    public static let environment = [("RUNTIME_DIRECTORY, XDG_RUNTIME_DIR", "where the control socket is (the service's, a user's)")]

    /// Where a client (`glance screenshot`, `glance mqtt`) looks: the user's own app's socket when
    /// there is one, else the service's.
    public static func clientPaths() -> [String] {
        var paths: [String] = []
        if let runtime = environment("RUNTIME_DIRECTORY"), let first = runtime.split(separator: ":").first {
            paths.append(String(first) + "/glance.sock")
        }
        if geteuid() != 0, let user = environment("XDG_RUNTIME_DIR") { paths.append(user + "/glance/glance.sock") }
        paths.append(systemPath)
        return paths
    }

    static func environment(_ name: String) -> String? {
        guard let value = getenv(name), value.pointee != 0 else { return nil }
        return String(cString: value)
    }

    /// The id of group `name` as the group file lists it (nil: not there, or no file). Read from
    /// the file itself, not through getgrnam(3): that loads the system's NSS modules, a network
    /// one among them where configured, into the process holding the panel. The package's group
    /// is a system group, made in /etc/group by systemd-sysusers.
    public static func groupID(named name: String, in file: String = "/etc/group") -> UInt32? {
        guard let stream = fopen(file, "re") else { return nil }
        defer { fclose(stream) }
        var line: UnsafeMutablePointer<CChar>? = nil
        var capacity = 0
        defer { free(line) }
        let prefix = Array((name + ":").utf8)
        while getline(&line, &capacity, stream) > 0, let line {
            let text = String(cString: line)
            guard text.utf8.starts(with: prefix) else { continue }
            // name:password:gid:members
            let fields = text.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count >= 3, let gid = UInt32(fields[2]) else { return nil }
            return gid
        }
        return nil
    }

    /// The listening side's folder for `path` made when missing: its parents as usual (a /run not
    /// there yet), the folder itself 0750 for root and group glance (whatever the umask: another
    /// thread may be binding a socket under a narrower one for the moment). Returns group glance's
    /// id, for the socket itself, when there is such a group.
    public static func prepareFolder(for path: String) -> UInt32? {
        let group = groupID(named: "glance")
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            let folder = String(path[..<slash])
            var parent = ""
            for part in folder.split(separator: "/").dropLast() {
                parent += "/" + part
                mkdir(parent, 0o755)
            }
            if mkdir(folder, 0o750) == 0 {
                _ = chmod(folder, 0o750)
                if let group { _ = chown(folder, uid_t.max, group) }
            }
        }
        return group
    }
}
