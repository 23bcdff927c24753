#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An environment variable's value (nil: not set).
public func environmentVariable(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}

/// Folders a command makes: an output folder, a scratch folder of its own.
public enum Folders {
    /// Makes the folder `path` (`mode`, under the umask) unless it is there.
    public static func make(_ path: String, mode: UInt32 = 0o755) throws(SystemError) {
        if mkdir(path, mode_t(mode)) != 0 && errno != EEXIST { throw SystemError("mkdir \(path)") }
    }

    /// A new folder of this process's own under TMPDIR (else /tmp), named `prefix` and six
    /// random characters.
    public static func scratch(_ prefix: String) throws(SystemError) -> String {
        let base = environmentVariable("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/" + prefix + "-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw SystemError("mkdtemp in \(base)", hint: "set TMPDIR to a writable folder")
        }
        return String(cString: made)
    }

    /// Removes the files `names` in `folder` (those there), then the folder (when empty).
    public static func remove(_ folder: String, files names: [String]) {
        for name in names { unlink(folder + "/" + name) }
        rmdir(folder)
    }
}
