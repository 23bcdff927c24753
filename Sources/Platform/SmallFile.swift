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
    let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard n >= 0 else { return nil }
    return String(decoding: bytes.prefix(n), as: UTF8.self)
}
