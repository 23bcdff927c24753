import Backlight
import Activity
import Configuration
import DeviceLogic
import Display
import Input
import Platform
import Raster
import Screens
import Store
import Text
import ControlSocket


/// `glance run`: a session on the panel. The order matters: fonts before the display (a missing
/// font is told without touching the screen), signals before the mode set (one that comes during
/// setup ends the loop, with the display restored like any other exit), the console brought to
/// the front before the card is opened, and the console put into graphics mode only once there is
/// a display to show instead.
public enum PanelApp {
    /// Runs until a signal (exit 0) or a failure (its exit status). `started`: when main began
    /// (CLOCK_MONOTONIC), for the startup report; `say` prints a result line on standard output.
    public static func run(
        _ settings: Settings, started: Duration, configuration: String? = nil, commandLine: Layer = Layer(),
        log: @escaping (String) -> Void, say: @escaping (String) -> Void
    ) -> Outcome {
        let text: FreeTypeTextRenderer?
        switch Assembly.fonts(settings, report: log) {
        case .success(let t): text = t
        case .failure(let failure):
            log(failure.message)
            return failure.status
        }
        // SIGUSR1/SIGUSR2: the console asks to switch away / says it is back (VT_PROCESS).
        let signals: SignalReceiver
        do {
            signals = try SignalReceiver([
                SignalReceiver.interrupt, SignalReceiver.terminate, SignalReceiver.hangUp, SignalReceiver.consoleRelease,
                SignalReceiver.consoleAcquire,
            ])
        } catch {
            log(error.description)
            return Outcome.software
        }
        // The console: its switching ours first (a switch away from here on waits for the loop,
        // which gives the display up), then in front before the display is opened (the display
        // server of the console in front gives the display up when it switches away).
        let (terminal, terminalProblem) = VirtualTerminal.open()
        if let terminalProblem { log(terminalProblem) }
        if let terminal {
            do {
                try terminal.controlSwitching(release: SignalReceiver.consoleRelease, acquire: SignalReceiver.consoleAcquire)
            } catch {
                log("\(error); switching to another console will not give the display up")
            }
            if let status = bringToFront(terminal, log: log) { return status }
        }
        let output: DisplayOutput
        let phases = StartupPhases(started: started)
        phases.mark("fonts and setup")
        do {
            output = try DisplayOutput.open(settings.display.output, singleBuffered: settings.run.singleBuffered)
        } catch {
            log(error.description)
            return OutputFailure(error).status
        }
        for note in output.takeNotes() { log(note) }
        output.terminal = terminal
        if let terminal {
            do {
                try terminal.enterGraphicsMode()
            } catch {
                log("\(error); console text may show over the display")
            }
        }
        let plan = output.plan
        var path = output.usesAtomic ? "atomic" : "legacy"
        if output.singleBuffered { path += ", single buffer" }
        log(
            "\(plan.connector.name) \(plan.mode) \(fourCCName(plan.format.fourCC)) on \(output.card.path) "
                + "(\(output.card.driverName), \(path), rotate \(settings.rotation.degrees))")

        phases.mark("open card + choose + buffers")
        var parts = Assembly.Parts(text: .some(text), signals: signals)
        parts.output = output
        parts.configurationPath = configuration
        parts.commandLine = commandLine
        parts.mark = phases.mark
        // The store's check (PRAGMA quick_check) is done once the first frame is up, before the
        // input (whose keys may write) and before the frame is told: a damaged store still ends
        // the app with 65 and how to recover, and is never written into.
        parts.checkStoreLater = true
        let assembly: Assembly
        switch Assembly.make(settings, sink: PanelSink(output), parts: parts, log: log) {
        case .success(let a): assembly = a
        case .failure(let failure):
            output.restore()
            log(failure.message)
            return failure.status
        }
        let controller = assembly.controller, session = assembly.session, reloader = assembly.reloader
        let data = assembly.data
        let light = Backlight.find(log: log)
        if let light {
            log("backlight \(light.path): \(light.original)/\(light.maximum)\(light.onOff ? " (on or off: the picture dims)" : "")")
            // Put back by the fatal-signal handler too, with the display.
            light.armCrashRestore()
        }
        controller.use(backlight: light, brightness: settings.display.brightness)
        phases.mark("backlight")
        // Under systemd (Type=notify): READY=1 once the first frame is up, WATCHDOG=1 from the loop.
        let systemd = SystemdNotifier()
        // Ended for a restart (the control socket's `restart`), systemd starts it again
        // (Restart=always); by hand nothing would, so it is refused there.
        controller.restartable = systemd != nil
        if let systemd, let interval = systemd.watchdogInterval {
            session.watchdog = (interval, { tell(systemd, log) { try $0.watchdog() } })
        }
        // SIGHUP (systemctl reload), or the control socket's reload: the configuration again, in place.
        session.onReload = { now, asker in
            // systemctl reload's own command has reset the terminal (TTYReset=): graphics mode again.
            (reloader.output ?? output).terminal?.reassertGraphicsMode()
            return reloader.reload(now: now, asker: asker)
        }
        if settings.run.reportFrames {
            var count = 0
            session.onDrawn = { time, frame in
                count += 1
                let whole = "whole"
                say(
                    "frame \(count) at \(time) s: changed \(frame.change?.description ?? whole), drawn "
                        + "\(frame.redraw?.description ?? whole), presented \(frame.panel)")
            }
        }
        // The outcome as the unit's status. No RELOADING=1: with ExecReload=kill, systemd 252 takes
        // one that comes after the kill has ended for a reload of the service's own, and signals
        // again (seen in the device boot test: two SIGHUPs for one systemctl reload).
        if let systemd {
            reloader.onReloaded = { status in tell(systemd, log) { try $0.ready(status: status) } }
        }
        /// The output on the panel now (a reload may have replaced the first): the reloader's. (The
        /// session's closures capture the reloader, never the assembly, which holds the session:
        /// a cycle would keep the store open past the end, its write-ahead log not folded in.)
        func current() -> DisplayOutput { reloader.output ?? output }
        let reportStartup = settings.run.reportStartup
        // What the first frame does not need is set up once it is on the panel, before it is told
        // (a script that waits for "first frame on screen", or systemd for READY=1, finds the
        // input read and the control socket there, as before).
        session.onFirstFrame = { [unowned session] () throws(OutputFailure) in
            let shown = session.firstFrameShown ?? monotonicNow()
            phases.firstFrameShown(at: shown)
            try Assembly.finishOpening(data)
            phases.mark("store check")
            reloader.openInput()
            phases.mark("input")
            openControlSocket(session, path: settings.run.controlSocket, log: log)
            phases.mark("control socket")
            log("first frame on screen")
            // A name asked for that this panel has no line for is said, not dropped silently.
            if !controller.device.maker.name.isEmpty {
                for o in controller.device.ringScreenOmissions() where o.element == "rings.name" {
                    log("the name is not shown on this panel: \(o.why)")
                }
            }
            if let systemd {
                let status = "showing on \(plan.connector.name) \(plan.mode)"
                tell(systemd, log) { try $0.ready(status: status) }
            }
            if reportStartup {
                say(startupReport(started: started, shown: shown))
                say(phases.report(session))
            }
            for note in current().takeNotes() { log(note) }
        }

        let ending: Session.Ending
        do {
            ending = try session.run()
            if let systemd { tell(systemd, log) { try $0.stopping() } }
        } catch {
            controller.backlight?.restore()
            current().restore()
            log(error.message)
            return error.status
        }
        controller.backlight?.restore()
        let problem = current().restore()
        if let problem { log("\(problem)") }
        switch ending {
        case .signal(let signal):
            log("\(SignalReceiver.name(signal)): display restored after \(session.framesDrawn) frames")
            return problem == nil ? Outcome.ok : Outcome.ioError
        case .ended(let reason):
            log("\(reason): display restored after \(session.framesDrawn) frames")
            return problem == nil ? Outcome.temporaryFailure : Outcome.ioError
        }
    }

