import CLI
import Runtime
import Activity
import Configuration
import Controls
import DeviceLogic
import Platform
import Raster
import Store


/// `glance watch`: the panel's session drawn into a PNG file instead of the panel. Each picture
/// replaces the file and is told in one line; between changes the process sleeps in poll().
public enum WatchApp {
    /// How it ends, and why (its help's exit statuses: Commands maps each to its number).
    public static let outcomes: [ExitStatusNote] = [
        ExitStatusNote(.ok, "stopped by Ctrl-C or SIGTERM"),
        ExitStatusNote(.unavailable, "no font for the labels (the message names the package; or draw --rings-only)"),
        ExitStatusNote(.cannotCreate, "FILE.png cannot be written"),
        ExitStatusNote(.temporaryFailure, "the store's file was replaced by another (or the store is busy)"),
        ExitStatusNote(.config, "the configuration file is invalid"),
    ]

    /// `glance watch`'s description (its help), beside what it does.
    public static let about = """
        Runs the app as glance run does, from the same store and configuration, but draws into FILE.png \
        instead of a panel: the day's ring screen, the gauges, or the progress screen while a task runs \
        (an import, say). Whenever something changes (glance log, an import, another process, midnight) \
        it draws again at once and prints one line per picture. A moving screen (a spinner) is drawn at \
        most twice a second. Nothing dims. SIGHUP reads the configuration again. Stops on Ctrl-C or SIGTERM \
        (exit 0); ends with 75 when \
        another file is renamed over the store (it is not followed; start again to watch the new one).
        """

    /// Runs until SIGINT or SIGTERM (0), or the store's file is replaced (75); SIGHUP reloads the
    /// configuration.
    public static func run(
        _ settings: Settings, size: Size, output: String, configuration: String? = nil,
        commandLine: Layer = Layer(), log: @escaping (String) -> Void, say: @escaping (String) -> Void
    ) -> Outcome {
        // Nobody presses a key on a file, and a file is never dimmed.
        func forFile(_ configuration: inout Configuration) {
            configuration.idle = IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 1)
            configuration.run.intro = false
        }
        let signals: SignalReceiver
        do {
            signals = try SignalReceiver([SignalReceiver.interrupt, SignalReceiver.terminate, SignalReceiver.hangUp])
        } catch {
            log(error.description)
            return Outcome.software
        }
        var parts = Assembly.Parts(signals: signals)
        parts.configurationPath = configuration
        parts.commandLine = commandLine
        // SIGHUP: the configuration again (what is shown, how), the picture's size as it is.
        parts.adjust = forFile
        parts.reloadLog = log
        // What its sources' problems are, as glance run logs them: each once, with what to do.
        parts.dataLog = log
        let assembly: Assembly
        switch Assembly.make(settings.with(forFile), sink: PNGSink(size: size, naming: .latest(output)), parts: parts, log: { _ in }) {
        case .success(let a): assembly = a
        case .failure(let failure):
            log(failure.status == Outcome.unavailable ? "\(failure.message) (or draw --rings-only)" : failure.message)
            return failure.status
        }
        let session = assembly.session, controller = assembly.controller, data = assembly.data, reloader = assembly.reloader
        // Given --socket: the home's commands (glance mqtt) and glance screenshot reach this picture too.
        if let path = settings.run.controlSocket { PanelApp.openControlSocket(session, path: path, log: log) }
        session.onFrame = {
            reloader.framePresented()
            say("drew \(output) (\(controller.lastChange.rawValue)): \(shown(controller, data))")
        }
        do {
            switch try session.run() {
            case .signal: return Outcome.ok
            case .ended(let reason):
                log(reason)
                return Outcome.temporaryFailure
            }
        } catch {
            log(error.message)
            return error.status
        }
    }

    /// What the picture shows, in words: the day's figures, the task, or the gauges.
    static func shown(_ controller: PanelController, _ data: any DataSource) -> String {
        let navigation = controller.navigation
        switch navigation.screen {
        case .rings:
            return dayLine(navigation.day, ScreenMaker.shownSummary(day: navigation.day, today: navigation.today, data: data))
        case .progress:
            if let task = (data as? StoreData)?.runningTask() { return "task \(task.name) \(task.description ?? "")" }
            return "task \(data.task()?.label ?? "")"
        case .gauges:
            return "gauges " + data.gauges(now: monotonicNow()).map { "\($0.title)=\($0.value.map(NumberText.plain) ?? "—")" }
                .joined(separator: " ")
        default:
            // The clock, and a screen of the time: its name and today.
            return "\(navigation.screen.rawValue) " + dayLine(navigation.today, data.summary(for: navigation.today))
        }
    }
}

/// One line describing a day, as `glance log` and `glance watch` print it.
public func dayLine(_ day: CalendarDay, _ s: ActivitySummary?) -> String {
    guard let s else { return "\(day): no summary" }
    func number(_ x: Double?) -> String { x.map(NumberText.plain) ?? "—" }
    func pair(_ v: Double?, _ g: Double?, _ unit: String) -> String { "\(number(v))/\(number(g)) \(unit)" }
    var parts: [String] = []
    if s.moveMode == .moveTime {
        parts.append("move \(pair(s.moveTime, s.moveTimeGoal, "min")) (move-time mode)")
    } else if s.moveMode == .steps {
        parts.append("move \(pair(s.steps, s.stepsGoal, "steps")) (steps mode)")
    } else if let value = s.activeEnergyBurned, let goal = s.activeEnergyBurnedGoal, value.unit != goal.unit {
        // Each number with its own unit: `1460/500 kJ` would misstate a goal of 500 kcal.
        parts.append("move \(number(value.value)) \(value.unit.rawValue)/\(number(goal.value)) \(goal.unit.rawValue)")
    } else {
        let unit = (s.activeEnergyBurned ?? s.activeEnergyBurnedGoal)?.unit.rawValue ?? "kcal"
        parts.append("move \(pair(s.activeEnergyBurned?.value, s.activeEnergyBurnedGoal?.value, unit))")
    }
    parts.append("exercise \(pair(s.exerciseTime, s.exerciseTimeGoal, "min"))")
    parts.append("stand \(pair(s.standHours, s.standHoursGoal, "h"))")
    return "\(day): " + parts.joined(separator: ", ")
}
