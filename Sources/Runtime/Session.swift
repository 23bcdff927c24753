import Activity
import DeviceLogic
import Platform
import Raster
import Screens


/// The app running: a controller (input, data, navigation, idle, midnight) drawn into a frame
/// sink (the panel, PNG files, memory) by one poll loop that also takes the signals (a signalfd).
///
/// It draws only when the scheduler says so: something changed, or an animation's next frame is
/// due; it sleeps on a timer while animating and without one when idle. SIGINT and SIGTERM end
/// it (so the panel is restored in ordinary code); SIGHUP reloads the configuration in place
/// (`onReload`); SIGUSR1 and SIGUSR2 are the console's switch away and back (VT_PROCESS) and
/// hand the panel, the input and the backlight over, where the sink takes part in that
/// (`ConsoleHandover`).
///
/// The loop's decisions are in `turn(now:ready:signals:)`, which takes the time and what became
/// readable as values: tests drive it with a `RecordingSink` and a made-up clock.
public final class Session {
    /// Where frames go, and how screens become them; both change when a reload changes the
    /// display (`replaceOutput`) or its rotation (`turn(to:)`).
    public private(set) var sink: any FrameSink
    /// What the sink can do besides frames, asked once when it is given: power it down while
    /// blank (DPMS), give the panel up for another console (VT switching). nil: it cannot.
    private var power: (any PoweredOutput)?
    private var handover: (any ConsoleHandover)?
    /// How pictures are turned and converted onto the panel: the painter's (one place, so a new
    /// rotation or output reaches the frames drawn).
    public var composer: FrameComposer { painter.composer }
    public let controller: any SceneSource
    /// The poll loop: signals, the timer, the watched descriptors.
    private let loop: EventLoop
    private var scheduler: FrameScheduler
    private let log: (String) -> Void
    /// When the session started (its scene's time counts from here).
    private var start: Duration?
    /// The first frame was animating: the scene's clock starts again at the second, one frame
    /// interval before it (a slow first frame would otherwise eat into the intro).
    private var restartClock = false
    /// Frames drawn (the first by the mode set).
    public private(set) var framesDrawn = 0
    /// When the first frame was on screen (CLOCK_MONOTONIC).
    public private(set) var firstFrameShown: Duration?
    /// How long the first frame took to draw, and to put on screen (the mode set).
    public private(set) var firstFrameDraw: Duration?
    public private(set) var firstFramePresent: Duration?
    /// The minor page faults the first frame's draw and its mode set took (first touches of memory).
    public private(set) var firstFrameFaults: (draw: Int, present: Int)?
    /// Called once when the first frame is on screen; what it throws ends the session.
    public var onFirstFrame: (() throws(OutputFailure) -> Void)?
    /// Called after each frame is presented, with the scene's description of it.
    public var onFrame: (() -> Void)?
    /// Called after each frame is drawn and before it is presented: its time on the scene's
    /// clock (what the screen was drawn at) and where it was drawn and what of the panel changed.
    public var onDrawn: ((Double, FramePainter.Frame) -> Void)?
    /// A liveness ping (systemd's `WATCHDOG=1`) and how often the loop must call it.
    public var watchdog: (interval: Duration, ping: () -> Void)?
    /// The control socket (`glance screenshot`), answered from the loop with the frame on the
    /// panel.
    public var control: ControlServer? {
        didSet {
            control?.picture = { [unowned self] in screenshot() }
            control?.output = { [unowned self] in outputFacts }
            control?.reload = { [unowned self] now, asker in reload(now: now, asker: asker) }
            control?.problems = log
            sources = Self.sources(flips, control, controller)
        }
    }
    /// What the loop waits on besides the signals and its timer, each in the loop's one shape of
    /// a source, in the order a turn hands them what came: the output's events (a flip done),
    /// the control socket, the controller's devices and data.
    private var sources: [any ReadingSource] = []
    private let flips: OutputEvents

    static func sources(_ flips: OutputEvents, _ control: ControlServer?, _ controller: any SceneSource) -> [any ReadingSource] {
        [flips] + (control.map { [$0] } ?? []) + [controller]
    }
    /// SIGHUP, or the control socket's `reload` (who asked: "SIGHUP", "control socket (uid 0)"):
    /// the configuration read again and applied in place, or why it was refused. Without it
    /// SIGHUP is told and ignored, and `reload` refused.
    public var onReload: ((Duration, String) -> ReloadOutcome)?
    private var nextWatchdogPing: Duration?
    /// The controller's deadline at the last turn: until it comes, a turn without input or a
    /// signal cannot have changed what the control socket's watchers are told.
    private var stateDue: Duration?
    private var wasAnimating = false
    private var toldNoPowerControl = false
    /// Draws each frame only where its buffer differs from it.
    private var painter: FramePainter

