import Activity
import Testing

@testable import Store

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct StoreWatcherTests {
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

    @Test func readsAloneDoNotCountAsChanges() throws {
        let scratch = Scratch()
        let watcher = try StoreWatcher(path: scratch.db)
        let reader = try Store(path: scratch.db)
        _ = try reader.summary(for: CalendarDay(iso: "2025-01-01")!)
        _ = try reader.metrics()
        #expect(!Self.waitForChange(watcher, milliseconds: 300))
    }
}
