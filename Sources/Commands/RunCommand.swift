import Activity
import App
import Configuration
import Display
import Input
import Platform
import Raster
import Screens
import Store
import Text

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `glance run`: the app on the display, through DRM/KMS, until SIGTERM, SIGINT or SIGHUP.
struct RunCommand {
    var request = OutputRequest()
    var options = ScreenOptions()
    var reportStartup = false
    var intro = false
    var singleBuffered = false
    var configPath: String?
    var store = StoreSelection()
    var readInput = true
    var grab: Bool?
    var inputDirectory = "/dev/input"
    var dimAfter: Double??
    var blankAfter: Double??
    /// Options given on the command line (they win over the configuration file).
    var given: Set<String> = []
    /// When the command started (CLOCK_MONOTONIC), for the startup report.
    var started = monotonicNow()

    static let help = """
        Usage: glance run [options]

        Shows a screen on the display through DRM/KMS (no X or Wayland needed) until it gets
        SIGTERM, SIGINT or SIGHUP; then puts back what the display showed before (the console)
        and exits 0. It shows the store's days, gauges and running task (see --db), or the
        screen and day given with the options of glance render; buttons and touch move between
        screens and days. It draws only when something changed: a screen that moves (a spinner,
        an easing progress) is redrawn on a timer; a still one once, and the process then
        sleeps until input, a change in the store, dimming or midnight.

        On a text console (its own, or the one in front through /dev/tty0) it hides the console
        while it shows, and a switch to another console (chvt; Ctrl+Alt+Fn from a keyboard that
        is not grabbed, see --no-grab) gives the display, the input devices and the backlight
        up until you switch back (nothing dims meanwhile). Started on a console that is not in
        front (systemd's TTYPath=, or < /dev/ttyN as root), it switches to it first, as display
        servers do.

        Display:
          --card PATH             the DRM card, e.g. /dev/dri/card1 (default: the first card
                                  with a connected display)
          --connector NAME        e.g. HDMI-A-1, DSI-1 (default: the first connected one)
          --mode WxH[@HZ]         e.g. 800x480@60 (default: the display's preferred mode)
          --rotate 0|90|180|270   the panel is mounted turned clockwise by this much
          --format xrgb8888|rgb565
                                  pixel format (default: XRGB8888 where the display plane takes
                                  it, else RGB565)
          --legacy                SetCrtc + PageFlip even where atomic mode setting is offered
          --single-buffer         draw into the buffer on screen and report the changed area
                                  (DirtyFB / damage clips) instead of flipping two buffers
          --intro                 the rings fill up when the app starts, as on the watch
                                  (ring screen)
          --report-startup        print the time from process start to the first frame on screen

        The screen and the day, as for glance render (see glance render --help): --screen,
        --move, --move-time, --exercise, --stand, --no-summary, --rings-only, --name, --date,
        --today, --locale, --shape, --font, --cjk-font, and the gauge and progress options.

        Data: the store (days, metrics, tasks), redrawn whenever it changes:
          --db PATH               the store (default: the configuration's "database", else
                                  /var/lib/glance/glance.db for root, $XDG_DATA_HOME/glance/glance.db
                                  otherwise); a day given with --move … or a gauge or progress
                                  given on the command line is shown instead

        Input and behaviour (defaults from the configuration file):
          --config FILE           the configuration (default: /etc/glance/config.json; without
                                  it the built-in defaults apply); an invalid file stops with 78
          --no-input              do not read input devices
          --no-grab               let key presses also reach the console and the system (no
                                  EVIOCGRAB); a grabbed keyboard's Power key and Ctrl+Alt+Fn
                                  do not (power buttons on their own are never grabbed)
          --dim-after S, --blank-after S
                                  seconds without input before dimming and blanking (0: never)

        Keys (defaults; the configuration's "keys" changes them): Left/Right the previous and
        next day, Up/Down or Page Up/Down the screens, Enter or Space the next screen (held:
        today), Home today, Esc the progress screen's Cancel. Touch: swipe left/right for days,
        up/down for screens, hold for today, tap for the next screen (or Cancel). While dimmed
        or blank, the first touch or key only wakes the display.

        `glance devices` lists the cards, connectors, modes and formats to choose from.

        Exit status:
          0   stopped by SIGTERM, SIGINT or SIGHUP, display restored
          64  bad arguments
          69  no display: no /dev/dri card, no connected connector, nothing plugged into the
              requested connector; or no font for the labels (the message names the package)
          74  a DRM call failed (the message names it)
          75  another program (a display server) holds the display, or the console in front
              did not let the app's console come to the front; try again when it stops. Also
              when the store's file was replaced by another while shown (it is not followed:
              started again, the app shows the new one)
          77  permission denied opening the card (add the user to group video)
          78  the requested connector, mode or format does not exist on this display (the
              message lists what does), or the configuration file is invalid (every problem is
              listed with its JSON path)
        """