    /// SIGUSR1 and SIGUSR2 are the console's release and acquire signals (see
    /// `VirtualTerminal.controlSwitching`), SIGHUP asks for a reload; the others in `signals`
    /// end the session.
    public init(
        sink: any FrameSink, rotation: Rotation, controller: any SceneSource, signals: SignalReceiver?,
        log: @escaping (String) -> Void
    ) throws(SystemError) {
        self.sink = sink
        power = sink.poweredOutput
        handover = sink.consoleHandover
        painter = FramePainter(composer: Self.composer(sink, rotation))
        self.controller = controller
        flips = OutputEvents(sink)
        sources = Self.sources(flips, nil, controller)
        loop = try EventLoop(signals: signals)
        self.log = log
        scheduler = FrameScheduler(interval: sink.frameInterval)
    }

    /// Why the session ended.
    public enum Ending: Equatable, Sendable {
        /// SIGINT or SIGTERM (its number).
        case signal(Int32)
        /// The controller asked to end (`SceneSource.endReason`).
        case ended(String)
    }

    /// What to do after a turn: wait for an event or a deadline, or end.
    public typealias Next = EventLoop.Next<Ending>

    // MARK: The loop

    /// Runs until a signal or the controller ends it.
    public func run() throws(OutputFailure) -> Ending {
        try loop.run(
            watching: { watched.map { Interest($0) } },
            turn: { (wakeup) throws(OutputFailure) in try turn(now: wakeup.now, ready: wakeup.ready, signals: wakeup.signals) },
            failed: { OutputFailure($0.description, status: .ioError) })
    }

    /// What the loop polls besides the signals and its timer, asked before every sleep: the
    /// sources' descriptors, all for reading (`run` makes them the loop's `Interest`s). Written
    /// out rather than gathered from `sources`: asked every frame while animating, and the
    /// gathered form (an array from each source) cost the spinner about 700 instructions a frame.
    public var watched: [FileDescriptor] {
        var descriptors = controller.descriptors
        if let fd = sink.descriptor { descriptors.append(fd) }
        if let control { descriptors += control.descriptors }
        return descriptors
    }

    /// One turn of the loop at `now`: handles the signals that came and the descriptors that
    /// became readable (maybe none: a deadline passed), draws when a frame is due, and says how
    /// long to sleep.
    public func turn(now: Duration, ready: [FileDescriptor], signals received: [Int32]) throws(OutputFailure) -> Next {
        if start == nil { start = now }
        for signal in received {
            switch signal {
            case SignalReceiver.consoleRelease: releaseConsole(now: now)
            case SignalReceiver.consoleAcquire: try acquireConsole(now: now)
            case SignalReceiver.hangUp:
                if reload(now: now, asker: "SIGHUP") == nil { log("SIGHUP: nothing to reload here") }
            default: return .end(.signal(signal))
            }
        }
        for source in sources where source.handle(ready: ready, now: now) { scheduler.invalidate() }
        if let failure = flips.failure {
            flips.failure = nil
            throw failure
        }
        if let reason = controller.endReason { return .end(.ended(reason)) }
        // What the output noted since (a refused flip, a failed DPMS call, a mode set that fell
        // back after a console switch): told as it happens, not only at start.
        for note in sink.takeNotes() { log(note) }
        let watchdogDeadline = pingWatchdogIfDue(now: now)
        if let retakeAt, now >= retakeAt { try retake(now: now) }
        while true {
            // Given up for another console: nothing is drawn until the panel is taken again.
            let decision: FrameScheduler.Decision =
                suspended ? .wait(until: retakeAt) : scheduler.decide(now: now, flipPending: sink.flipPending)
            switch decision {
            case .draw:
                try draw(now: now)
            case .wait(let frameDeadline):
                if wasAnimating && !scheduler.animating && !sink.flipPending {
                    wasAnimating = false
                    log("idle after \(framesDrawn) frames")
                }
                // The earliest of the next frame, what the controller waits for and the next
                // watchdog ping.
                // The state to the control socket's watchers when it may have changed: the device
                // changes only on input, a signal, a command, or a deadline of its own come, not on
                // an animation's frame (its state line is not built each frame).
                let controllerDeadline = controller.nextDeadline(now: now)
                if !ready.isEmpty || !received.isEmpty || stateDue.map({ now >= $0 }) ?? false { control?.notify(now: now) }
                stateDue = controllerDeadline
                return .wait(until: earliest(earliest(frameDeadline, controllerDeadline), watchdogDeadline))
            }
        }
    }

