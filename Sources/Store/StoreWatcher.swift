import Platform

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
/// (which raises no inotify event), so when an event shows no new commit yet the watcher looks
/// again a little later, backing off (0.1, 0.2, 0.3, 0.4 s: a second in all) until it does: give
/// `poll()` at most `pollTimeout` milliseconds, and call `changed()` whenever poll returns. It also
/// looks again when SQLite could not answer, and takes an inotify queue overflow (events lost) as
/// a possible change.
///
/// A database renamed over the store's name (or a new file made after it was deleted) is not
/// followed: SQLite would pair the
/// new file with the old one's `-wal` and `-shm` while this connection still uses them. The
/// watcher sets `replaced` instead, and its owner ends (a service is started again, on the new
/// file).
public final class StoreWatcher {
    public let path: String
    /// Readable when something in the store's folder changed.
    public let fileDescriptor: Int32
    private let store: Store
    private var version: Int64
    /// How the data version is read (`store.dataVersion()`); tests make it fail.
    var readVersion: () throws(StoreError) -> Int64
    private let names: Set<String>
    private var recheckAt: Double?
    /// How many re-checks since the last event (the index of the next delay).
    private var rechecks = 0
    /// Another file has taken the store's name (see the type's notes); `changed()` reports
    /// nothing more.
    public private(set) var replaced = false

    /// What to tell the person when `replaced` is set.
    public var replacedMessage: String {
        "the store \(path) was replaced by another file while in use; ending so that it is opened afresh "
            + "(a service is started again; to restore a store safely, stop the app first)"
    }

    /// How long the loop may sleep before calling `changed()` again: -1 (forever) unless a recheck
    /// is pending. Use the smaller of this and the loop's own timeout.
    public var pollTimeout: Int32 {
        guard let recheckAt else { return -1 }
        return Int32(max(0, ((recheckAt - monotonicSeconds()) * 1000).rounded(.up)))
    }

    /// The waits between looks after an event that showed no new commit.
    static let recheckDelays = [0.1, 0.2, 0.3, 0.4]

    /// Watches the store at `path` (created if missing, so there is something to watch) through a
    /// connection of its own.
    public convenience init(path: String) throws(StoreError) {
        try self.init(store: try Store(path: path))
    }

    /// Watches `store` through its connection (no second one; use both from the same thread).
    /// SQLite's data version counts other connections' commits only, so changes made through
    /// `store` itself are not reported: the owner knows about those.
    public init(store: Store) throws(StoreError) {
        let path = store.path
        self.path = path
        self.store = store
        readVersion = { () throws(StoreError) -> Int64 in try store.dataVersion() }
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
        var recheckDue = false
        if let recheckAt, monotonicSeconds() >= recheckAt {
            recheckDue = true
            self.recheckAt = nil
        }
        let relevant = readEvents()
        guard !replaced, relevant || recheckDue else { return false }
        if relevant && store.isReplaced() {
            replaced = true
            recheckAt = nil
            return false
        }
        if relevant { rechecks = 0 }  // something new happened: back off from the start
        guard let now = try? readVersion(), now != version else {
            // Not visible yet (or SQLite could not say): look again shortly.
            scheduleRecheck()
            return false
        }
        version = now
        recheckAt = nil
        rechecks = 0
        return true
    }

    /// Drains the inotify descriptor; true when an event may concern the store: one on its files,
    /// one without a name (the folder itself), or a queue overflow (events were lost).
    private func readEvents() -> Bool {
        var relevant = false
        let size = 4096
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let n = retryingInterrupts { read(fileDescriptor, buffer, size) }
            guard n > 0 else { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= n {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = offset + MemoryLayout<inotify_event>.size
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 || event.len == 0 {
                    relevant = true
                } else {
                    let name = String(cString: (buffer + nameStart).assumingMemoryBound(to: CChar.self))
                    if names.contains(name) { relevant = true }
                }
                offset = nameStart + Int(event.len)
            }
        }
        return relevant
    }

    private func scheduleRecheck() {
        guard rechecks < Self.recheckDelays.count else {
            recheckAt = nil  // a second of nothing: the event was not a commit
            return
        }
        recheckAt = monotonicSeconds() + Self.recheckDelays[rechecks]
        rechecks += 1
    }
}