    static func parse(_ argv: [String]) throws(UsageError) -> RunCommand? {
        var command = RunCommand()
        var args = Arguments(argv)
        while let option = try args.nextOption() {
            command.given.insert(option)
            switch option {
            case "--help", "-h": return nil
            case "--config": command.configPath = try args.value(for: option)
            case "--db": _ = try command.store.parse(option, &args)
            case "--no-input": command.readInput = false
            case "--no-grab": command.grab = false
            case "--input-dir": command.inputDirectory = try args.value(for: option)
            case "--dim-after", "--blank-after":
                let text = try args.value(for: option)
                let v = try Parse.real(text, option: option)
                guard v >= 0 else { throw UsageError("\(option) '\(text)': expected seconds, 0 for never") }
                if option == "--dim-after" {
                    command.dimAfter = .some(v == 0 ? nil : v)
                } else {
                    command.blankAfter = .some(v == 0 ? nil : v)
                }
            case "--card": command.request.card = try args.value(for: option)
            case "--connector": command.request.connector = try args.value(for: option)
            case "--mode":
                let text = try args.value(for: option)
                guard let mode = ModeRequest(parsing: text) else {
                    throw UsageError("--mode '\(text)': expected WxH or WxH@HZ, e.g. 800x480 or 800x480@60")
                }
                command.request.mode = mode
            case "--format":
                let format = try Parse.format(try args.value(for: option), option: option)
                command.request.format = format
            case "--legacy": command.request.forceLegacy = true
            case "--single-buffer": command.singleBuffered = true
            case "--intro": command.intro = true
            case "--report-startup": command.reportStartup = true
            case "--size", "--output", "-o", "--frames", "--fps":
                throw UsageError("run: \(option) is for glance render; the display's mode sets the size (--mode WxH)")
            default:
                if try command.options.parse(option, &args) { continue }
                throw UsageError("run: unknown option '\(option)' (see glance run --help)")
            }
        }
        try command.options.finish()
        return command
    }

    /// The configuration under the command line: what the options did not say, the file says.
    mutating func applyConfiguration(_ c: Configuration) {
        if !given.contains("--name") && !c.name.isEmpty { options.name = c.name }
        if !given.contains("--locale"), let l = c.locale { options.locale = l }
        if !given.contains("--shape") { options.shape = c.display.shape }
        if !given.contains("--rotate") { options.rotation = c.display.rotation }
        if !given.contains("--font"), let f = c.fontFile { options.fontFile = f }
        if !given.contains("--cjk-font"), let f = c.cjkFontFile { options.cjkFontFile = f }
        if !given.contains("--card"), let card = c.display.card { request.card = card }
        if !given.contains("--connector"), let connector = c.display.connector { request.connector = connector }
        if !given.contains("--mode"), let text = c.display.mode, let mode = ModeRequest(parsing: text) {
            request.mode = mode
        }
        if !given.contains("--format"), let f = c.display.format { request.format = f }
        if !given.contains("--legacy") && c.display.legacy { request.forceLegacy = true }
        if !given.contains("--db"), let db = c.database { store.path = db }
    }

