import App
import DeviceLogic
import Activity
import Configuration
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
        let settings = job.settings
        let show = settings.show
        let screen = show.screen ?? .rings
        var text: FreeTypeTextRenderer?
        if !(show.ringsOnly && screen == .rings) {
            do {
                text = try loadFonts(
                    file: settings.fontFile, cjkFile: settings.cjkFontFile, locale: settings.resolvedLocale)
            } catch {
                console.complain(error.message)
                return Outcome.unavailable
            }
        }
        let maker = settings.maker(text: text)
        let systemToday = SystemLocalClock().today()
        let today = settings.fixedToday ?? systemToday
        let day = show.day?.day(today: today) ?? today
        let time = show.clockTime ?? SystemLocalClock().timeOfDay()
        // What is shown: the command line's, or the store's day and week.
        let data: any DataSource
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
                // Files and commands are read once, as the panel reads them when the gauges are shown.
                if screen == .gauges { _ = store.showGauges(true, now: monotonicNow()) }
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
            data = FixedData(days: days, gauges: [show.gauge], task: show.progress)
        }
        let summary = job.fromStore ? ScreenMaker.shownSummary(day: day, today: today, data: data) : show.shownSummary
        // The week strip shows the store's week; the command line's day stands alone.
        let week: any DataSource = job.fromStore ? data : FixedData(days: [:])
        func makeScreen(_ summary: ActivitySummary?) -> any Screen {
            switch screen {
            case .gauges: maker.gaugeScreen(data.gauges(now: .zero), page: show.page)
            case .progress: maker.progressScreen(data.task() ?? show.progress)
            case .clock: maker.clockScreen(day: day, summary: summary, time: time)
            case .rings: maker.ringScreen(day: day, today: today, summary: summary, data: week, time: time, page: show.page)
            }
        }
        // The intro's stages of the day shown: the day with its values scaled.
        let intro = RingIntroScene(summary: summary) { makeScreen($0) }
        let still = makeScreen(summary)
        let format = settings.display.output.format ?? .xrgb8888
        let composer = FrameComposer(panel: job.size, rotation: settings.rotation, format: format)
        let sink = PNGSink(size: job.size, format: format, naming: job.frames == nil ? .latest(job.output) : .numbered(job.output))
        if job.explain {
            let shown = settings.run.intro ? intro.frame(atSeconds: show.time).screen : still
            let explained = Explanation(
                of: shown, size: composer.pictureSize, shape: settings.display.shape, viewing: maker.viewing,
                capRatio: text?.capRatio ?? Legibility.usualCapRatio, at: show.time)
            let outcome = console.result(ScriptJSON.explanation(explained).text)
            if job.output.isEmpty || outcome != Outcome.ok { return outcome }
        }
        // What was asked for and cannot be shown on this panel is said, not dropped silently.
        if !job.explain {
            let explained = Explanation(
                of: still, size: composer.pictureSize, shape: settings.display.shape, viewing: maker.viewing,
                capRatio: text?.capRatio ?? Legibility.usualCapRatio, at: show.time)
            for omission in explained.omitted where omission.element == "rings.name" && !maker.name.isEmpty {
                console.complain("the name is not shown on this \(job.size) panel: \(omission.why)")
            }
        }
        for i in 0..<(job.frames ?? 1) {
            let at = show.time + Double(i) / job.fps
            let shown = settings.run.intro ? intro.frame(atSeconds: at).screen : still
            composer.compose(shown, into: sink.drawingBuffer, at: at)
            do {
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
