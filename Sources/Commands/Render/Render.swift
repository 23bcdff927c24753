import Runtime
import DeviceLogic
import Activity
import Configuration
import Controls
import ImageFile
import Platform
import Raster
import Screens
import Store
import Text
import Clocks


/// Screens drawn into PNG files, headlessly, by the panel's renderer: `glance render` and
/// `glance demo`.
public enum Pictures {
    /// `glance render`: what the settings show (the command line's day, gauge or task, or with
    /// `fromStore` the day and its week from the store, as the panel shows them), at `size`, into
    /// `output` (or N numbered frames).
    public struct Render: Sendable {
        public var settings: Settings
        public var size: Size
        public var output: String
        /// N frames from the settings' time on, `fps` a second, as FILE-0001.png …; nil: one file.
        public var frames: Int?
        public var fps: Double
        /// The day from the store (`--db`), and the configured gauges.
        public var fromStore: Bool
        /// Print what the picture shows, as JSON (`--explain`).
        public var explain = false
        /// A message shown in place of the screen (`--message`), as the panel shows one.
        public var message: String?
        /// Whose day from the store (`--person NAME|ID`; nil: person 1).
        public var person: String?
        /// Whether the ring screen then says the person's name (no `--name` given).
        public var nameFromPerson = true

        public init(settings: Settings, size: Size, output: String, frames: Int?, fps: Double, fromStore: Bool) {
            self.settings = settings
            self.size = size
            self.output = output
            self.frames = frames
            self.fps = fps
            self.fromStore = fromStore
        }
    }

    public static func render(_ job: Render, console: Console) -> Outcome {
        let screen = job.settings.show.screen ?? .rings
        var settings = HeadlessPanel.still(job.settings, showing: screen)
        let show = settings.show
        let text: FreeTypeTextRenderer?
        switch Assembly.fonts(settings, report: console.complain) {
        case .success(let t): text = t
        case .failure(let failure):
            console.complain(failure.message)
            return failure.status
        }
        let today = settings.fixedToday ?? SystemLocalClock().today()
        let day = show.day?.day(today: today) ?? today
        // What is shown: the command line's, or the store's day and week.
        let data: any DataSource
        let now = monotonicNow()
        if job.fromStore {
            guard !show.summaryGiven, !show.noSummary, !show.gaugeGiven, !show.progressGiven else {
                console.complain(
                    "--db draws the store's day, gauges and task: drop --move/--exercise/--stand/--no-summary and the gauge "
                        + "and progress options")
                return Outcome.usage
            }
            do throws(StoreError) {
                let store = try StoreData(
                    path: settings.database ?? "", access: .read, gauges: settings.gauges, goals: settings.goals.standing,
                    log: { console.complain($0) })
                if let person = job.person {
                    let found = try store.store.requirePerson(person)
                    store.store.person = found.id
                    // Whose rings they are, on the ring screen, unless --name says otherwise.
                    if job.nameFromPerson { settings.name = found.name }
                }
                // Files and commands are read once, as the panel reads them when the gauges are shown.
                if screen == .gauges { _ = store.showGauges(true, now: now) }
                data = store
            } catch {
                return StoreJobs.fail(error, console: console)
            }
            if screen == .progress && data.task() == nil {
                console.complain("--db: no task is running in the store, so there is no progress to draw")
                return Outcome.dataError
            }
        } else {
            var days: [CalendarDay: ActivitySummary] = [:]
            if let summary = show.shownSummary { days[day] = summary }
            // A task only where the progress screen is asked for: the panel turns to a running task.
            data = FixedData(days: days, gauges: [show.gauge], task: screen == .progress ? show.progress : nil)
        }
        // The panel put together as for glance run, on a PNG sink, with the day and the time fixed.
        let format = settings.display.output.format ?? .xrgb8888
        let sink = PNGSink(size: job.size, format: format, naming: job.frames == nil ? .latest(job.output) : .numbered(job.output))
        let panel: HeadlessPanel
        switch HeadlessPanel.make(settings, sink: sink, text: text, clock: FixedClock(today, time: show.clockTime), data: data, now: now) {
        case .success(let made): panel = made
        case .failure(let failure):
            console.complain(failure.message)
            return failure.status
        }
        if let text = job.message, case .success(let checked) = PanelMessage.check(Array(text.utf8)) {
            panel.show(PanelMessage(text: checked), now: now)
        }
        let composer = panel.composer
        let maker = panel.maker
        func shown(at seconds: Double) -> any Screen { panel.screen(at: seconds) }
        if job.explain {
            let explained = Explanation(
                of: shown(at: show.time), size: composer.pictureSize, shape: settings.display.shape, viewing: maker.viewing,
                capRatio: text?.capRatio ?? Legibility.usualCapRatio, at: show.time)
            let outcome = console.result(ScriptJSON.explanation(explained).text)
            if job.output.isEmpty || outcome != Outcome.ok { return outcome }
        }
        // What was asked for and cannot be shown on this panel is said, not dropped silently.
        if !job.explain {
            let explained = Explanation(
                of: shown(at: settings.run.intro ? 60 : show.time), size: composer.pictureSize, shape: settings.display.shape,
                viewing: maker.viewing, capRatio: text?.capRatio ?? Legibility.usualCapRatio, at: show.time)
            for omission in explained.omitted where omission.element == "rings.name" && !maker.name.isEmpty {
                console.complain("the name is not shown on this \(job.size) panel: \(omission.why)")
            }
        }
        for i in 0..<(job.frames ?? 1) {
            let at = show.time + Double(i) / job.fps
            composer.compose(shown(at: at), into: sink.drawingBuffer, at: at)
            do throws(OutputFailure) {
                try sink.present(damage: IntRect(x: 0, y: 0, width: job.size.width, height: job.size.height))
            } catch {
                console.complain("--output '\(job.output)': \(error.message)")
                return error.status
            }
            if job.frames != nil { console.say(PNGSink.numbered(job.output, i + 1)) }
        }
        return Outcome.ok
    }
}
