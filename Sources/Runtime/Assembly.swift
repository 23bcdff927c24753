import Activity
import Configuration
import DeviceLogic
import Display
import Platform
import Raster
import Screens
import Store
import Text

/// The app put together, in one place for every command and test: the fonts, the clock, the
/// data, the controller, the session and the reloader, made from the settings for a sink — the
/// panel (`glance run`), a PNG file (`glance watch`) or memory (the tests). Whatever a caller
/// must make earlier or make-believe (the panel's fonts before the display is touched, a fixed
/// clock, data of its own) it gives in `Parts`; the rest is made here, in this order.
public final class Assembly {
    public let settings: Settings
    public let text: (any TextRenderer)?
    public let clock: any LocalClock
    public let data: any DataSource
    public let controller: PanelController
    public let session: Session
    /// SIGHUP's configuration again, in place; it owns the panel's output from here on.
    public let reloader: Reloader

    /// What the caller gives instead of what the assembly would make.
    public struct Parts {
        /// The fonts, already loaded (.some(nil): none needed); nil: loaded here.
        public var text: (any TextRenderer)??
        /// The calendar and the time; nil: the settings' (the system's, or a day fixed with --today).
        public var clock: (any LocalClock)?
        /// What is shown; nil: the settings' (the command line's day, gauge or task, else the store).
        public var data: (any DataSource)?
        /// When the session starts (a made-up clock's time); nil: now.
        public var now: Duration?
        /// The signals the loop takes (nil: none, as in tests).
        public var signals: SignalReceiver?
        /// The panel's output, for a reload that changes the display.
        public var output: DisplayOutput?
        /// The configuration file a reload reads, and the command line it puts over it again.
        public var configurationPath: String?
        public var commandLine = Layer()
        /// What the command makes of the settings a reload reads (`glance watch`: nothing dims).
        public var adjust: ((inout Configuration) -> Void)?
        /// Where the reloader tells what a reload did (nil: the assembly's log): `glance watch`
        /// keeps the session's own lines to itself but says what SIGHUP did.
        public var reloadLog: ((String) -> Void)?
        /// Where the data's problems go (nil: the assembly's log): `glance watch` keeps the
        /// session's lines to itself but tells what `glance run` would log of its sources — a
        /// gauge's file it cannot read, a topic glance mqtt has written no value for, the store's.
        public var dataLog: ((String) -> Void)?
        /// Told as each part is made ("store", "controller", "session"): `glance run --report-startup`.
        public var mark: ((String) -> Void)?
        /// The store's check left to `finishOpening()` (glance run: after the first frame).
        public var checkStoreLater = false

        public init(
            text: (any TextRenderer)?? = nil, clock: (any LocalClock)? = nil, data: (any DataSource)? = nil,
            now: Duration? = nil, signals: SignalReceiver? = nil
        ) {
            self.text = text
            self.clock = clock
            self.data = data
            self.now = now
            self.signals = signals
        }
    }

    /// The fonts the settings need (nil: none, the rings alone), or why they cannot be had (69);
    /// `report` as `Settings.loadText` says.
    public static func fonts(_ settings: Settings, report: ((String) -> Void)?) -> Result<FreeTypeTextRenderer?, OutputFailure> {
        do {
            return .success(try settings.loadText(report: report))
        } catch {
            return .failure(OutputFailure(error.message, status: Outcome.unavailable))
        }
    }

    /// What the panel's text is sized for, for the log: "viewing: 1.3" (the display's), 50 cm
    /// (usual for its size): text at least 25 px, figures 41 px".
    static func viewingNote(_ maker: ScreenMaker, picture: Size, rotation: Rotation) -> String {
        let size = rotation.degrees % 180 == 0 ? picture : Size(width: picture.height, height: picture.width)
        let scale = TypeScale(size: size, context: maker.context)
        let v = scale.viewing
        let source: String
        switch v.diagonalSource {
        case .display: source = "the display's"
        case .setting: source = "set"
        case .assumed: source = "usual for its pixels"
        }
        return "viewing: \(NumberText.fixed(v.diagonal, decimals: 2, trimmingZeros: true))\" (\(source)), "
            + "\(NumberText.plain(v.distance)) cm (\(v.distanceGiven ? "set" : "usual for its size")): "
            + "text at least \(NumberText.plain(Double(scale.floor))) px, figures \(NumberText.plain(Double(scale.figure))) px"
    }

