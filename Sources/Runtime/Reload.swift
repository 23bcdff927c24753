import Activity
import Configuration
import ConfigurationFile
import DeviceLogic
import Display
import Input
import Platform
import Raster
import Screens
import Text

/// What a reload did: applied (what changed, in words: "screens, data, rotation 180", or
/// "nothing changed"), or refused (the first problem, in one line: a JSON path and what is wrong
/// there, a key name libevdev does not know, a font not found); refused, nothing changed.
public enum ReloadOutcome: Sendable, Equatable {
    case applied(String)
    case refused(String)
}

/// SIGHUP (`systemctl reload glance`), or the control socket's `reload`: the configuration file read again and applied in place,
/// without the console showing between: the screens, gauges, sources, keys, touch, idle times,
/// clock, cycle, brightness, fonts and language; a changed display (connector, mode, format,
/// card) is a mode set straight from the last frame to the new one, a changed rotation the next
/// frame turned the new way. A file that cannot be read or is invalid is logged with every
/// problem, and the running configuration stays, whole: everything that can fail is done
/// before anything changes.
public final class Reloader {
    /// The file read (nil: the default one, and no file means the defaults).
    let path: String?
    /// The command line, which still wins over the file.
    let commandLine: Layer
    public private(set) var settings: Settings
    private var text: (any TextRenderer)?
    private let clock: LocalClock
    private let log: (String) -> Void
    unowned let session: Session
    unowned let controller: PanelController
    /// The panel (nil: `glance watch`'s picture, whose size and display do not change).
    public private(set) var output: DisplayOutput?
    /// The panel's own diagonal where its display says it (DRM's millimetres), for the viewing.
    var measuredDiagonal: Double? {
        output.flatMap { Viewing.diagonal(millimetres: $0.plan.connector.widthMillimetres, $0.plan.connector.heightMillimetres) }
    }
    /// The outputs display changes replaced, kept until the current one's first frame is on the
    /// panel (the buffers on screen are one of theirs until then).
    private var retiring: [DisplayOutput] = []
    private var hub: InputHub?
    private var data: any DataSource
    /// Told the outcome of every reload, for a service manager (systemd's STATUS=).
    public var onReloaded: ((String) -> Void)?
    /// What the command makes of the settings before using them (`glance watch`: no dimming).
    public var adjust: ((inout Configuration) -> Void)?

    public init(
        path: String?, commandLine: Layer, settings: Settings, text: (any TextRenderer)?, clock: LocalClock,
        data: any DataSource, hub: InputHub?, session: Session, controller: PanelController, output: DisplayOutput?,
        log: @escaping (String) -> Void
    ) {
        self.path = path
        self.commandLine = commandLine
        self.settings = settings
        self.text = text
        self.clock = clock
        self.data = data
        self.hub = hub
        self.session = session
        self.controller = controller
        self.output = output
        self.log = log
    }

    /// Opens the input devices the settings ask for, when none are open yet, and gives them to the
    /// controller: `glance run` does it once the first frame is on the panel.
    public func openInput() {
        guard hub == nil, let opened = settings.makeInputHub(log: log) else { return }
        hub = opened
        controller.use(input: opened, refresher: settings.makeRefresher(hub: opened, log: log))
    }

    /// Why a new configuration is not taken: the lines to log, and the first problem in one line
    /// (what the control socket's `reload` answers).
    struct Refusal: Error {
        var lines: [String]
        var reason: String

        init(lines: [String], reason: String? = nil) {
            self.lines = lines
            self.reason = reason ?? lines.first ?? "refused"
        }

        /// The file's failure: its lines for the log, and its first problem (with its JSON path) as
        /// the reason, with how many more there are.
        init(_ failure: ConfigurationFile.Failure) {
            switch failure {
            case .invalid(_, let found) where !found.issues.isEmpty:
                let more = found.issues.count - 1
                self.init(
                    lines: ConfigurationFile.lines(failure),
                    reason: "\(found.issues[0])" + (more == 0 ? "" : " (and \(more) more problem\(more == 1 ? "" : "s"))"))
            default:
                self.init(lines: ConfigurationFile.lines(failure))
            }
        }
    }

    /// Reads the file and applies it; told in the log as asked by `asker` ("SIGHUP", the control
    /// socket's client). Applied: what changed, in words ("nothing changed" among them); refused:
    /// the first problem, and the running configuration stays.
    @discardableResult
    public func reload(now: Duration, asker: String = "SIGHUP") -> ReloadOutcome {
        let file = path ?? Configuration.defaultPath
        log("\(asker): reading \(file) again")
        do throws(Refusal) {
            let summary = try apply(try read(), now: now)
            let took = (monotonicNow() - now).inMilliseconds
            log("configuration reloaded: \(summary) (\(NumberText.fixed(took, decimals: 1)) ms)")
            onReloaded?("reloaded: \(summary)")
            return .applied(summary)
        } catch {
            for line in error.lines { log(line) }
            log("keeping the running configuration")
            onReloaded?("the new configuration was refused; showing the old one")
            return .refused(error.reason)
        }
    }

