#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A small file's text (a token, a certificate), nil when it cannot be read (errno says why).
public func readSmallFile(_ path: String, limit: Int) -> String? {
    var mode: mode_t = 0
    return readSmallFile(path, limit: limit, mode: &mode)
}

/// A small file's text and its permission bits (those of the file read, not of a name swapped since).
public func readSmallFile(_ path: String, limit: Int, mode: inout mode_t) -> String? {
    readSmallFileBytes(path, limit: limit, mode: &mode).map { String(decoding: $0, as: UTF8.self) }
}

/// A small regular file's bytes (a PNG), nil when it cannot be read or is larger than `limit`
/// (errno says why: EINVAL for a larger file or one that is not regular).
public func readSmallFileBytes(_ path: String, limit: Int) -> [UInt8]? {
    var mode: mode_t = 0
    return readSmallFileBytes(path, limit: limit, mode: &mode)
}

public func readSmallFileBytes(_ path: String, limit: Int, mode: inout mode_t) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, Int(st.st_size) <= limit else {
        errno = EINVAL
        return nil
    }
    mode = st.st_mode & 0o7777
    var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
    var count = 0
    while count < bytes.count {
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
        if n < 0 && errno == EINTR { continue }
        guard n >= 0 else { return nil }
        if n == 0 { break }
        count += n
    }
    return Array(bytes.prefix(count))
}

/// A kernel file's text (/proc, /sys: their size says 0 or a page, whatever they hold), at most
/// `limit` bytes of it; nil when it cannot be opened or read.
public func readKernelFile(_ path: String, limit: Int) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: limit)
    var count = 0
    while count < limit {
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, limit - count) }
        if n < 0 && errno == EINTR { continue }
        guard n >= 0 else { return nil }
        if n == 0 { break }
        count += n
    }
    return String(decoding: bytes.prefix(count), as: UTF8.self)
}