    func run() -> Int32 {
        // The configuration first: an invalid file stops here, before the display is touched.
        var command = self
        let configuration: Configuration
        switch ConfigurationFile.load(configPath) {
        case .success(let c): configuration = c
        case .failure(let failure):
            ConfigurationFile.report(failure)
            if case .unreadable = failure, configPath == nil { return ExitCode.noInput }
            return ExitCode.config
        }
        let keyMap: KeyMap
        switch KeyMap.make(configuration) {
        case .success(let map): keyMap = map
        case .failure(let found):
            ConfigurationFile.report(.invalid(path: configPath ?? Configuration.defaultPath, found))
            return ExitCode.config
        }
        command.applyConfiguration(configuration)
        return command.run(configuration: configuration, keyMap: keyMap)
    }

    func run(configuration: Configuration, keyMap: KeyMap) -> Int32 {
        var idle = IdleSchedule(
            dimAfter: configuration.idle.dimAfter, blankAfter: configuration.idle.blankAfter,
            dimLevel: configuration.idle.dimLevel)
        if let d = dimAfter { idle.dimAfter = d }
        if let b = blankAfter { idle.blankAfter = b }
        // The rule the configuration file follows holds for the command line's values too.
        if let d = idle.dimAfter, let b = idle.blankAfter, b < d {
            let s = { (v: Double) in v == v.rounded() && v < 1e9 ? String(Int(v)) : String(v) }
            complain(
                "--dim-after/--blank-after: blank after \(s(b)) s comes before dim after \(s(d)) s (with the "
                    + "configuration's idle settings): give a --blank-after of at least the dimming time, or 0 for never"
            )
            return ExitCode.usage
        }
        // Fonts before the display: a missing font is reported without touching the screen.
        let text: FreeTypeTextRenderer?
        switch options.loadText() {
        case .success(let t): text = t
        case .failure(let status): return status.code
        }
        // Signals first: one that comes during setup is handled by the loop, after the mode set,
        // with the display restored like any other exit.
        let signals: SignalReceiver
        do {
            // SIGUSR1/SIGUSR2: the VT asks to switch away / says it is back (VT_PROCESS).
            signals = try SignalReceiver([SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2])
        } catch {
            complain(error.description)
            return ExitCode.software
        }
        // The console: its switching ours first (VT_PROCESS: a switch away from here on waits
        // for the loop, which gives the display up), then in front before the display is opened
        // (the display server of the VT in front gives the display up when it switches away).
        let (terminal, terminalProblem) = VirtualTerminal.open()
        if let terminalProblem { complain(terminalProblem) }
        if let terminal {
            do {
                try terminal.controlSwitching(release: SIGUSR1, acquire: SIGUSR2)
            } catch {
                complain("\(error); switching to another console will not give the display up")
            }
        }
        if let terminal, let number = terminal.number {
            switch terminal.bringToFront(timeout: .seconds(5)) {
            case .inFront: break
            case .switched(let from): complain("tty\(number) brought to the front (tty\(from) was)")
            case .stuck(let front, let reason):
                complain(
                    "tty\(number) is not the console in front and could not be brought there (tty\(front) "
                        + "stays: \(reason)); switch to it with chvt \(number) or Ctrl+Alt+F\(number), then start again")
                return ExitCode.temporaryFailure
            case .notAllowed(let front, let reason):
                complain(
                    "tty\(number) is not the console in front (tty\(front) is) and may not be brought there "
                        + "(\(reason): it is not this process's controlling terminal); showing anyway")
            }
        }
        let output: DisplayOutput
        let opening = monotonicNow()
        do {
            output = try DisplayOutput.open(request, singleBuffered: singleBuffered)
        } catch {
            complain(error.description)
            return Self.exitCode(for: error)
        }
        for note in output.takeNotes() { complain(note) }
        // The console goes into graphics mode only once there is a display to show instead.
        output.terminal = terminal
        if let terminal {
            do {
                try terminal.enterGraphicsMode()
            } catch {
                complain("\(error); console text may show over the display")
            }
        }

        let plan = output.plan
        var path = output.usesAtomic ? "atomic" : "legacy"
        if output.singleBuffered { path += ", single buffer" }
        complain(
            "\(plan.connector.name) \(plan.mode) \(fourCCName(plan.format.fourCC)) on \(output.card.path) "
                + "(\(output.card.driverName), \(path), rotate \(options.rotation.degrees))")

        let options = self.options
        let today = options.today ?? SystemClock.today()
        let clock: LocalClock = options.today.map { FixedClock($0) } ?? SystemLocalClock()
        // What there is to show: what the command line gives, else the store.
        var screens = configuration.screens
        let data: DataSource
        if options.summaryGiven || options.noSummary || options.screen != "rings" {
            var days: [CalendarDay: ActivitySummary] = [:]
            if let summary = options.summary { days[options.date ?? today] = summary }
            var gauges: [Gauge] = []
            var task: ProgressContent?
            if let screen = options.makeScreen(text: nil) as? GaugeScreen, options.screen == "gauge" {
                gauges = screen.gauges
                screens = [.gauges] + screens.filter { $0 != .gauges }
            } else if let screen = options.makeScreen(text: nil) as? ProgressScreen {
                task = screen.content
                screens = [.progress] + screens.filter { $0 != .progress }
            }
            data = FixedData(days: days, gauges: gauges, task: task)
        } else {
            guard let path = store.resolvedPath() else {
                output.restore()
                return ExitCode.usage
            }
            do {
                data = try StoreData(path: path, gauges: configuration.gauges, log: { complain($0) })
                complain("data from the store \(path)")
            } catch {
                output.restore()
                return fail(error, "give another store with --db PATH, or check the folder's permissions")
            }
        }
        let hub =
            readInput
            ? InputHub(
                directory: inputDirectory, grab: grab ?? configuration.grabInput, wanted: keyMap.codes,
                log: { complain($0) }) : nil
        let router = InputRouter(
            keyMap: keyMap, touch: configuration.touch, panel: output.size, rotation: options.rotation)
        let look = DeviceController.Look(
            text: text, locale: options.resolvedLocale, shape: options.shape, name: options.name,
            ringsOnly: options.ringsOnly)
        let controller = DeviceController(
            screens: screens, look: look, data: data, hub: hub, router: router, idle: idle, clock: clock,
            watchClockChanges: options.today == nil, intro: intro, log: { complain($0) })
        // The day given starts the browsing.
        if let date = options.date, date != today { controller.show(day: date) }
        let scene: any Scene = ScreenScene(BlankScreen())
        let loop: DisplayLoop
        do {
            loop = try DisplayLoop(
                output: output, rotation: options.rotation, scene: scene, signals: signals, log: { complain($0) })
        } catch {
            complain(error.description)
            return ExitCode.software
        }
        loop.controller = controller
        controller.backlight = Backlight.find(log: { complain($0) })
        if let light = controller.backlight {
            complain("backlight \(light.path): \(light.original)/\(light.maximum)")
            // Put back by the fatal-signal handler too, with the display.
            light.armCrashRestore()
        }
        let opened = monotonicNow()
        let started = self.started
        let reportStartup = self.reportStartup
        // Under systemd (Type=notify): READY=1 once the first frame is up, WATCHDOG=1 from the loop.
        let systemd = SystemdNotifier()
        if let systemd, let interval = systemd.watchdogInterval {
            loop.watchdog = (interval, { Self.tell(systemd) { try $0.watchdog() } })
        }
        loop.onFirstFrame = { [unowned loop] in
            complain("first frame on screen")
            if let systemd {
                let status = "showing on \(plan.connector.name) \(plan.mode)"
                Self.tell(systemd) { try $0.ready(status: status) }
            }
            if reportStartup {
                print(Self.startupReport(started: started))
                let ms = { (d: Duration?) in BenchCommand.format(BenchCommand.milliseconds(d ?? .zero)) }
                print(
                    "startup: fonts and setup \(ms(opening - started)) ms, open card + choose + buffers "
                        + "\(ms(opened - opening)) ms, draw \(ms(loop.firstFrameDraw)) ms, "
                        + "mode set \(ms(loop.firstFramePresent)) ms")
                fflush(nil)
            }
            for note in output.takeNotes() { complain(note) }
        }

        let ending: DisplayLoop.Ending
        do {
            ending = try loop.run()
            if let systemd { Self.tell(systemd) { try $0.stopping() } }
        } catch {
            controller.backlight?.restore()
            output.restore()
            complain(error.description)
            return Self.exitCode(for: error)
        }
        controller.backlight?.restore()
        let problem = output.restore()
        if let problem { complain("\(problem)") }
        switch ending {
        case .signal(let signal):
            complain("\(SignalReceiver.name(signal)): display restored after \(loop.framesDrawn) frames")
            return problem == nil ? ExitCode.ok : ExitCode.ioError
        case .ended(let reason):
            complain("\(reason): display restored after \(loop.framesDrawn) frames")
            return problem == nil ? ExitCode.temporaryFailure : ExitCode.ioError
        }
    }

