import Activity
import Foundation
import Testing

@testable import Store

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.timeLimit(.minutes(10))) struct StoreWatcherTests {
    /// Waits in poll() on the watcher like an event loop would; true when it reported a change.
    static func waitForChange(_ watcher: StoreWatcher, milliseconds: Int32) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(milliseconds))
        while ContinuousClock.now < deadline {
            var fd = pollfd(fd: watcher.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let left =
                Int32((deadline - ContinuousClock.now).components.attoseconds / 1_000_000_000_000_000)
                + Int32((deadline - ContinuousClock.now).components.seconds * 1000)
            let timeout = watcher.pollTimeout < 0 ? max(left, 0) : min(watcher.pollTimeout, max(left, 0))
            _ = poll(&fd, 1, timeout)
            if watcher.changed() { return true }
        }
        return false
    }

    @Test func aCommitByAnotherConnectionWakesThePollLoopWithinASecond() throws {
        let scratch = Scratch()
        let watcher = try StoreWatcher(path: scratch.db)
        #expect(!watcher.changed())
        #expect(watcher.pollTimeout == -1)  // nothing pending: the loop may sleep forever

        let writer = try Store(path: scratch.db)
        try writer.setSummary(ActivitySummary(exerciseTime: 3), for: CalendarDay(iso: "2025-01-01")!)
        #expect(Self.waitForChange(watcher, milliseconds: 1000))
        // Nothing more happened: no change is reported, however often the loop asks.
        #expect(!watcher.changed())

        try writer.setMetric("cpu", value: 50)
        #expect(Self.waitForChange(watcher, milliseconds: 1000))
    }

    @Test func anEventWithoutANewCommitIsLookedAtAgainWithBackoffForASecond() throws {
        let scratch = Scratch()
        let watcher = try StoreWatcher(path: scratch.db)
        // A write to one of the store's files that is not (yet) a visible commit.
        scratch.write("glance.db-journal", "")
        var fd = pollfd(fd: watcher.fileDescriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&fd, 1, 1000)
        #expect(!watcher.changed())
        var waits: [Int32] = []
        let started = ContinuousClock.now
        while watcher.pollTimeout >= 0, waits.count < 10 {
            let timeout = watcher.pollTimeout
            waits.append(timeout)
            usleep(useconds_t(timeout) * 1000 + 1000)
            #expect(!watcher.changed())
        }
        // 0.1, 0.2, 0.3, 0.4 s (each at most that: a thread paused between two looks sees less
        // left, so the backoff's length is checked over the whole), then it rests.
        #expect(waits.count == StoreWatcher.recheckDelays.count, "\(waits)")
        for (wait, delay) in zip(waits, StoreWatcher.recheckDelays) {
            #expect(wait <= Int32(delay * 1000) && wait >= 0, "\(waits)")
        }
        #expect(ContinuousClock.now - started >= .milliseconds(950))
        #expect(watcher.pollTimeout == -1)
    }

    /// The kernel's inotify queue length: the test fills it, which takes too long past 100,000.
    static let queueLimit = (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))
        .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }

    /// The skip reason (a plain value: Swift 6.0 crashes on string interpolation in a trait).
    static let queueTooLong = "fs.inotify.max_queued_events is unreadable or above 100,000: filling the queue would take too long"

    @Test(.enabled(if: (queueLimit ?? .max) <= 100_000, Comment(rawValue: queueTooLong)))
    func aCommitWhoseEventsWereLostInAQueueOverflowIsStillSeen() throws {
        let limit = try #require(Self.queueLimit)
        let scratch = Scratch()
        let watcher = try StoreWatcher(path: scratch.db)
        let writer = try Store(path: scratch.db)
        // Fill the watcher's queue with events about other files (create, close, delete: three each).
        for i in 0...(limit / 3 + 10) {
            let path = scratch.file("other-\(i)")
            close(open(path, O_CREAT | O_WRONLY, 0o644))
            unlink(path)
        }
        // The commit's own events are dropped: only the overflow says something happened.
        try writer.setMetric("cpu", value: 50)
        #expect(watcher.changed())
        #expect(!watcher.changed())
    }

    @Test func aWatcherCanShareTheAppsConnection() throws {
        let scratch = Scratch()
        let store = try Store(path: scratch.db)
        let watcher = try StoreWatcher(store: store)
        #expect(watcher.path == scratch.db)
        try Store(path: scratch.db).setMetric("cpu", value: 50)  // another process's commit
        #expect(Self.waitForChange(watcher, milliseconds: 1000))
        #expect(try store.metric(named: "cpu")?.value == 50)
    }

    @Test func anotherFileRenamedOverTheStoreIsReportedAsReplacedNotAsAChange() throws {
        let scratch = Scratch()
        let store = try Store(path: scratch.db)
        let watcher = try StoreWatcher(store: store)
        // Ordinary commits and a copy written beside it: the store is the same file.
        try Store(path: scratch.db).setMetric("cpu", value: 50)
        #expect(Self.waitForChange(watcher, milliseconds: 1000))
        let other = scratch.file("other.db")
        try Store(path: other).setMetric("cpu", value: 99)
        #expect(!store.isReplaced())
        #expect(!watcher.replaced)
        // A new database takes the name (mv other.db glance.db).
        #expect(rename(other, scratch.db) == 0)
        #expect(store.isReplaced())
        #expect(!Self.waitForChange(watcher, milliseconds: 300), "a replaced store is not followed")
        #expect(watcher.replaced)
        #expect(watcher.replacedMessage.contains("the store \(scratch.db) was replaced by another file"))
        #expect(watcher.pollTimeout == -1)
        // The connection still reads the file it opened.
        #expect(try store.metric(named: "cpu")?.value == 50)
    }

    @Test func aDeletedStoreIsNotReplacedUntilAnotherFileTakesItsName() throws {
        let scratch = Scratch()
        let store = try Store(path: scratch.db)
        let watcher = try StoreWatcher(store: store)
        #expect(unlink(scratch.db) == 0)
        _ = Self.waitForChange(watcher, milliseconds: 300)
        #expect(!watcher.replaced)
        _ = try Store(path: scratch.db)
        _ = Self.waitForChange(watcher, milliseconds: 300)
        #expect(watcher.replaced)
    }

    @Test func aLookSQLiteCannotAnswerIsTriedAgainAndTheCommitStillSeen() throws {
        let scratch = Scratch()
        let store = try Store(path: scratch.db)
        let watcher = try StoreWatcher(store: store)
        // SQLite cannot answer (a locked or damaged file, an I/O error): the watcher's query of
        // the data version fails when the commit's event comes.
        watcher.readVersion = { () throws(StoreError) -> Int64 in throw StoreError(.io, "test: no answer") }
        try Store(path: scratch.db).setMetric("cpu", value: 50)
        var fd = pollfd(fd: watcher.fileDescriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&fd, 1, 1000)
        #expect(!watcher.changed(), "no answer is no change yet")
        #expect(watcher.pollTimeout >= 0, "a look again is scheduled")
        // SQLite answers again: the re-check, with no new event, sees the commit.
        watcher.readVersion = { () throws(StoreError) -> Int64 in try store.dataVersion() }
        #expect(Self.waitForChange(watcher, milliseconds: 1500))
        #expect(try store.metric(named: "cpu")?.value == 50)
    }

    @Test func readsAloneDoNotCountAsChanges() throws {
        let scratch = Scratch()
        let watcher = try StoreWatcher(path: scratch.db)
        let reader = try Store(path: scratch.db)
        _ = try reader.summary(for: CalendarDay(iso: "2025-01-01")!)
        _ = try reader.metrics()
        #expect(!Self.waitForChange(watcher, milliseconds: 300))
    }
}
