#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The names in the folder at `path` (without "." and ".."), unsorted; nil when it cannot be read.
public func directoryEntries(_ path: String) -> [String]? {
    guard let dir = opendir(path) else { return nil }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}

/// The nodes named `prefix` and a number ("card0", "event12") in `directory`, as paths in number
/// order; nil when the folder cannot be read.
public func numberedNodes(in directory: String, prefix: String) -> [String]? {
    guard let names = directoryEntries(directory) else { return nil }
    let numbers = names.compactMap { name in name.hasPrefix(prefix) ? Int(name.dropFirst(prefix.count)) : nil }
    return numbers.sorted().map { "\(directory)/\(prefix)\($0)" }
}

/// Whether `path` names something (stat(2) follows links, as access(2) does).
public func fileExists(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0
}
