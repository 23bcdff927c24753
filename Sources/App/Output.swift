#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Standard error as a text stream.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        var s = string
        s.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = writeStandardError(bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return }
                offset += n
            }
        }
    }
}

/// Exit statuses (sysexits.h), as documented in `glance --help`.
public enum ExitCode {
    public static let ok: Int32 = 0
    /// Bad command-line input.
    public static let usage: Int32 = 64
    /// Bad input data (a file to import, a value).
    public static let dataError: Int32 = 65
    /// An input file cannot be opened.
    public static let noInput: Int32 = 66
    /// Something the program needs is not there (a font, a display, nothing connected).
    public static let unavailable: Int32 = 69
    /// Something the program did not expect.
    public static let software: Int32 = 70
    /// An output file could not be created.
    public static let cannotCreate: Int32 = 73
    /// Reading or writing failed.
    public static let ioError: Int32 = 74
    /// Try again later: another program holds the display, the store is busy, or the work was
    /// cancelled (nothing was changed).
    public static let temporaryFailure: Int32 = 75
    /// Permission denied (a device the user's groups do not open).
    public static let noPermission: Int32 = 77
    /// The configuration is invalid (or asks for a connector/mode/format the display lacks).
    public static let config: Int32 = 78
}

/// Prints `glance: message` on standard error.
func complain(_ message: String) {
    var err = StandardError()
    print("glance: \(message)", to: &err)
}

/// Whether a file can be created or replaced at `path` (its folder exists and is writable).
func isWritableOutput(_ path: String) -> String? {
    guard !path.isEmpty else { return "an empty path" }
    var folder = "."
    if let slash = path.lastIndex(of: "/") {
        folder = slash == path.startIndex ? "/" : String(path[..<slash])
    }
    var st = stat()
    if stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR { return "it is a folder" }
    guard stat(folder, &st) == 0 else { return "folder \(folder) does not exist" }
    guard (st.st_mode & S_IFMT) == S_IFDIR else { return "\(folder) is not a folder" }
    guard access(folder, W_OK) == 0 else { return "folder \(folder) is not writable" }
    if access(path, F_OK) == 0 && access(path, W_OK) != 0 { return "the file is not writable" }
    return nil
}

/// write(2) to standard error by its C name (Glibc or Musl): inside StandardError the plain
/// name is its own method.
private func writeStandardError(_ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(2, bytes, count) }