    /// Brings the app's console to the front; an exit status when it cannot be.
    static func bringToFront(_ terminal: VirtualTerminal, log: (String) -> Void) -> Outcome? {
        guard let number = terminal.number else { return nil }
        switch terminal.bringToFront(timeout: .seconds(5)) {
        case .inFront: break
        case .switched(let from): log("tty\(number) brought to the front (tty\(from) was)")
        case .stuck(let front, let reason):
            log(
                "tty\(number) is not the console in front and could not be brought there (tty\(front) "
                    + "stays: \(reason)); switch to it with chvt \(number) or Ctrl+Alt+F\(number), then start again")
            return Outcome.temporaryFailure
        case .notAllowed(let front, let reason):
            log(
                "tty\(number) is not the console in front (tty\(front) is) and may not be brought there "
                    + "(\(reason): it is not this process's controlling terminal); showing anyway")
        }
        return nil
    }

    /// The control socket, where `glance screenshot` asks for the frame on the panel.
    package static func openControlSocket(_ session: Session, path configured: String?, log: (String) -> Void) {
        guard let path = configured ?? ControlSocketLocation.defaultPath() else {
            log("no runtime directory (XDG_RUNTIME_DIR): glance screenshot cannot ask this app")
            return
        }
        do throws(SystemError) {
            let server = try ControlServer(path: path)
            if let panel = session.controller as? PanelController { server.remote = panel }
            session.control = server
            log("control socket \(path) (glance screenshot, glance mqtt)")
        } catch {
            log("\(error): glance screenshot cannot ask this app")
        }
    }