    /// Draws the scene's frame for `now` and presents it.
    private func draw(now: Duration) throws(OutputFailure) {
        let blanked = controller.blanked
        // Blank and powered down: nothing to draw (a flip on a CRTC that is off fails); the
        // wake draws again.
        let poweredDown = power?.poweredDown ?? false
        if blanked && poweredDown {
            scheduler.drew(at: now, animating: false)
            return
        }
        if !blanked && poweredDown { _ = power?.setPower(on: true) }
        if restartClock {
            restartClock = false
            // The first frame is on screen; the second comes one frame interval after it on the
            // scene's clock, however long the first took (a board draws its first frame slowly:
            // fonts, first touches of the buffers). Its time is then the intro's own.
            let restart = now - sink.frameInterval
            if let started = start, restart > started {
                start = restart
                controller.sceneClockRestarted(at: restart)
            }
        }
        let elapsed = now - (start ?? now)
        let seconds = elapsed.inSeconds
        let first = firstFrameShown == nil
        let faults = first ? minorPageFaults() : 0
        let (screen, animating) = controller.scene(now: now).frame(at: elapsed)
        let frame = painter.paint(
            screen, at: seconds, into: sink.drawingBuffer, keepsFrames: sink.keepsFrames, animating: animating)
        let drawn = first ? monotonicNow() : now
        let drawnFaults = first ? minorPageFaults() : 0
        onDrawn?(seconds, frame)
        try sink.present(changes: frame.panel)
        framesDrawn += 1
        if framesDrawn == 1 && animating { restartClock = true }
        scheduler.drew(at: now, animating: animating)
        // Blank: the black frame is up; now power the output down where it can be.
        if blanked && !poweredDown {
            sink.waitForFlip()
            if !(power?.setPower(on: false) ?? false) && !toldNoPowerControl {
                toldNoPowerControl = true
                log("the output has no power control: it stays black")
            }
        }
        onFrame?()
        if first {
            let shown = monotonicNow()
            firstFrameShown = shown
            firstFrameDraw = drawn - now
            firstFramePresent = shown - drawn
            firstFrameFaults = (drawnFaults - faults, minorPageFaults() - drawnFaults)
            try onFirstFrame?()
        }
        if animating { wasAnimating = true }
    }

    /// Frames for `sink` turned by `rotation`: drawn into a picture in memory and copied onto the
    /// panel's buffers (see `FrameComposer`'s shadow).
    static func composer(_ sink: any FrameSink, _ rotation: Rotation) -> FrameComposer {
        FrameComposer(panel: sink.size, rotation: rotation, format: sink.format, shadow: true)
    }

    // MARK: A new display configuration (a reload)

    /// Frames go to `sink` from the next one on (whose present sets its mode), turned by
    /// `rotation`.
    public func replaceOutput(_ sink: any FrameSink, rotation: Rotation) {
        self.sink = sink
        flips.sink = sink
        power = sink as? any PoweredOutput
        handover = sink as? any ConsoleHandover
        painter = FramePainter(composer: Self.composer(sink, rotation))
        scheduler = FrameScheduler(interval: sink.frameInterval)
        scheduler.invalidate()
    }

    /// The picture turned onto the same panel another way from the next frame on.
    public func turn(to rotation: Rotation) {
        guard rotation != composer.rotation else { return }
        painter = FramePainter(composer: Self.composer(sink, rotation))
        scheduler.invalidate()
    }

    // MARK: Reloads

    /// The configuration again (`onReload`), asked by `asker`; nil: nothing reloads here.
    func reload(now: Duration, asker: String) -> ReloadOutcome? {
        guard let onReload else { return nil }
        let outcome = onReload(now, asker)
        // Screens, gauges or fonts may differ wholly from the last frame's: drawn whole.
        if case .applied = outcome {
            painter.forget()
            scheduler.invalidate()
        }
        return outcome
    }

    // MARK: The panel's facts

    /// The output as the control socket's `panel` tells it.
    public struct OutputFacts: Sendable, Equatable {
        /// The picture drawn, upright (the panel's size turned by `rotation`).
        public var picture: Size
        public var rotation: Rotation
        /// The display's connector and pixel format (nil: an output without one).
        public var connector: String?
        public var format: String?
    }

    /// The output now (a reload may have changed it).
    public var outputFacts: OutputFacts {
        let rotation = composer.rotation
        let connection = sink.connection
        return OutputFacts(
            picture: rotation.logicalSize(forPanel: sink.size), rotation: rotation, connector: connection?.connector,
            format: connection?.format)
    }

