import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A stream of bytes an importer reads once, front to back, in constant memory.
package protocol ByteSource: AnyObject {
    /// Reads up to `count` bytes; 0 at the end.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(StoreError) -> Int
    /// How far the stream is, in bytes of `total` (for progress).
    var position: Int64 { get }
    /// The size of the stream when known.
    var total: Int64? { get }
    /// The input as the user knows it, for messages: `export.zip (apple_health_export/export.xml)`.
    var name: String { get }
}

/// The file to import, read through a large buffer: a regular file, or a stream (standard input
/// as `-`, a named pipe, a device) read as it comes. Opening never blocks (a FIFO nobody writes
/// to would block `open` for ever); waiting for a stream's bytes is a `poll` that also watches
/// `wake` (the import's signalfd) and calls `idle` every quarter second, which throws to stop
/// the import (a signal, a cancelled task).
package final class InputFile: ByteSource {
    package let name: String
    package let total: Int64?
    /// Whether this is a stream (pipe, FIFO, device, socket) rather than a regular file.
    let isStream: Bool
    /// The path for a second reader (libarchive, on a regular zip); nil for a stream.
    package let path: String?
    package private(set) var position: Int64 = 0
    private let fd: Int32
    private let ownsDescriptor: Bool
    private let buffer: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    private var atEnd = false
    /// Readable when the import should look at `idle` at once (a signal came).
    var wake: Int32?
    /// Called while waiting for a stream (every `idleInterval` ms, and when `wake` is readable).
    var idle: (() throws(StoreError) -> Void)?

    static let bufferSize = 1 << 20
    static let idleInterval: Int32 = 250

    /// Opens `path` (`-`: standard input) for reading.
    init(path: String) throws(StoreError) {
        if path == "-" {
            name = "standard input"
            fd = 0
            ownsDescriptor = false
        } else {
            name = path
            let opened = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
            guard opened >= 0 else {
                let kind: StoreError.Kind =
                    errno == ENOENT ? .missing : errno == EACCES || errno == EPERM ? .permission : .io
                throw StoreError(kind, "\(path): cannot open: \(String(cString: strerror(errno)))")
            }
            fd = opened
            ownsDescriptor = true
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let reason = String(cString: strerror(errno))
            if ownsDescriptor { close(fd) }
            throw StoreError(.io, "\(name): cannot read: \(reason)")
        }
        switch st.st_mode & S_IFMT {
        case S_IFDIR:
            if ownsDescriptor { close(fd) }
            throw StoreError(.io, "\(name): is a folder, not a file (give the export.xml, export.zip or CSV file)")
        case S_IFREG:
            isStream = false
            total = Int64(st.st_size)
            self.path = path == "-" ? nil : path
            if ownsDescriptor { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) }
            posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        default:
            isStream = true
            total = nil
            self.path = nil
        }
        buffer = .allocate(byteCount: Self.bufferSize, alignment: 64)
    }

    deinit {
        buffer.deallocate()
        if ownsDescriptor { close(fd) }
    }

    /// The first `count` bytes (fewer when the input is shorter), without consuming them.
    func peek(_ count: Int) throws(StoreError) -> [UInt8] {
        precondition(count <= Self.bufferSize && position == 0)
        while end - start < count && !atEnd {
            try fill()
        }
        return Array(UnsafeRawBufferPointer(rebasing: buffer[start..<min(end, start + count)]))
    }

    package func read(into target: UnsafeMutableRawPointer, count: Int) throws(StoreError) -> Int {
        if start == end {
            start = 0
            end = 0
            if atEnd { return 0 }
            try fill()
            if start == end { return 0 }
        }
        let n = min(count, end - start)
        target.copyMemory(from: buffer.baseAddress! + start, byteCount: n)
        start += n
        position += Int64(n)
        return n
    }

    /// Reads more into the buffer after what it holds (sets `atEnd` at the end of the input).
    private func fill() throws(StoreError) {
        if isStream { try waitUntilReadable() }
        let n = retryingInterrupts { readFile(fd, buffer.baseAddress! + end, buffer.count - end) }
        if n < 0 && errno == EAGAIN { return }  // woken for nothing: the caller asks again
        guard n >= 0 else { throw StoreError(.io, "\(name): cannot read: \(String(cString: strerror(errno)))") }
        if n == 0 { atEnd = true }
        end += n
    }

    /// Waits until the stream has bytes (or its writer has gone), asking `idle` meanwhile.
    private func waitUntilReadable() throws(StoreError) {
        while true {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            if let wake { fds.append(pollfd(fd: wake, events: Int16(POLLIN), revents: 0)) }
            let n = retryingInterrupts { poll(&fds, nfds_t(fds.count), Self.idleInterval) }
            if n < 0 {
                throw StoreError(.io, "\(name): cannot wait for input: \(String(cString: strerror(errno)))")
            }
            try idle?()
            if n > 0 && fds[0].revents != 0 { return }
        }
    }
}

/// Bytes in memory (the bundled demo data set).
final class MemorySource: ByteSource {
    package let name: String
    private let bytes: [UInt8]
    package private(set) var position: Int64 = 0
    var total: Int64? { Int64(bytes.count) }

    init(_ bytes: [UInt8], name: String) {
        self.bytes = bytes
        self.name = name
    }

    package func read(into target: UnsafeMutableRawPointer, count: Int) throws(StoreError) -> Int {
        let n = min(count, bytes.count - Int(position))
        bytes.withUnsafeBytes { target.copyMemory(from: $0.baseAddress! + Int(position), byteCount: n) }
        position += Int64(n)
        return n
    }
}

/// read(2) by its C name (Glibc or Musl): inside a ByteSource the plain name is its own method.
private func readFile(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
