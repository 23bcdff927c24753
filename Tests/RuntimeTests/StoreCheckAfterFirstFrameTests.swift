@testable import DeviceLogic
import Activity
import Clocks
import Configuration
import Foundation
import Platform
import Raster
import Store
import TestSupport
import Testing

@testable import Runtime

/// glance run checks its store once the first frame is up (`Assembly.Parts.checkStoreLater`): a
/// damaged store still ends the app with the message and exit status of an opening that checks
/// at once, from the first frame's turn, and is not written into.
@Suite("The store's check after the first frame", .timeLimit(.minutes(10)))
struct StoreCheckAfterFirstFrameTests {
    static let day = CalendarDay(year: 2026, month: 11, day: 29)!

    /// The demo's year of days (several pages), 64 bytes of a b-tree page from the file's middle
    /// on flipped once the last connection has folded its WAL in.
    static func damagedStore(_ folder: ScratchFolder) throws -> (path: String, bytes: Data) {
        let path = folder.file("glance.db")
        do { _ = try DemoData.load(into: try Store(path: path), endingOn: day) }
        var bytes = try #require(FileManager.default.contents(atPath: path))
        // A b-tree page from the middle on (a free page's bytes, left by a migration's copied
        // tables, are nothing a check reads): its header and first cells.
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        var page = bytes.count / 2 / pageSize * pageSize
        while page + pageSize < bytes.count, ![2, 5, 10, 13].contains(bytes[page]) { page += pageSize }
        let middle = page + 1
        for i in middle..<(middle + 64) { bytes[i] ^= 0xFF }
        try bytes.write(to: URL(fileURLWithPath: path))
        return (path, bytes)
    }

    static func make(_ path: String, later: Bool) -> Result<Assembly, OutputFailure> {
        var settings = Settings()
        settings.show.ringsOnly = true
        settings.database = path
        var parts = Assembly.Parts(text: .some(nil), clock: FixedClock(day))
        parts.checkStoreLater = later
        return Assembly.make(settings, sink: RecordingSink(size: Size(width: 32, height: 32)), parts: parts, log: { _ in })
    }

    @Test("a damaged store: the same failure (65) from the first frame's turn as from the opening; the file unchanged")
    func damagedStoreEndsTheSessionAfterTheFirstFrame() throws {
        let folder = ScratchFolder("check-later")
        let (path, bytes) = try Self.damagedStore(folder)
        guard case .failure(let atOnce) = Self.make(path, later: false) else {
            Issue.record("the damaged store was opened")
            return
        }
        #expect(atOnce.status == Outcome.dataError && atOnce.message.contains("is damaged"), "\(atOnce.status) \(atOnce.message)")
        let app = try Self.make(path, later: true).get()
        var frames = 0
        let data = app.data
        app.session.onFirstFrame = { [unowned session = app.session] () throws(OutputFailure) in
            frames = session.framesDrawn
            try Assembly.finishOpening(data)
        }
        var thrown: OutputFailure?
        do throws(OutputFailure) {
            _ = try app.session.turn(now: .seconds(1), ready: [], signals: [])
        } catch {
            thrown = error
        }
        #expect(frames == 1, "the check came after the first frame")
        #expect(thrown?.status == atOnce.status && thrown?.message == atOnce.message, "\(String(describing: thrown))")
        #expect(FileManager.default.contents(atPath: path) == bytes, "written into the damaged store")
    }

    @Test("a sound store: the check passes after the first frame, and the session goes on")
    func soundStoreGoesOn() throws {
        let folder = ScratchFolder("check-later")
        let path = folder.file("glance.db")
        do { _ = try DemoData.load(into: try Store(path: path), endingOn: Self.day) }
        let app = try Self.make(path, later: true).get()
        let data = app.data
        app.session.onFirstFrame = { () throws(OutputFailure) in try Assembly.finishOpening(data) }
        _ = try app.session.turn(now: .seconds(1), ready: [], signals: [])
        #expect(app.session.framesDrawn == 1)
        try app.finishOpening()
    }
}
