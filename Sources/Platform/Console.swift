#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where a command's words go: its result and reports on standard output, its complaints on
/// standard error. Given to every command's work by its caller (`Commands` gives `standard`; a
/// test may give one that keeps the words), so no command's work writes to a descriptor of its own.
public struct Console: Sendable {
    /// Writes text to standard output: nil when all of it went, else why not.
    public let write: @Sendable (String) -> SystemError?
    /// Writes text to standard error.
    public let writeError: @Sendable (String) -> Void

    public init(write: @escaping @Sendable (String) -> SystemError?, writeError: @escaping @Sendable (String) -> Void) {
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
        complain(error.description)
        return .ioError
    }
}

/// Writes all of `text` to descriptor `fd` (EINTR retried): nil, or why not ("standard output:
/// No space left on device").
private func writeDescriptor(_ fd: Int32, _ text: String) -> SystemError? {
    var s = text
    let failure: Int32 = s.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let n = retryingInterrupts { write(fd, bytes.baseAddress! + offset, bytes.count - offset) }
            if n < 0 { return errno }
            if n == 0 { return EIO }
            offset += n
        }
        return 0
    }
    guard failure != 0 else { return nil }
    return SystemError(fd == 1 ? "standard output" : "standard error", errno: Errno(rawValue: failure))
}
