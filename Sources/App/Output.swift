import Store
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Standard error as a text stream.
public struct StandardError: TextOutputStream {
    public init() {}
    public mutating func write(_ string: String) {
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

/// Prints `glance: message` on standard error.
public func complain(_ message: String) {
    var err = StandardError()
    print("glance: \(message)", to: &err)
}

/// Whether a file can be created or replaced at `path` (its folder exists and is writable).
public func isWritableOutput(_ path: String) -> String? {
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

/// Writes text straight to standard output (no buffering surprises when piped). Returns nil when
/// all of it was written, else why not (`standard output: No space left on device`). A line
/// reporting what was done may ignore that; output that is the result uses `writeResult`.
@discardableResult
public func writeOut(_ text: String) -> StoreError? {
    var s = text
    let failure: Int32 = s.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let n = write(1, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return errno }
            if n == 0 { return EIO }
            offset += n
        }
        return 0
    }
    guard failure != 0 else { return nil }
    return StoreError(.io, "standard output: \(String(cString: strerror(failure)))")
}

/// Writes output that is the command's result (an export, a list) to standard output; throws
/// when it cannot, so a full disk or a closed file never passes for a complete result (exit 74).
public func writeResult(_ text: String) throws(StoreError) {
    if let error = writeOut(text) { throw error }
}

/// A line on standard output (results, reports), ignoring a failure to write it.
public func say(_ line: String) { writeOut(line + "\n") }
