import Raster
import Platform

/// Frames kept in memory, with everything the session asked of the output: for tests of the
/// session (idle, blanking, console switches) without a panel. It can act as a console that is
/// switched away from and back to, and as a panel another program holds for a while.
public final class RecordingSink: FrameSink, PoweredOutput, ConsoleHandover {
    public var poweredOutput: (any PoweredOutput)? { self }
    public var consoleHandover: (any ConsoleHandover)? { self }
    public let size: Size
    public let format: PixelFormat
    public let frameInterval: Duration
    /// The buffers frames are drawn into, in turn (two: like a panel that flips).
    public let buffers: [PixelBuffer]
    private var next = 0
    public var drawingBuffer: PixelBuffer { buffers[next] }
    /// Copies of the presented frames, with their damage.
    public private(set) var frames: [(picture: PixelBuffer, damage: IntRect)] = []
    /// The rectangles each presented frame changed.
    public private(set) var changes: [Damage] = []
    /// What the session did, in order: "present", "power off", "release", "acknowledge", "retake
    /// refused", "retake".
    public private(set) var events: [String] = []
    public private(set) var poweredDown = false
    public private(set) var suspended = false
    /// Takes part in console switching.
    public var switchesConsoles: Bool
    /// Whether this console is in front (false: a switch back that is stale).
    public var consoleInFront = true
    /// How many retakes are refused (another program holds the panel) before one succeeds.
    public var retakesRefused = 0
    /// Whether the panel has power control.
    public var hasPowerControl = true
    /// Whether the session may draw only what changed (false: every frame whole, the reference).
    public var keepsFrames = true
    /// Whether each presented frame is kept (a copy, its changes and the event); false keeps only
    /// their count: `glance bench --animated`, where copying the picture would cost more than
    /// drawing what changed.
    public var keepsPictures = true
    /// Frames presented (kept or not).
    public private(set) var presented = 0

    /// `buffers` 2 draws frames into two buffers in turn, as a double-buffered panel does.
    public init(size: Size, format: PixelFormat = .xrgb8888, frameInterval: Duration = .milliseconds(16),
                switchesConsoles: Bool = false, buffers: Int = 1) {
        self.size = size
        self.format = format
        self.frameInterval = frameInterval
        self.switchesConsoles = switchesConsoles
        self.buffers = (0..<max(1, buffers)).map { _ in PixelBuffer(width: size.width, height: size.height, format: format) }
    }

    public var lastFrame: PixelBuffer? { frames.last?.picture }
    /// The last frame presented: its copy, or (not kept) the buffer it was drawn into.
    public var presentedBuffer: PixelBuffer? {
        keepsPictures ? lastFrame : presented > 0 ? buffers[(next + buffers.count - 1) % buffers.count] : nil
    }

    public func present(damage: IntRect) throws(OutputFailure) {
        try present(changes: Damage(damage))
    }

    public func present(changes: Damage) throws(OutputFailure) {
        precondition(!suspended, "a frame presented while the panel is given up")
        presented += 1
        guard keepsPictures else {
            next = (next + 1) % buffers.count
            return
        }
        let copy = PixelBuffer(width: size.width, height: size.height, format: format)
        let source = drawingBuffer
        for y in 0..<size.height {
            (copy.base + y * copy.stride).copyMemory(
                from: source.base + y * source.stride, byteCount: size.width * format.bytesPerPixel)
        }
        frames.append((copy, changes.bounds))
        self.changes.append(changes)
        events.append("present")
        next = (next + 1) % buffers.count
    }

    public func setPower(on: Bool) -> Bool {
        guard hasPowerControl else { return false }
        poweredDown = !on
        events.append(on ? "power on" : "power off")
        return true
    }

    public func releaseConsole() -> String? {
        suspended = true
        events.append("release")
        return nil
    }

    public func acknowledgeReturn() -> String? {
        events.append("acknowledge")
        return nil
    }

    public func retake() throws(OutputFailure) -> Bool {
        if retakesRefused > 0 {
            retakesRefused -= 1
            events.append("retake refused")
            return false
        }
        suspended = false
        events.append("retake")
        return true
    }
}
