import Activity
import App
import ImageFile
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

/// The write end of the self-pipe SIGINT/SIGTERM wake the watch loop through.
nonisolated(unsafe) private var signalPipe: Int32 = -1

/// `glance watch`: the live-update path without a panel. Draws a day's rings into a PNG and
/// draws again whenever the store changes, sleeping in poll() in between.
struct WatchCommand {
    var store = StoreSelection()
    var output: String?
    var size = Size(width: 480, height: 480)
    var day: CalendarDay?
    var name = ""
    var ringsOnly = false

    static let help = """
        Usage: glance watch --render-to FILE.png [--size WxH] [--date D] [--db PATH]

        Draws the day's ring screen (as the panel would) into FILE.png, or the progress screen
        while a task runs (an import, say), then waits; whenever the store changes (glance log,
        an import, another process) it draws again at once. Prints one line per drawing. Stops on
        Ctrl-C or SIGTERM (exit 0). Sleeps in poll(): no polling, no timer, except at midnight
        when the day shown is today. Ends with 75 when another file is renamed over the store
        (it is not followed; start again to watch the new one).

          --render-to FILE.png   where to draw (replaced whole each time)
          --size WxH             picture size (default: 480x480)
          --date D               the day: YYYY-MM-DD, today or yesterday (default: today, and it
                                 follows the date at midnight)
          --name NAME            whose rings they are (shown on the screen)
          --rings-only           the rings alone, filling the picture (no text, no fonts needed)
        \(StoreSelection.help)
        """

    static func parse(_ argv: [String]) throws(UsageError) -> WatchCommand? {
        var command = WatchCommand()
        var args = Arguments(argv)
        while let option = try args.nextOption() {
            if option == "--help" || option == "-h" { return nil }
            if try command.store.parse(option, &args) { continue }
            switch option {
            case "--render-to", "--output", "-o":
                let path = try args.value(for: option)
                if let problem = isWritableOutput(path) {
                    throw UsageError("\(option) '\(path)': cannot write there: \(problem)")
                }
                command.output = path
            case "--size": command.size = try Parse.size(try args.value(for: option), option: option)
            case "--date": command.day = try Parse.day(try args.value(for: option), option: option)
            case "--name": command.name = try args.value(for: option)
            case "--rings-only": command.ringsOnly = true
            default: throw UsageError("watch: unknown option '\(option)' (see glance watch --help)")
            }
        }
        guard command.output != nil else { throw UsageError("watch: --render-to FILE.png is required") }
        return command
    }

    func run() -> Int32 {
        guard let output, let path = store.resolvedPath() else { return ExitCode.usage }
        let watcher: StoreWatcher
        let store: Store
        do {
            store = try Store(path: path)
            watcher = try StoreWatcher(store: store)
        } catch {
            return fail(error)
        }
        var pipeFDs: [Int32] = [-1, -1]
        guard pipe(&pipeFDs) == 0 else {
            complain("watch: pipe: \(String(cString: strerror(errno)))")
            return ExitCode.software
        }
        for fd in pipeFDs {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        signalPipe = pipeFDs[1]
        let wake: @convention(c) (Int32) -> Void = { _ in
            var byte: UInt8 = 1
            _ = write(signalPipe, &byte, 1)
        }
        signal(SIGINT, wake)
        signal(SIGTERM, wake)
        // A parent may have started us with these blocked (the mask is inherited): take them.
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGINT)
        sigaddset(&mask, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &mask, nil)

        var text: FreeTypeTextRenderer?
        if !ringsOnly {
            do {
                text = try FreeTypeTextRenderer(fonts: .init())
            } catch {
                complain("\(error.message) (or draw --rings-only)")
                return ExitCode.unavailable
            }
        }
        let context = ScreenContext(text: text, locale: AppLocale(environment: SystemClock.languageVariable()))
        let composer = FrameComposer(panel: size)
        var shown = day ?? Parse.today()
        /// The shown day's ring screen and summary: one query for the day, or for its week (which
        /// holds the day) when the screen shows the week strip.
        func ringScreen() throws(StoreError) -> (RingScreen, ActivitySummary?) {
            if ringsOnly {
                let summary = try store.summary(for: shown)
                return (RingScreen(summary: summary), summary)
            }
            var content = RingScreenContent(name: name, day: shown, today: Parse.today(), summary: nil)
            for (d, s) in try store.summaries(from: content.weekDays[0], through: content.weekDays[6]) {
                content.week[d] = s
            }
            content.summary = content.week[shown]
            return (RingScreen(content: content, context: context), content.summary)
        }
        let started = ContinuousClock.now
        func draw(_ reason: String) -> Bool {
            do {
                // Work in progress (an import, a script's task) takes the screen while it runs.
                if !ringsOnly, let task = try store.runningTasks().first {
                    let content = ProgressContent(
                        amount: task.fraction.map { .determinate($0) } ?? .indeterminate,
                        label: task.description ?? task.name, cancellable: task.cancellable)
                    let time = (ContinuousClock.now - started).inSeconds
                    try PNGFile.write(
                        composer.render(ProgressScreen(content: content, context: context), at: time), to: output)
                    writeOut("drew \(output) (\(reason)): task \(task.name) \(task.description ?? "")\n")
                    return true
                }
                let (screen, summary) = try ringScreen()
                try PNGFile.write(composer.render(screen), to: output)
                writeOut("drew \(output) (\(reason)): \(describe(shown, summary))\n")
                return true
            } catch let error as StoreError {
                complain(error.message)
            } catch let error as PNGError {
                complain(error.description)
            } catch {
                complain("\(error)")
            }
            return false
        }
        guard draw("start") else { return ExitCode.ioError }
        var status = ExitCode.ok
        while true {
            var fds = [
                pollfd(fd: watcher.fileDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: pipeFDs[0], events: Int16(POLLIN), revents: 0),
            ]
            var timeout = watcher.pollTimeout
            if day == nil {
                // The time zone's midnight (a day of 23 or 25 hours when the clocks change).
                let midnight = Int32(min(2 * 86400, SystemLocalClock().secondsUntilMidnight()) * 1000)
                timeout = timeout < 0 ? midnight : min(timeout, midnight)
            }
            let n = poll(&fds, 2, timeout)
            if n < 0 && errno != EINTR {
                complain("watch: poll: \(String(cString: strerror(errno)))")
                return ExitCode.ioError
            }
            if fds[1].revents != 0 { break }
            var reason: String?
            if watcher.changed() { reason = "store changed" }
            if watcher.replaced {
                complain(watcher.replacedMessage)
                status = ExitCode.temporaryFailure
                break
            }
            if day == nil, Parse.today() != shown {
                shown = Parse.today()
                reason = "new day"
            }
            if let reason { _ = draw(reason) }
        }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        close(pipeFDs[0])
        close(pipeFDs[1])
        return status
    }
}