    /// Sends a message to systemd; a failure is reported and otherwise ignored (the display
    /// goes on; systemd will say what it missed).
    static func tell(_ systemd: SystemdNotifier, _ send: (SystemdNotifier) throws -> Void) {
        do {
            try send(systemd)
        } catch {
            complain("systemd notification: \(error)")
        }
    }

    static func exitCode(for error: DisplayError) -> Int32 {
        switch error {
        case .noDisplayDevice, .noUsableCard, .noDumbBuffers, .noConnectedConnector, .connectorWithoutModes, .noCRTC:
            ExitCode.unavailable
        case .permissionDenied: ExitCode.noPermission
        case .anotherMaster: ExitCode.temporaryFailure
        case .connectorNotFound, .modeNotFound, .formatNotOffered, .noUsableFormat: ExitCode.config
        case .system: ExitCode.ioError
        }
    }

    /// "startup: first frame on screen 181.4 ms after exec, 166.0 ms after main".
    static func startupReport(started: Duration) -> String {
        let now = monotonicNow()
        var line = "startup: first frame on screen"
        if let sinceExec = timeSinceProcessStart() {
            line += " \(BenchCommand.format(BenchCommand.milliseconds(sinceExec))) ms after exec,"
        }
        line += " \(BenchCommand.format(BenchCommand.milliseconds(now - started))) ms after main"
        // CLOCK_BOOTTIME counts from the kernel's start: boot to first frame on a device.
        let sinceBoot = bootTimeNow()
        line += ", \(BenchCommand.format(BenchCommand.milliseconds(sinceBoot))) ms after kernel start"
        return line
    }

    /// Time since the kernel started this process (/proc/self/stat field 22, in clock ticks since
    /// boot, so to 1/CLK_TCK s, usually 10 ms).
    static func timeSinceProcessStart() -> Duration? {
        guard let file = fopen("/proc/self/stat", "r") else { return nil }
        defer { fclose(file) }
        var bytes = [CChar](repeating: 0, count: 1024)
        guard fgets(&bytes, Int32(bytes.count), file) != nil else { return nil }
        let text = String(decoding: bytes.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // Fields after the command name (which may hold spaces) start after the last ')'.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state); starttime is field 22.
        guard fields.count > 19, let ticks = Int(fields[19]) else { return nil }
        let hz = sysconf(Int32(_SC_CLK_TCK))
        guard hz > 0 else { return nil }
        let start = Duration.nanoseconds(ticks * (1_000_000_000 / hz))
        return bootTimeNow() - start
    }
}
