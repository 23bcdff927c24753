#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Tells a poll loop when the store's data changed, without polling: an inotify descriptor on the
/// store's folder becomes readable when the database or its WAL is written, and `changed()` then
/// asks SQLite (`PRAGMA data_version`) whether a commit really happened.
///
/// Put `fileDescriptor` in the loop's `poll()` set (POLLIN); when it is readable call `changed()`,
/// and redraw when it returns true. Writes are seen as soon as they are committed.
///
/// The WAL is written an instant before the commit becomes visible in its shared-memory index
/// (which raises no inotify event), so when an event shows no new commit yet the watcher wants to
/// look once more shortly after: give `poll()` at most `pollTimeout` milliseconds, and call
/// `changed()` whenever poll returns.
public final class StoreWatcher {
    public let path: String
    /// Readable when something in the store's folder changed.
    public let fileDescriptor: Int32
    private let store: Store
    private var version: Int64
    private let names: Set<String>
    private var recheckAt: Double?

    /// How long the loop may sleep before calling `changed()` again: -1 (forever) unless a recheck
    /// is pending. Use the smaller of this and the loop's own timeout.
    public var pollTimeout: Int32 {
        guard let recheckAt else { return -1 }
        return Int32(max(0, ((recheckAt - monotonicSeconds()) * 1000).rounded(.up)))
    }

    static let recheckDelay = 0.1

    /// Watches the store at `path` (created if missing, so there is something to watch).
    public init(path: String) throws(StoreError) {
        self.path = path
        store = try Store(path: path)
        version = try store.dataVersion()
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let file = slash.map { String(path[path.index(after: $0)...]) } ?? path
        names = [file, file + "-wal", file + "-journal"]
        func failure(_ call: String) -> StoreError {
            StoreError(.io, "store \(path): \(call): \(String(cString: strerror(errno)))")
        }
        fileDescriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fileDescriptor >= 0 else { throw failure("inotify_init1") }
        let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM)
        guard inotify_add_watch(fileDescriptor, folder, mask) >= 0 else {
            let error = failure("inotify_add_watch \(folder)")
            close(fileDescriptor)
            throw error
        }
    }

    deinit { close(fileDescriptor) }

    /// Reads the pending events; true when the store's data changed since the last call.
    public func changed() -> Bool {
        var relevant = false
        let size = 4096
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        var recheckDue = false
        if let recheckAt, monotonicSeconds() >= recheckAt {
            recheckDue = true
            self.recheckAt = nil
        }
        while true {
            let n = read(fileDescriptor, buffer, size)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= n {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = offset + MemoryLayout<inotify_event>.size
                var name = ""
                if event.len > 0 {
                    let p = (buffer + nameStart).assumingMemoryBound(to: CChar.self)
                    name = String(cString: p)
                }
                if names.contains(name) { relevant = true }
                offset = nameStart + Int(event.len)
            }
        }
        guard relevant || recheckDue else { return false }
        guard let now = try? store.dataVersion() else { return false }
        if now == version {
            if relevant { recheckAt = monotonicSeconds() + Self.recheckDelay }
            return false
        }
        version = now
        recheckAt = nil
        return true
    }
}
