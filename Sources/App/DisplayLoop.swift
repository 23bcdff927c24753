import Display
import Platform
import Raster
import Screens

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The poll loop of `glance run`: draws the scene into the display's buffers when the scheduler
/// says so, handles flip events, sleeps on a timer while animating and without one when idle,
/// and ends on SIGINT, SIGTERM or SIGHUP (through a signalfd) so the display is restored in
/// ordinary code.
public final class DisplayLoop {
    public let output: DisplayOutput
    public let composer: FrameComposer
    public var scene: any Scene
    private let signals: SignalReceiver
    private let timer: MonotonicTimer
    private var scheduler: FrameScheduler
    private let log: (String) -> Void
    /// Frames drawn (the first by the mode set).
    public private(set) var framesDrawn = 0
    /// When the first frame was on screen (CLOCK_MONOTONIC).
    public private(set) var firstFrameShown: Duration?
    /// How long the first frame took to draw, and to put on screen (the mode set).
    public private(set) var firstFrameDraw: Duration?
    public private(set) var firstFramePresent: Duration?
    /// Called once when the first frame is on screen.
    public var onFirstFrame: (() -> Void)?
    /// Input, data and time: what to wait on besides the display, and the scene to draw.
    public var controller: (any Controller)?
    /// A liveness ping (systemd's `WATCHDOG=1`) and how often the loop must call it; see the
    /// watchdog block at the end.
    public var watchdog: (interval: Duration, ping: () -> Void)?
    private var nextWatchdogPing: Duration?

    public init(
        output: DisplayOutput, rotation: Rotation, scene: any Scene, signals: SignalReceiver,
        log: @escaping (String) -> Void
    ) throws(SystemError) {
        self.output = output
        self.composer = FrameComposer(panel: output.size, rotation: rotation, format: output.format)
        self.scene = scene
        self.signals = signals
        self.timer = try MonotonicTimer()
        self.log = log
        // One frame per refresh period, but at most 60 a second.
        let hz = max(1, min(60, output.plan.mode.refreshHz == 0 ? 60 : output.plan.mode.refreshHz))
        scheduler = FrameScheduler(interval: .nanoseconds(1_000_000_000 / hz))
    }

    /// Back on our VT but the card still held by another program: when to try again, and the
    /// wait after that (doubling up to a second).
    private var retakeAt: Duration?
    private var retakeDelay = Duration.milliseconds(100)
    /// When the switch back came, and whether the long wait was told.
    private var retakeSince: Duration?
    private var toldStillWaiting = false

    /// The kernel asks to switch to another VT (VT_PROCESS release signal): give the display up,
    /// then let the switch go ahead. Answered even when the display is already given up (still
    /// waiting to take it back): the switch waits for the answer.
    private func releaseDisplay() {
        guard let terminal = output.terminal, terminal.controlsSwitching else { return }
        let wasShowing = !output.suspended
        retakeAt = nil
        output.suspend()
        // Input and the backlight go to the other console too, before it shows.
        controller?.displayReleased(now: monotonicNow())
        do {
            try terminal.allowRelease()
        } catch {
            log("\(error): the switch to the other console may be held up; stopping glance lets it go")
        }
        if wasShowing { log("switched to another console: display released") }
    }

    /// Back on our VT (VT_PROCESS acquire signal): acknowledge, take the display, draw again.
    private func acquireDisplay(now: Duration) throws(DisplayError) {
        guard let terminal = output.terminal, terminal.controlsSwitching, output.suspended else { return }
        do {
            try terminal.acknowledgeAcquire()
        } catch {
            log("\(error)")
        }
        retakeDelay = .milliseconds(100)
        retakeSince = now
        try retakeDisplay(now: now)
    }