    /// Sends a message to systemd; a failure is told and otherwise ignored (the display goes on;
    /// systemd will say what it missed).
    static func tell(_ systemd: SystemdNotifier, _ log: (String) -> Void, _ send: (SystemdNotifier) throws -> Void) {
        do {
            try send(systemd)
        } catch {
            log("systemd notification: \(error)")
        }
    }

    /// Where the time before the first frame went: each phase's time and the minor page faults it
    /// took (first touches of memory), told with `--report-startup`.
    final class StartupPhases {
        /// A phase's name, time and page faults. (A struct, not a tuple: an array of tuples brings
        /// the runtime's tuple metadata code into the start it measures, docs/speed.md.)
        struct Phase {
            let name: String
            let time: Duration
            let faults: Int
        }
        private var lastTime: Duration
        private var lastFaults = 0
        private var phases: [Phase] = []
        /// The phases after the first frame (what it did not need).
        private var after: [Phase]?

        init(started: Duration) { lastTime = started }

        /// The phase `name` ends now.
        func mark(_ name: String) {
            let time = monotonicNow(), faults = minorPageFaults()
            let phase = Phase(name: name, time: time - lastTime, faults: faults - lastFaults)
            if after != nil { after?.append(phase) } else { phases.append(phase) }
            lastTime = time
            lastFaults = faults
        }

        /// The first frame went up at `shown`: the phases from here on come after it.
        func firstFrameShown(at shown: Duration) {
            after = []
            lastTime = shown
            lastFaults = minorPageFaults()
        }

        /// "startup: fonts and setup 52.0 ms (1210 page faults), open card + choose + buffers …,
        /// draw 97.1 ms (…), mode set 4.2 ms (…)".
        func report(_ session: Session) -> String {
            let faults = session.firstFrameFaults
            let all =
                phases + [
                    Phase(name: "draw", time: session.firstFrameDraw ?? .zero, faults: faults?.draw ?? 0),
                    Phase(name: "mode set", time: session.firstFramePresent ?? .zero, faults: faults?.present ?? 0),
                ]
            func told(_ list: [Phase]) -> String {
                list.map { "\($0.name) \(NumberText.fixed($0.time.inMilliseconds, decimals: 3)) ms (\($0.faults) page faults)" }
                    .joined(separator: ", ")
            }
            let then = after.map { $0.isEmpty ? "" : "; after it: " + told($0) } ?? ""
            return "startup: " + told(all) + then
        }
    }

    /// "startup: first frame on screen 181.4 ms after exec, 166.0 ms after main, … after kernel start".
    /// `shown`: when the frame went up (CLOCK_MONOTONIC), told a little later.
    static func startupReport(started: Duration, shown: Duration) -> String {
        let since = monotonicNow() - shown
        let ms = { (d: Duration) in NumberText.fixed(d.inMilliseconds, decimals: 3) }
        var line = "startup: first frame on screen"
        if let sinceExec = timeSinceProcessStart() { line += " \(ms(sinceExec - since)) ms after exec," }
        line += " \(ms(shown - started)) ms after main"
        // CLOCK_BOOTTIME counts from the kernel's start: boot to first frame on a device.
        line += ", \(ms(bootTimeNow() - since)) ms after kernel start"
        return line
    }
}
