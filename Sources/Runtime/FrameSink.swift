import Display
import Platform
import Raster

extension OutputFailure {
    /// A DRM error and its status: 69 no display, 77 permission, 75 held by another program, 78
    /// no such connector/mode/format, 74 a call failed.
    public init(_ error: DisplayError) {
        let status: Outcome
        switch error {
        case .noDisplayDevice, .noUsableCard, .noDumbBuffers, .noConnectedConnector, .connectorWithoutModes, .noCRTC:
            status = Outcome.unavailable
        case .permissionDenied: status = Outcome.noPermission
        case .anotherMaster: status = Outcome.temporaryFailure
        case .connectorNotFound, .modeNotFound, .formatNotOffered, .noUsableFormat: status = Outcome.config
        case .system: status = Outcome.ioError
        }
        self.init(error.description, status: status)
    }
}

/// Where a session's frames go: the panel (`PanelSink`), PNG files (`PNGSink`), or memory
/// (`RecordingSink`, for tests). Frames and their pacing only: the session draws into
/// `drawingBuffer` and presents it with the damage, no faster than `frameInterval` and not while a
/// flip is pending. What only some outputs can do is a protocol of its own that the session asks
/// for once, when it is given the sink: power (`PoweredOutput`: DPMS) and giving the panel up for
/// another console (`ConsoleHandover`: VT switching). The sink says which it is (`poweredOutput`,
/// `consoleHandover`) rather than being cast: a cast to a protocol has the runtime look the
/// conformance up among all the binary's (some 2,300) the first time, at every start.
public protocol FrameSink: AnyObject {
    /// The panel's size (the buffers'; before rotation).
    var size: Size { get }
    var format: PixelFormat { get }
    /// The shortest time between two frames.
    var frameInterval: Duration { get }
    /// Where to draw the next frame.
    var drawingBuffer: PixelBuffer { get }
    /// Shows the drawn buffer; `damage` is the area that changed since the frame shown last.
    func present(damage: IntRect) throws(OutputFailure)
    /// Shows the drawn buffer; `changes` are the rectangles that changed since the frame shown
    /// last (the default presents their bounding box).
    func present(changes: Damage) throws(OutputFailure)
    /// The drawing buffers keep what was drawn into them until drawn again, so a frame may draw
    /// only what changed since a buffer's last frame (the default); false: every frame is drawn
    /// whole.
    var keepsFrames: Bool { get }
    /// A presented frame is not on the panel yet (a page flip): the next waits for it.
    var flipPending: Bool { get }
    /// Readable when the output has events to handle (flip completions); nil: none.
    var descriptor: FileDescriptor? { get }
    func handleEvents() throws(OutputFailure)
    /// Waits (briefly) until a pending frame is on the panel.
    func waitForFlip()
    /// Things worth telling that happened since the last call (a refused flip, a fallback).
    func takeNotes() -> [String]
    /// The buffer holding the frame presented last (the panel's size and format); nil before
    /// the first. What `glance screenshot` is given, turned upright.
    var presentedBuffer: PixelBuffer? { get }
    /// The display's connector and pixel format as its output knows them (DRM's `HDMI-A-1`, the
    /// fourcc `XR24`), for the control socket's `panel`; nil: an output without one.
    var connection: (connector: String, format: String)? { get }
    /// The sink as an output that can be powered down; nil: it cannot.
    var poweredOutput: (any PoweredOutput)? { get }
    /// The sink as an output that takes part in console switching; nil: it does not.
    var consoleHandover: (any ConsoleHandover)? { get }
}

extension FrameSink {
    public func present(changes: Damage) throws(OutputFailure) { try present(damage: changes.bounds) }
    public var keepsFrames: Bool { true }
    public var flipPending: Bool { false }
    public var descriptor: FileDescriptor? { nil }
    public func handleEvents() throws(OutputFailure) {}
    public func waitForFlip() {}
    public func takeNotes() -> [String] { [] }
    public var presentedBuffer: PixelBuffer? { nil }
    public var connection: (connector: String, format: String)? { nil }
    public var poweredOutput: (any PoweredOutput)? { nil }
    public var consoleHandover: (any ConsoleHandover)? { nil }
}

