import Activity
import Foundation
import Testing

@testable import Store

/// `checkLater` (glance run's first frame): the store's check and its settings for writing come
/// after the opening, and nothing is written before them; a damaged, too new or foreign store is
/// refused with the same error as by an opening that checks at once.
@Suite(.timeLimit(.minutes(10))) struct StoreCheckLaterTests {
    /// A store of 3000 days (several pages), its WAL folded into the file, 64 bytes of its middle
    /// flipped: `PRAGMA quick_check` finds it; reading today's summary alone may not.
    static func damagedStore(_ scratch: Scratch) throws -> (path: String, bytes: Data) {
        do {
            let store = try Store(path: scratch.db)
            let first = CalendarDay(year: 2015, month: 1, day: 1)!
            try store.transaction { () throws(StoreError) in
                for i in 0..<3000 {
                    let summary = ActivitySummary(
                        activeEnergyBurned: .kilocalories(Double(300 + i % 200)), activeEnergyBurnedGoal: .kilocalories(500),
                        exerciseTime: Double(i % 60), exerciseTimeGoal: 30)
                    try store.setSummary(summary, for: first.adding(days: i))
                }
            }
            try store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        var bytes = try #require(FileManager.default.contents(atPath: scratch.db))
        let middle = bytes.count / 2
        for i in middle..<(middle + 64) { bytes[i] ^= 0xFF }
        try bytes.write(to: URL(fileURLWithPath: scratch.db))
        return (scratch.db, bytes)
    }

    static func journalMode(_ store: Store) throws -> String? {
        let statement = try store.db.prepare("PRAGMA journal_mode")
        guard try statement.step() else { return nil }
        return statement.text(0)
    }

    @Test func aDamagedStoreIsRefusedByFinishOpeningWithTheOpeningsErrorAndNeverWritten() throws {
        let scratch = Scratch()
        let (path, bytes) = try Self.damagedStore(scratch)
        let atOnce = thrownStoreError { _ = try Store(path: path) }
        #expect(atOnce?.isDamage == true && atOnce?.kind == .badData, "\(String(describing: atOnce))")
        let store = try Store(path: path, checkLater: true)
        let later = thrownStoreError { try store.finishOpening() }
        #expect(later?.message == atOnce?.message && later?.kind == atOnce?.kind)
        // A write before (or after) a failed check does the check first, and throws it.
        let write = thrownStoreError { try store.setPreferences([("brightness", "0.5")]) }
        #expect(write?.message == atOnce?.message)
        let put = thrownStoreError { try store.setSummary(nil, for: CalendarDay(year: 2015, month: 1, day: 1)!) }
        #expect(put?.message == atOnce?.message)
        #expect(thrownStoreError { try store.finishOpening() }?.message == atOnce?.message, "refused again")
        #expect(FileManager.default.contents(atPath: path) == bytes, "written into the damaged store")
    }

    @Test func aSoundStoreIsReadBeforeTheCheckAndWrittenAfterIt() throws {
        let scratch = Scratch()
        let day = CalendarDay(year: 2026, month: 12, day: 2)!
        let summary = ActivitySummary(activeEnergyBurned: .kilocalories(300), activeEnergyBurnedGoal: .kilocalories(500))
        do { try Store(path: scratch.db).setSummary(summary, for: day) }
        let store = try Store(path: scratch.db, checkLater: true)
        #expect(try store.summary(for: day) == summary)
        // The connection's settings for writing are not made yet: SQLite's default.
        #expect(try store.db.integer("PRAGMA synchronous") == 2)
        // The first write checks the store and makes them first.
        try store.setPreferences([("brightness", "0.5")])
        #expect(try store.db.integer("PRAGMA synchronous") == 1 && store.db.integer("PRAGMA foreign_keys") == 1)
        try store.finishOpening()  // passed already: a no-op
        #expect(try Store(path: scratch.db, access: .read).preference("brightness") == "0.5")
        let other = try Store(path: scratch.db, checkLater: true)
        try other.finishOpening()
        #expect(try other.db.integer("PRAGMA synchronous") == 1)
        #expect(try Self.journalMode(other) == "wal")
    }

    @Test func tooNewAndForeignStoresAreRefusedAtTheOpeningAsEver() throws {
        let scratch = Scratch()
        let newer = scratch.file("newer.db")
        do { try Store(path: newer).db.execute("PRAGMA user_version = \(Schema.currentVersion + 1)") }
        let foreign = scratch.file("notes.sqlite")
        try StoreTests.foreignDatabase(foreign)
        for path in [newer, foreign] {
            let atOnce = thrownStoreError { _ = try Store(path: path) }
            let later = thrownStoreError { _ = try Store(path: path, checkLater: true) }
            #expect(atOnce != nil && later?.message == atOnce?.message && later?.kind == atOnce?.kind, "\(path)")
        }
    }

    @Test func aStoreToBeMadeIsMadeWholeAtTheOpening() throws {
        let scratch = Scratch()
        let store = try Store(path: scratch.db, checkLater: true)
        #expect(try store.schemaVersion() == Schema.currentVersion)
        #expect(try Self.journalMode(store) == "wal")
        #expect(try store.db.integer("PRAGMA synchronous") == 1)
    }
}