    /// DRM master and the mode set again. A program that does not take part in VT switching
    /// (one started without a console) may still hold the card: then the loop tries again, more
    /// and more slowly, until it lets go; nothing is drawn meanwhile.
    private func retakeDisplay(now: Duration) throws(DisplayError) {
        // Switched back and away again before the loop looked (signalfd gives SIGUSR1 first, so
        // the release was answered already): the acquire is stale, the display not ours.
        if let terminal = output.terminal, !terminal.isInFront {
            retakeAt = nil
            return
        }
        guard try output.resume() else {
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
        controller?.displayRetaken(now: now)
        scheduler.invalidate()
        log("back on the console: display taken again")
    }

    /// Why `run` returned.
    public enum Ending: Equatable, Sendable {
        /// SIGINT, SIGTERM or SIGHUP (its number).
        case signal(Int32)
        /// The controller asked to end (`Controller.endReason`).
        case ended(String)
    }

    /// Runs until a signal or the controller ends it. SIGUSR1 and SIGUSR2 are the VT switch
    /// signals (see VirtualTerminal.controlSwitching) and do not end it.
    public func run() throws(DisplayError) -> Ending {
        let start = monotonicNow()
        var wasAnimating = false
        var toldNoPowerControl = false
        while true {
            // What the output noted since (a refused flip, a failed DPMS call, a mode set that fell
            // back after a VT switch): told as it happens, not only at start.
            for note in output.takeNotes() { log(note) }
            let now = monotonicNow()
            let watchdogDeadline = pingWatchdogIfDue(now: now)
            if let retakeAt, now >= retakeAt { try retakeDisplay(now: now) }
            // Switched to another VT: nothing is drawn until the switch back (and the display is
            // taken again).
            let decision =
                output.suspended
                ? .wait(until: retakeAt) : scheduler.decide(now: now, flipPending: output.flipPending)
            switch decision {
            case .draw:
                // Blank and powered down: nothing to draw (a flip on a CRTC that is off fails);
                // the wake draws again.
                if let controller, controller.blanked, output.poweredDown {
                    scheduler.drew(at: now, animating: false)
                    continue
                }
                let elapsed = now - start
                if let controller, !controller.blanked, output.poweredDown { output.setPower(on: true) }
                let (screen, animating) = (controller?.scene() ?? scene).frame(at: elapsed)
                let damage = composer.compose(screen, into: output.drawingBuffer, at: elapsed.inSeconds)
                let drawn = monotonicNow()
                try output.present(damage: damage)
                framesDrawn += 1
                scheduler.drew(at: now, animating: animating)
                // Blank: the black frame is up; now power the output down where it can be.
                if let controller, controller.blanked, !output.poweredDown {
                    output.waitForFlip()
                    if !output.setPower(on: false) && !toldNoPowerControl {
                        toldNoPowerControl = true
                        log("the output has no power control: it stays black")
                    }
                }
                if firstFrameShown == nil {
                    let shown = monotonicNow()
                    firstFrameShown = shown
                    firstFrameDraw = drawn - now
                    firstFramePresent = shown - drawn
                    onFirstFrame?()
                }
                if animating { wasAnimating = true }
                continue
            case .wait(let frameDeadline):
                // The earliest of the next frame, what the controller waits for and the next
                // watchdog ping.
                let deadline = [frameDeadline, controller?.nextDeadline(now: now), watchdogDeadline].compactMap { $0 }
                    .min()
                do throws(SystemError) {
                    if let deadline {
                        try timer.schedule(after: max(deadline - now, .microseconds(100)))
                    } else {
                        try timer.cancel()
                    }
                } catch {
                    throw .system(error)
                }
            }
            if wasAnimating && !scheduler.animating && !output.flipPending {
                wasAnimating = false
                log("idle after \(framesDrawn) frames")
            }
            let ready: [FileDescriptor]
            do throws(SystemError) {
                ready = try waitForReadable(
                    [signals.descriptor, output.descriptor, timer.descriptor] + (controller?.descriptors ?? []))
            } catch {
                throw .system(error)
            }
            if ready.contains(signals.descriptor) {
                while let signal = try? signals.next() {
                    switch signal {
                    case SIGUSR1: releaseDisplay()
                    case SIGUSR2: try acquireDisplay(now: monotonicNow())
                    default: return .signal(signal)
                    }
                }
            }
            if ready.contains(output.descriptor) { try output.handleEvents() }
            if ready.contains(timer.descriptor) { _ = try? timer.acknowledge() }
            if let controller, controller.handle(ready: ready, now: monotonicNow()) { scheduler.invalidate() }
            if let reason = controller?.endReason { return .ended(reason) }
        }
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
