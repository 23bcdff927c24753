@testable import DeviceLogic
import Activity
import Controls
import Platform
import Raster
import Screens
import Testing

@testable import Runtime
import Configuration
import Clocks

/// The session draws only what changed, into one buffer or two in turn, and presents only that:
/// every frame it presents equals the frame a session drawing everything whole presents at the
/// same moments.
@Suite("Session: damage-limited frames equal whole frames", .timeLimit(.minutes(10)))
struct SessionDamageTests {
    static let day = SessionTests.day
    static let t0 = SessionTests.t0

    /// A session on `sink` showing the rings filling up (intro), or `task`'s progress first.
    static func session(_ sink: RecordingSink, task: ProgressContent? = nil, rotation: Rotation = .none) throws -> Session {
        var settings = Settings()
        settings.show.ringsOnly = true
        settings.run.intro = true
        settings.show.today = .date(day)
        settings.display.rotation = rotation
        if task != nil { settings.screens = [.progress, .rings] }
        let data = FixedData(days: [day: SessionTests.summary], task: task)
        let app = try Assembly.make(
            settings, sink: sink, parts: .init(text: .some(nil), clock: FixedClock(day), data: data, now: t0), log: { _ in }).get()
        return app.session
    }

    /// Runs the damage-limited session and the whole-frame one through the same turns; every
    /// presented frame must be the same. Returns the damage-limited sink.
    static func compare(
        buffers: Int, task: ProgressContent? = nil, size: Size = Size(width: 96, height: 80), rotation: Rotation = .none,
        format: PixelFormat = .xrgb8888, turns: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> RecordingSink {
        let sink = RecordingSink(size: size, format: format, frameInterval: .milliseconds(16), buffers: buffers)
        let reference = RecordingSink(size: size, format: format, frameInterval: .milliseconds(16))
        reference.keepsFrames = false
        let a = try session(sink, task: task, rotation: rotation)
        let b = try session(reference, task: task, rotation: rotation)
        for k in 0..<turns {
            let now = t0 + .milliseconds(16 * k)
            _ = try a.turn(now: now, ready: [], signals: [])
            _ = try b.turn(now: now, ready: [], signals: [])
        }
        #expect(sink.frames.count == reference.frames.count, sourceLocation: sourceLocation)
        for (i, (x, y)) in zip(sink.frames, reference.frames).enumerated() {
            if let (px, py) = DamageCheck.firstDifference(x.picture, y.picture) {
                Issue.record("frame \(i) (\(buffers) buffer(s)): pixel (\(px), \(py)) differs from the whole frame",
                             sourceLocation: sourceLocation)
                break
            }
        }
        return sink
    }

    @Test("the rings filling up: one buffer and two, straight and turned to RGB565; only parts presented")
    func intro() throws {
        for buffers in [1, 2] {
            let sink = try Self.compare(buffers: buffers, turns: 80)
            #expect(sink.frames.count > 40, "the intro animates")
            let whole = sink.size.width * sink.size.height
            #expect(sink.changes.first?.area == whole, "the first frame is whole")
            #expect(sink.changes.dropFirst().contains { $0.area < whole }, "later frames present only what changed")
            _ = try Self.compare(
                buffers: buffers, size: Size(width: 80, height: 96), rotation: .quarter, format: .rgb565, turns: 80)
        }
    }

    @Test("a task's spinner: one buffer and two, a small part of the panel presented each frame")
    func spinner() throws {
        let task = ProgressContent(amount: .indeterminate, style: .circular)
        for buffers in [1, 2] {
            let sink = try Self.compare(buffers: buffers, task: task, size: Size(width: 120, height: 120), turns: 70)
            #expect(sink.frames.count >= 60)
            let whole = sink.size.width * sink.size.height
            #expect(sink.changes.dropFirst().allSatisfy { $0.area < whole / 2 }, "\(sink.changes.map(\.area))")
        }
    }

    @Test("the buffer history: one behind redraws the last change, two behind the last two, unknown all")
    func history() {
        var h = FrameHistory()
        let a = Damage(IntRect(x: 0, y: 0, width: 4, height: 4))
        let b = Damage(IntRect(x: 10, y: 10, width: 4, height: 4))
        #expect(h.redraw(buffer: 1, change: nil) == nil, "a buffer never drawn: all of it")
        #expect(h.redraw(buffer: 2, change: a) == nil)
        #expect(h.redraw(buffer: 1, change: b) == a.union(b), "two frames behind")
        #expect(h.redraw(buffer: 1, change: a) == a, "one behind")
        #expect(h.redraw(buffer: 2, change: nil) == nil, "a frame that changed everything")
        #expect(h.redraw(buffer: 1, change: b) == nil, "behind a whole change")
        #expect(h.redraw(buffer: 1, change: Damage()) == Damage(), "nothing changed: nothing to draw")
        for _ in 0..<FrameHistory.depth { _ = h.redraw(buffer: 1, change: a) }
        #expect(h.redraw(buffer: 2, change: a) == nil, "further behind than remembered: all of it")
        h.forget()
        #expect(h.redraw(buffer: 1, change: a) == nil, "forgotten: all of it")
    }
}

/// Comparing frames.
enum DamageCheck {
    static func firstDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> (Int, Int)? {
        for y in 0..<a.height {
            for x in 0..<a.width where a.color(x: x, y: y) != b.color(x: x, y: y) { return (x, y) }
        }
        return nil
    }
}