    // MARK: Screenshots

    /// The frame on the panel as a person sees it: the buffer presented last, turned upright and
    /// in XRGB8888 (the scan-out, not the picture before it was converted: an RGB565 panel's
    /// dithering shows). Refused while another console has the panel, or before the first frame.
    public func screenshot() -> Result<PixelBuffer, PictureRefusal> {
        guard !suspended else {
            return .failure(PictureRefusal("another console is in front: the panel shows it, not glance"))
        }
        guard let buffer = sink.presentedBuffer else { return .failure(PictureRefusal("nothing is on the panel yet")) }
        return .success(buffer.upright(rotation: composer.rotation))
    }

    // MARK: Another console

    /// Back on the console but the panel still held by another program: when to try again, and
    /// the wait after that (doubling up to a second).
    private var retakeAt: Duration?
    private var retakeDelay = Duration.milliseconds(100)
    /// When the switch back came, and whether the long wait was told.
    private var retakeSince: Duration?
    private var toldStillWaiting = false

    /// The panel is given up for another console.
    private var suspended: Bool { handover?.suspended ?? false }

    /// The kernel asks to switch to another console: input and the backlight go to it, then the
    /// panel, then the switch goes ahead. Answered even when the panel is already given up (still
    /// waiting to take it back): the switch waits for the answer.
    private func releaseConsole(now: Duration) {
        guard let handover, handover.switchesConsoles else { return }
        let wasShowing = !handover.suspended
        retakeAt = nil
        controller.displayReleased(now: now)
        if let problem = handover.releaseConsole() { log(problem) }
        if wasShowing { log("switched to another console: display released") }
    }

    /// Back on the console: acknowledge, take the panel, draw again.
    private func acquireConsole(now: Duration) throws(OutputFailure) {
        guard let handover, handover.switchesConsoles, handover.suspended else { return }
        if let problem = handover.acknowledgeReturn() { log(problem) }
        retakeDelay = .milliseconds(100)
        retakeSince = now
        try retake(now: now)
    }

    /// The panel again. A program that does not take part in console switching (one started
    /// without a console) may still hold it: then the session tries again, more and more slowly,
    /// until it lets go; nothing is drawn meanwhile.
    private func retake(now: Duration) throws(OutputFailure) {
        // Switched back and away again before the loop looked (signalfd gives SIGUSR1 first, so
        // the release was answered already): the acquire is stale, the panel not ours.
        guard let handover else { return }
        guard handover.consoleInFront else {
            retakeAt = nil
            return
        }
        guard try handover.retake() else {
            if retakeAt == nil {
                log("back on the console, but another program holds the display: waiting for it")
            } else if let since = retakeSince, now - since >= .seconds(30), !toldStillWaiting {
                toldStillWaiting = true
                log("still waiting for the display after \(Int((now - since).inSeconds)) s: stop the program holding it")
            }
            retakeAt = now + retakeDelay
            retakeDelay = min(retakeDelay * 2, .seconds(1))
            return
        }
        toldStillWaiting = false
        retakeAt = nil
        // The panel was someone else's meanwhile: every buffer is drawn whole again.
        painter.forget()
        controller.displayRetaken(now: now)
        scheduler.invalidate()
        log("back on the console: display taken again")
    }

    // MARK: Watchdog (systemd)

    /// Pings the watchdog when its interval has passed since the last ping (the first at once);
    /// returns when the next one is due, for the loop's timer. nil without a watchdog.
    private func pingWatchdogIfDue(now: Duration) -> Duration? {
        guard let watchdog else { return nil }
        if let next = nextWatchdogPing, now < next { return next }
        watchdog.ping()
        nextWatchdogPing = now + watchdog.interval
        return nextWatchdogPing
    }
}

/// The output's events (a flip done, a vblank) as a source of the loop: what `handleEvents`
/// throws is kept for the turn to throw, since a source's `handle` tells only whether to draw.
final class OutputEvents: ReadingSource {
    /// The session's sink (a reload may give it another).
    var sink: any FrameSink
    var failure: OutputFailure?

    init(_ sink: any FrameSink) { self.sink = sink }

    var descriptors: [FileDescriptor] { sink.descriptor.map { [$0] } ?? [] }

    func handle(ready: [FileDescriptor], now: Duration) -> Bool {
        guard let fd = sink.descriptor, ready.contains(fd) else { return false }
        do throws(OutputFailure) {
            try sink.handleEvents()
        } catch {
            failure = error
        }
        return false
    }

    func nextDeadline(now: Duration) -> Duration? { nil }
}