    /// Makes the app for `sink`; the first thing that cannot be made is the failure (with its
    /// exit status), and nothing is left running.
    public static func make(
        _ settings: Settings, sink: any FrameSink, parts: Parts = Parts(), log: @escaping (String) -> Void
    ) -> Result<Assembly, OutputFailure> {
        let text: (any TextRenderer)?
        if let given = parts.text {
            text = given
        } else {
            // A face that cannot be opened at first use is a problem of what is shown (glance
            // watch tells those, as glance run logs them).
            switch fonts(settings, report: parts.dataLog ?? log) {
            case .success(let t): text = t
            case .failure(let failure): return .failure(failure)
            }
        }
        let clock = parts.clock ?? settings.makeClock()
        let data: any DataSource
        if let given = parts.data {
            data = given
        } else {
            switch settings.openData(today: clock.today(), checkLater: parts.checkStoreLater, log: log, problems: parts.dataLog) {
            case .success(let d): data = d
            case .failure(let failure): return .failure(failure)
            }
        }
        parts.mark?("store")
        let now = parts.now ?? monotonicNow()
        // The input devices are opened once the first frame is up (`reloader.openInput()`).
        // The panel's own size where the display says it (DRM's millimetres: a monitor's EDID, a
        // DSI panel's description, an SPI panel's overlay width-mm and height-mm).
        let measured = parts.output.flatMap { Viewing.diagonal(millimetres: $0.plan.connector.widthMillimetres,
                                                                 $0.plan.connector.heightMillimetres) }
        let controller = settings.makeController(
            panel: sink.size, text: text, data: data, clock: clock, now: now, measured: measured, log: log)
        if parts.output != nil { log(Self.viewingNote(controller.device.maker, picture: sink.size, rotation: settings.rotation)) }
        parts.mark?("controller")
        let session: Session
        do throws(SystemError) {
            session = try Session(sink: sink, rotation: settings.rotation, controller: controller, signals: parts.signals, log: log)
        } catch {
            return .failure(OutputFailure(error.description, status: Outcome.software))
        }
        parts.mark?("session")
        let reloader = Reloader(
            path: parts.configurationPath, commandLine: parts.commandLine, settings: settings, text: text, clock: clock,
            data: data, hub: nil, session: session, controller: controller, output: parts.output, log: parts.reloadLog ?? log)
        reloader.adjust = parts.adjust
        // The session keeps the reloader (which knows the session unowned): no cycle.
        session.onReload = { now, asker in reloader.reload(now: now, asker: asker) }
        session.onFrame = { reloader.framePresented() }
        return .success(
            Assembly(settings: settings, text: text, clock: clock, data: data, controller: controller, session: session, reloader: reloader))
    }

    private init(
        settings: Settings, text: (any TextRenderer)?, clock: any LocalClock, data: any DataSource,
        controller: PanelController, session: Session, reloader: Reloader
    ) {
        self.settings = settings
        self.text = text
        self.clock = clock
        self.data = data
        self.controller = controller
        self.session = session
        self.reloader = reloader
    }

    /// What `Parts.checkStoreLater` left for later: the store's check, which fails with the
    /// message and exit status the opening would have (a damaged store: 65). A no-op when
    /// nothing was left, or once it has passed.
    public func finishOpening() throws(OutputFailure) {
        try Self.finishOpening(data)
    }

    /// `finishOpening()` for the data of an assembly (a closure that must not hold the assembly).
    public static func finishOpening(_ data: any DataSource) throws(OutputFailure) {
        guard let store = data as? StoreData else { return }
        do throws(StoreError) {
            try store.finishOpening()
        } catch {
            throw Settings.storeFailure(error)
        }
    }

    /// The panel's output now (a reload may have replaced the first): its one owner is the
    /// reloader.
    public var output: DisplayOutput? { reloader.output }
}