/// An output that can be powered down (DPMS) while the panel is blank.
public protocol PoweredOutput: AnyObject {
    /// Powered down by `setPower(on: false)`.
    var poweredDown: Bool { get }
    /// Powers the panel down or up; false when it cannot (it then stays black).
    func setPower(on: Bool) -> Bool
}

/// An output that takes part in console (VT) switching: it gives the panel up for another
/// console and takes it back.
public protocol ConsoleHandover: AnyObject {
    /// The output takes part in console switching now (a switch away waits for `releaseConsole`).
    var switchesConsoles: Bool { get }
    /// Given up for another console: nothing may be presented until `retake` succeeds.
    var suspended: Bool { get }
    /// Gives the panel up and lets the switch go ahead; returns a problem to tell, if any.
    func releaseConsole() -> String?
    /// Acknowledges the switch back (before `retake`); returns a problem to tell, if any.
    func acknowledgeReturn() -> String?
    /// Whether the output's console is the one in front (a switch back that is stale is not).
    var consoleInFront: Bool { get }
    /// Takes the panel again: false while another program still holds it (try again later).
    func retake() throws(OutputFailure) -> Bool
}

/// The panel through DRM/KMS, with its console: `DisplayOutput` as a session's sink.
public final class PanelSink: FrameSink, PoweredOutput, ConsoleHandover {
    public let output: DisplayOutput

    public init(_ output: DisplayOutput) { self.output = output }

    public var poweredOutput: (any PoweredOutput)? { self }
    public var consoleHandover: (any ConsoleHandover)? { self }

    public var size: Size { output.size }
    public var format: PixelFormat { output.format }
    public var frameInterval: Duration {
        // One frame per refresh period, but at most 60 a second.
        let hz = output.plan.mode.refreshHz
        return .nanoseconds(1_000_000_000 / max(1, min(60, hz == 0 ? 60 : hz)))
    }
    public var drawingBuffer: PixelBuffer { output.drawingBuffer }
    public var connection: (connector: String, format: String)? { (output.plan.connector.name, fourCCName(output.format.fourCC)) }

    public func present(damage: IntRect) throws(OutputFailure) {
        try present(changes: Damage(damage))
    }

    /// Every rectangle goes to the driver (damage clips, DirtyFB rectangles).
    public func present(changes: Damage) throws(OutputFailure) {
        do throws(DisplayError) {
            try output.present(damage: changes.rects)
        } catch {
            throw OutputFailure(error)
        }
    }

    public var flipPending: Bool { output.flipPending }
    public var descriptor: FileDescriptor? { output.descriptor }

    public func handleEvents() throws(OutputFailure) {
        do throws(DisplayError) {
            _ = try output.handleEvents()
        } catch {
            throw OutputFailure(error)
        }
    }

    public func waitForFlip() { output.waitForFlip() }
    public var poweredDown: Bool { output.poweredDown }
    public func setPower(on: Bool) -> Bool { output.setPower(on: on) }
    public func takeNotes() -> [String] { output.takeNotes() }
    public var presentedBuffer: PixelBuffer? { output.presentedBuffer }

    public var switchesConsoles: Bool { output.terminal?.controlsSwitching ?? false }
    public var suspended: Bool { output.suspended }

    public func releaseConsole() -> String? {
        output.suspend()
        do {
            try output.terminal?.allowRelease()
        } catch {
            return "\(error): the switch to the other console may be held up; stopping glance lets it go"
        }
        return nil
    }

    public func acknowledgeReturn() -> String? {
        do {
            try output.terminal?.acknowledgeAcquire()
        } catch {
            return "\(error)"
        }
        return nil
    }

    public var consoleInFront: Bool { output.terminal?.isInFront ?? true }

    public func retake() throws(OutputFailure) -> Bool {
        do throws(DisplayError) {
            return try output.resume()
        } catch {
            throw OutputFailure(error)
        }
    }
}
