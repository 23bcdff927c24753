import Platform
import Store

extension Console {
    /// Writes output that is part of the command's result; throws when it cannot, so a full disk or
    /// a closed file never passes for a complete result.
    public func writeResult(_ text: String) throws(StoreError) {
        if let error = write(text) { throw StoreError(.io, error.description) }
    }
}

/// Why no output file can be written at `path` (nil: it can be). See Platform's `OutputFile`:
/// a regular file or a new name is replaced whole, a device or FIFO written in place, `-` is
/// standard output; a folder, a socket or a link to nothing is refused.
public func isWritableOutput(_ path: String) -> String? { OutputFile.problem(path) }
