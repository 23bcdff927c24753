import Activity
import CLI
import Platform
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

/// Why no output file can be written at `path` (nil: it can be). See Platform's `OutputFile`:
/// a regular file or a new name is replaced whole, a device or FIFO written in place, `-` is
/// standard output; a folder, a socket or a link to nothing is refused.
public func isWritableOutput(_ path: String) -> String? { OutputFile.problem(path) }

/// The error for an output that cannot be written at `path` (nil: it can), with its status: 77
/// when the system said permission denied, else 73.
public func outputUsageError(_ path: String, option: String) -> UsageError? {
    guard let failure = OutputFile.check(path) else { return nil }
    return UsageError("\(option) '\(Quote.clip(path, 80))': cannot write there: \(failure.reason)", status: failure.status)
}

extension OutputFile.Failure {
    /// The exit status: 77 permission denied, 73 the file cannot be made, 74 it could not be written whole.
    public var status: Int32 { denied ? ExitCode.noPermission : cannotCreate ? ExitCode.cannotCreate : ExitCode.ioError }
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

/// Output that is the command's whole result (help, a completion script, the demo CSV, bench
/// figures), a line break added: 0, or 74 after saying why standard output took it not.
public func printResult(_ line: String) -> Int32 {
    guard let error = writeOut(line + "\n") else { return ExitCode.ok }
    complain(error.message)
    return ExitCode.ioError
}

/// A line on standard output (results, reports), ignoring a failure to write it.
public func say(_ line: String) { writeOut(line + "\n") }
