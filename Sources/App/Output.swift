import Activity
import Platform
import Store
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where a command's words go: its result and reports on standard output, its complaints on
/// standard error. Given to every command's work by its caller (`Commands` gives `standard`; a
/// test may give one that keeps the words), so nothing in App writes to a descriptor of its own.
public struct Console: Sendable {
    /// Writes text to standard output: nil when all of it went, else why not.
    public let write: @Sendable (String) -> StoreError?
    /// Writes text to standard error.
    public let writeError: @Sendable (String) -> Void

    public init(write: @escaping @Sendable (String) -> StoreError?, writeError: @escaping @Sendable (String) -> Void) {
        self.write = write
        self.writeError = writeError
    }

    /// The process's standard output and standard error, written straight (no buffering surprises
    /// when piped).
    public static let standard = Console(
        write: { writeDescriptor(1, $0) },
        writeError: { _ = writeDescriptor(2, $0) })

    /// A line on standard output (a report), ignoring a failure to write it.
    public func say(_ line: String) { _ = write(line + "\n") }

    /// `glance: message` on standard error.
    public func complain(_ message: String) { writeError("glance: \(message)\n") }

    /// Output that is the command's whole result (a list, the demo CSV, bench figures), a line
    /// break added: ok, or an I/O error after saying why standard output did not take it.
    public func result(_ line: String) -> Outcome {
        guard let error = write(line + "\n") else { return .ok }
        complain(error.message)
        return .ioError
    }

    /// Writes output that is part of the command's result; throws when it cannot, so a full disk or
    /// a closed file never passes for a complete result.
    public func writeResult(_ text: String) throws(StoreError) {
        if let error = write(text) { throw error }
    }
}

/// Why no output file can be written at `path` (nil: it can be). See Platform's `OutputFile`:
/// a regular file or a new name is replaced whole, a device or FIFO written in place, `-` is
/// standard output; a folder, a socket or a link to nothing is refused.
public func isWritableOutput(_ path: String) -> String? { OutputFile.problem(path) }

extension OutputFile.Failure {
    /// The outcome: permission denied, the file cannot be made, or it could not be written whole.
    public var status: Outcome { denied ? .noPermission : cannotCreate ? .cannotCreate : .ioError }
}

/// Writes all of `text` to descriptor `fd` (EINTR retried): nil, or why not.
private func writeDescriptor(_ fd: Int32, _ text: String) -> StoreError? {
    var s = text
    let failure: Int32 = s.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return errno }
            if n == 0 { return EIO }
            offset += n
        }
        return 0
    }
    guard failure != 0 else { return nil }
    return StoreError(.io, "\(fd == 1 ? "standard output" : "standard error"): \(String(cString: strerror(failure)))")
}
