#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A stream of bytes an importer reads once, front to back, in constant memory.
protocol ByteSource: AnyObject {
    /// Reads up to `count` bytes; 0 at the end.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(StoreError) -> Int
    /// How far the stream is, in bytes of `total` (for progress).
    var position: Int64 { get }
    /// The size of the stream when known.
    var total: Int64? { get }
    /// The input as the user knows it, for messages: `export.zip (apple_health_export/export.xml)`.
    var name: String { get }
}

/// A file read through a large buffer (few system calls, whatever size the parser asks for).
final class FileSource: ByteSource {
    let name: String
    let total: Int64?
    private(set) var position: Int64 = 0
    private let fd: Int32
    private let buffer: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0

    static let bufferSize = 1 << 20

    init(path: String) throws(StoreError) {
        name = path
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let kind: StoreError.Kind = errno == ENOENT ? .missing : .io
            throw StoreError(kind, "\(path): cannot open: \(String(cString: strerror(errno)))")
        }
        var st = stat()
        if fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw StoreError(.io, "\(path): is a folder, not a file (give the export.xml, export.zip or CSV file)")
        }
        total = (st.st_mode & S_IFMT) == S_IFREG ? Int64(st.st_size) : nil
        posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        buffer = .allocate(byteCount: Self.bufferSize, alignment: 64)
    }

    deinit {
        buffer.deallocate()
        close(fd)
    }

    func read(into target: UnsafeMutableRawPointer, count: Int) throws(StoreError) -> Int {
        if start == end {
            var n: Int
            repeat { n = readFile(fd, buffer.baseAddress!, buffer.count) } while n < 0 && errno == EINTR
            guard n >= 0 else { throw StoreError(.io, "\(name): cannot read: \(String(cString: strerror(errno)))") }
            start = 0
            end = n
            if n == 0 { return 0 }
        }
        let n = min(count, end - start)
        target.copyMemory(from: buffer.baseAddress! + start, byteCount: n)
        start += n
        position += Int64(n)
        return n
    }

    /// The first bytes of the file (to tell the format), without consuming them.
    static func peek(path: String, count: Int) throws(StoreError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let kind: StoreError.Kind = errno == ENOENT ? .missing : .io
            throw StoreError(kind, "\(path): cannot open: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, 0) }
        guard n >= 0 else {
            let reason =
                errno == EISDIR ? "is a folder, not a file" : "cannot read: \(String(cString: strerror(errno)))"
            throw StoreError(.io, "\(path): \(reason)")
        }
        return Array(bytes.prefix(n))
    }
}

/// Bytes in memory (the bundled demo data set).
final class MemorySource: ByteSource {
    let name: String
    private let bytes: [UInt8]
    private(set) var position: Int64 = 0
    var total: Int64? { Int64(bytes.count) }

    init(_ bytes: [UInt8], name: String) {
        self.bytes = bytes
        self.name = name
    }

    func read(into target: UnsafeMutableRawPointer, count: Int) throws(StoreError) -> Int {
        let n = min(count, bytes.count - Int(position))
        bytes.withUnsafeBytes { target.copyMemory(from: $0.baseAddress! + Int(position), byteCount: n) }
        position += Int64(n)
        return n
    }
}

/// read(2) by its C name (Glibc or Musl): inside a ByteSource the plain name is its own method.
private func readFile(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
