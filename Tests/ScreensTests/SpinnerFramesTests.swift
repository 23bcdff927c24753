import Raster
@testable import Screens
import Testing
import Text

/// The spinner's frames kept and copied (`ProgressScreen.drawKeptSpinner`): every frame equals the
/// frame drawn from scratch by a screen that keeps nothing, over two whole turns, at rates whose
/// positions repeat turn after turn (30 and 60 fps: the second turn is copied) and at one whose
/// positions never repeat exactly; the frames kept stay within their bound.
@Suite("The spinner's frames kept and copied", .timeLimit(.minutes(10)))
struct SpinnerFramesTests {
    /// A frame's time as the session has it: a whole number of nanoseconds of the frame interval.
    static func time(_ frame: Int, fps: Double) -> Double {
        Double(Int64(frame) * Int64((1e9 / fps).rounded())) / 1e9
    }

    static func fresh(_ locale: AppLocale, _ fonts: Fonts, label: String = "Importing health data") throws -> ProgressScreen {
        ProgressScreen(
            content: ProgressContent(amount: .indeterminate, style: .circular, label: label, cancellable: true,
                                     cancelNote: "The import so far is kept"),
            context: ScreenContext(text: try fonts(locale), locale: locale))
    }

    /// Two turns (and a frame) at `fps` through the painter as the session runs it (a picture in
    /// memory, the frames after the first drawn in part), each frame checked against a new screen
    /// drawing it whole; returns the screen's frames kept.
    static func run(fps: Double, panel: Size, buffers: Int, turns: Double = 2, fonts: Fonts) throws -> SpinnerFrames {
        let screen = try fresh(.english, fonts)
        var painter = FramePainter(composer: FrameComposer(panel: panel, shadow: true))
        let targets = (0..<buffers).map { _ in PixelBuffer(width: panel.width, height: panel.height) }
        let whole = FrameComposer(panel: panel)
        let count = Int((turns * fps).rounded(.up)) + 1
        for i in 0..<count {
            let t = time(i, fps: fps)
            let target = targets[i % buffers]
            _ = painter.paint(screen, at: t, into: target, animating: true)
            let expected = whole.render(try fresh(.english, fonts), at: t)
            if let (x, y) = DamageTests.firstDifference(target, expected) {
                Issue.record("\(fps) fps \(panel), frame \(i) at \(t) s: pixel (\(x), \(y)) is \(target.color(x: x, y: y)), drawn from scratch \(expected.color(x: x, y: y))")
                break
            }
        }
        return screen.memo.spinner
    }

    @Test("two turns at 30 and 60 fps: the second turn copied, every frame as drawn from scratch",
          arguments: [30.0, 60.0])
    func repeating(fps: Double) throws {
        let fonts = Fonts()
        for buffers in [1, 2] {
            let frames = try Self.run(fps: fps, panel: Size(width: 480, height: 480), buffers: buffers, fonts: fonts)
            // The first turn drawn and kept (its first frame whole), the second copied.
            #expect(frames.kept >= Int(fps) - 2 && frames.kept <= Int(fps), "\(fps) fps: \(frames.kept) kept")
            #expect(frames.hits >= Int(fps) - 1, "\(fps) fps: \(frames.hits) copied")
            #expect(frames.bytes <= SpinnerFrames.maxBytes)
        }
        let small = try Self.run(fps: fps, panel: Size(width: 240, height: 240), buffers: 1, fonts: fonts)
        #expect(small.hits >= Int(fps) - 1)
    }

    @Test("at 47.3 fps, whose positions never repeat exactly: every frame as drawn from scratch, nothing copied")
    func neverRepeating() throws {
        let frames = try Self.run(fps: 47.3, panel: Size(width: 480, height: 480), buffers: 1, fonts: Fonts())
        #expect(frames.hits == 0, "\(frames.hits) copied")
        #expect(frames.kept > 90)
    }

    @Test("the frames kept stay within their bound: 20 turns at 47.3 fps on 1080p")
    func bounded() throws {
        let frames = try Self.run(fps: 47.3, panel: Size(width: 1920, height: 1080), buffers: 1, turns: 20, fonts: Fonts())
        #expect(frames.bytes <= SpinnerFrames.maxBytes, "\(frames.bytes) bytes")
        #expect(frames.count < frames.kept, "old frames dropped: \(frames.count) of \(frames.kept)")
    }

    @Test("another label: the frames kept with the old one are not taken")
    func anotherLabel() throws {
        let fonts = Fonts()
        let a = try Self.fresh(.english, fonts)
        let b = try Self.fresh(.english, fonts, label: "Reading export.zip")
        let panel = Size(width: 480, height: 480)
        var painter = FramePainter(composer: FrameComposer(panel: panel, shadow: true))
        let target = PixelBuffer(width: panel.width, height: panel.height)
        let whole = FrameComposer(panel: panel)
        // A turn of a, then a turn of b and a again: each frame as drawn from scratch.
        for i in 0..<90 {
            let t = Self.time(i, fps: 30)
            let screen = (i / 30) % 2 == 0 ? a : b
            _ = painter.paint(screen, at: t, into: target, animating: true)
            let expected = whole.render(
                try Self.fresh(.english, fonts, label: screen.content.label), at: t)
            if let (x, y) = DamageTests.firstDifference(target, expected) {
                Issue.record("frame \(i): pixel (\(x), \(y)) differs from the frame drawn from scratch")
                break
            }
        }
        #expect(a.memo.spinner.hits > 0, "a's second turn copied")
    }
}