    /// The new settings: the file over the defaults, the command line over the file.
    func read() throws(Refusal) -> Settings {
        let configuration: Configuration
        switch ConfigurationFile.loadNoted(path) {
        case .success(let read):
            configuration = read.configuration
            for line in ConfigurationFile.lines(notes: read.notes, path: path) { log(line) }
        case .failure(let failure): throw Refusal(failure)
        }
        do {
            _ = try Settings(configuration)
        } catch {
            throw Refusal(.invalid(path: path ?? Configuration.defaultPath, error))
        }
        var layered: Configuration
        do {
            layered = try configuration.applying(commandLine)
        } catch {
            throw Refusal(lines: ["the command line does not fit the new configuration: \(error.message)"])
        }
        adjust?(&layered)
        do {
            return try Settings(layered)
        } catch {
            throw Refusal(.invalid(path: path ?? Configuration.defaultPath, error))
        }
    }

    /// Everything that can fail first (fonts, data, the display), then the change; returns what
    /// changed, in words.
    func apply(_ next: Settings, now: Duration) throws(Refusal) -> String {
        let old = settings
        // What changed, from the settings' declarations: each says what a reload does for it.
        let reloads = Set(Configuration.reloads(from: old.configuration, to: next.configuration))
        // Fonts for another language or other files (the locale may come from the environment).
        var newText = text
        if reloads.contains(.fonts) || next.resolvedLocale != old.resolvedLocale || next.needsText != old.needsText {
            do {
                newText = try next.loadText(report: log)
            } catch {
                throw Refusal(lines: [error.message])
            }
        }
        // Data: another store, or other gauges.
        var newData = data
        if reloads.contains(.data) {
            switch next.openData(today: clock.today(), log: log) {
            case .success(let d): newData = d
            case .failure(let failure): throw Refusal(lines: [failure.message])
            }
        }
        // The display: a successor that takes the panel over at its first frame.
        var newOutput: DisplayOutput?
        if let output, reloads.contains(.display) {
            if output.suspended {
                throw Refusal(lines: ["the display settings changed while another console is in front: reload again once back"])
            }
            do throws(DisplayError) {
                newOutput = try output.successor(for: next.display.output, singleBuffered: next.run.singleBuffered)
            } catch {
                throw Refusal(lines: ["the new display settings cannot be used: \(error)"])
            }
        }
        // Nothing can fail from here on.
        var changes: [String] = []
        if let newOutput, let output {
            for note in newOutput.takeNotes() { log(note) }
            let plan = newOutput.plan
            log(
                "display: \(plan.connector.name) \(plan.mode) \(fourCCName(plan.format.fourCC)) on \(newOutput.card.path) "
                    + "(\(newOutput.usesAtomic ? "atomic" : "legacy")), set over the last frame")
            retiring.append(output)
            self.output = newOutput
            session.replaceOutput(PanelSink(newOutput), rotation: next.rotation)
        } else if next.rotation != old.rotation {
            session.turn(to: next.rotation)
        }
        // Input: devices opened afresh when what is read of them changed.
        if reloads.contains(.input) || next.keyMap.codes != old.keyMap.codes {
            // The old devices let go first: a device grabbed twice refuses the second grab.
            hub?.setGrabbing(false)
            hub = next.makeInputHub(log: log)
        }
        text = newText
        data = newData
        let panel = session.sink.size
        let refresher: Refresher? = reloads.contains(.refresh) ? next.makeRefresher(hub: hub, log: log) : controller.refreshCommands
        controller.reconfigure(
            screens: next.screenOrder, maker: next.maker(text: newText, measured: measuredDiagonal), data: newData, hub: hub,
            router: next.makeRouter(panel: panel), idle: next.idle, cycle: next.makeCycle(now: now),
            schedule: next.hours, refresher: refresher, brightness: next.display.brightness, now: now)
        for reload in reloads.sorted() where reload != .serve && reload != .commandLine {
            changes.append(reload == .rotation ? "rotation \(next.rotation.degrees)" : reload.rawValue)
        }
        settings = next
        return changes.isEmpty ? "nothing changed" : changes.joined(separator: ", ")
    }

    /// Called after each frame: the output a display change replaced goes once its successor's
    /// first frame is on the panel.
    public func framePresented() {
        guard !retiring.isEmpty, output?.presentedBuffer != nil else { return }
        for old in retiring { old.abandon() }
        retiring = []
    }
}
