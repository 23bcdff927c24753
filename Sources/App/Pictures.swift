import Activity
import CLI
import ImageFile
import Raster
import Screens
import Store
import Text

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Screens drawn into PNG files, headlessly, by the panel's renderer: `glance render` and
/// `glance demo`.
public enum Pictures {
    /// `glance render`: what the request shows (or, with `database`, the day and its week from the
    /// store, as the panel shows them), at `size`, into `output` (or N numbered frames).
    public struct Render: Sendable {
        public var request: ScreenRequest
        public var size: Size
        public var output: String
        /// N frames from `request.time` on, `fps` a second, as FILE-0001.png …; nil: one file.
        public var frames: Int?
        public var fps: Double
        public var database: String?
        /// The ring screen as the intro draws it (`glance run --intro`), `request.time` seconds
        /// after its first frame.
        public var intro: Bool

        public init(
            request: ScreenRequest, size: Size, output: String, frames: Int?, fps: Double, database: String?,
            intro: Bool = false
        ) {
            self.request = request
            self.size = size
            self.output = output
            self.frames = frames
            self.fps = fps
            self.database = database
            self.intro = intro
        }
    }

    public static func render(_ job: Render) -> Int32 {
        let request = job.request
        let locale = request.resolvedLocale(environment: environmentLanguage())
        var text: FreeTypeTextRenderer?
        if request.needsText {
            do {
                text = try loadFonts(file: request.fontFile, cjkFile: request.cjkFontFile, locale: locale)
            } catch {
                complain(error.message)
                return ExitCode.unavailable
            }
        }
        var maker = ScreenMaker(
            text: text, locale: locale, shape: request.shape ?? .rectangle, name: request.name ?? "",
            ringsOnly: request.ringsOnly)
        maker.clockFormat = request.clockFormat ?? ClockFormat.usual(for: locale, environment: environmentTimeLocale())
        let systemToday = SystemLocalClock().today()
        var screen = request.makeScreen(with: maker, today: systemToday)
        // The intro's stages of the day shown: the day with its values scaled.
        var intro = RingIntroScene(summary: request.shownSummary) { [maker] in
            request.with(summary: $0).makeScreen(with: maker, today: systemToday)
        }
        if let database = job.database {
            // The day and its week from the store, as the panel shows them.
            guard request.screen == .rings || request.screen == .clock, !request.summaryGiven, !request.noSummary else {
                complain(
                    "--db draws the ring or clock screen's day from the store: drop --move/--exercise/--stand/--no-summary "
                        + "and --screen gauge/progress")
                return ExitCode.usage
            }
            let data: StoreData
            do throws(StoreError) {
                data = try StoreData(path: database, access: .read, gauges: [], log: { complain($0) })
            } catch {
                return StoreJobs.fail(error)
            }
            let today = request.today ?? systemToday
            let day = request.date ?? today
            let summary = ScreenMaker.shownSummary(day: day, today: today, data: data)
            let time = request.shownTime
            intro = RingIntroScene(summary: summary) { [maker] in
                maker.ringScreen(day: day, today: today, summary: $0, data: data, time: time)
            }
            screen =
                request.screen == .clock
                ? maker.clockScreen(day: day, summary: summary, time: time) : intro.makeScreen(summary)
        }
        let composer = FrameComposer(panel: job.size, rotation: request.rotation ?? .none, format: request.format ?? .xrgb8888)
        let sink = PNGSink(
            size: job.size, format: request.format ?? .xrgb8888,
            naming: job.frames == nil ? .latest(job.output) : .numbered(job.output))
        for i in 0..<(job.frames ?? 1) {
            let time = request.time + Double(i) / job.fps
            let shown = job.intro ? intro.frame(atSeconds: time).screen : screen
            composer.compose(shown, into: sink.drawingBuffer, at: time)
            do {
                try sink.present(damage: IntRect(x: 0, y: 0, width: job.size.width, height: job.size.height))
            } catch {
                complain("--output '\(job.output)': \(error.message)")
                return error.status
            }
            if job.frames != nil { say(PNGSink.numbered(job.output, i + 1)) }
        }
        return ExitCode.ok
    }

    // MARK: glance demo

    /// The benchmark's and the demo's typical day: three rings at 75 %, 50 % and 120 %.
    public static let typicalDay = ActivitySummary(
        activeEnergyBurned: .kilocalories(375), activeEnergyBurnedGoal: .kilocalories(500),
        exerciseTime: 15, exerciseTimeGoal: 30, standHours: 14.4, standHoursGoal: 12)

    /// The demo days: name and summary.
    static let demoDays: [(name: String, summary: ActivitySummary?)] = [
        ("rings-typical", typicalDay),
        ("rings-start", ActivitySummary(
            activeEnergyBurned: .kilocalories(0), activeEnergyBurnedGoal: .kilocalories(500),
            exerciseTime: 0, exerciseTimeGoal: 30, standHours: 0, standHoursGoal: 12)),
        ("rings-closed", ActivitySummary(
            activeEnergyBurned: .kilocalories(500), activeEnergyBurnedGoal: .kilocalories(500),
            exerciseTime: 30, exerciseTimeGoal: 30, standHours: 12, standHoursGoal: 12)),
        ("rings-big-day", ActivitySummary(
            activeEnergyBurned: .kilocalories(1250), activeEnergyBurnedGoal: .kilocalories(500),
            exerciseTime: 48, exerciseTimeGoal: 30, standHours: 16, standHoursGoal: 12)),
        ("rings-iphone-only", ActivitySummary(
            activeEnergyBurned: Energy(313, .kilocalorie), activeEnergyBurnedGoal: .kilocalories(300),
            exerciseTime: 0, exerciseTimeGoal: 0, standHours: 0, standHoursGoal: 0)),
        ("rings-no-data", nil),
    ]

    /// `glance demo`: the ring screen through the demo week in English and Simplified Chinese, a
    /// grid of gauges and the progress screen, into `folder`.
    public static func demo(folder: String, size: Size) -> Int32 {
        if mkdir(folder, 0o755) != 0 && errno != EEXIST {
            let denied = errno == EACCES || errno == EPERM
            complain("--output '\(folder)': cannot create the folder: \(String(cString: strerror(errno)))")
            return denied ? ExitCode.noPermission : ExitCode.cannotCreate
        }
        let english: FreeTypeTextRenderer, chinese: FreeTypeTextRenderer
        do {
            english = try FreeTypeTextRenderer()
            chinese = try FreeTypeTextRenderer(fonts: .init(languages: [.simplifiedChinese]))
        } catch {
            complain(error.message)
            return ExitCode.unavailable
        }
        let composer = FrameComposer(panel: size)
        let today = SystemLocalClock().today()
        // The demo week: the days above, ending today.
        var week: [CalendarDay: ActivitySummary] = [:]
        for (i, day) in demoDays.enumerated() where day.summary != nil {
            week[today.adding(days: i - (demoDays.count - 1))] = day.summary
        }
        let data = FixedData(days: week)
        // The time now, written as the language and region usually do.
        let time = SystemLocalClock().timeOfDay()
        var maker = ScreenMaker(text: english, locale: AppLocale.english, name: "Alex")
        maker.clockFormat = ClockFormat.usual(for: .english, environment: environmentTimeLocale())
        var screens: [(String, any Screen)] = []
        for (i, day) in demoDays.enumerated() {
            let date = today.adding(days: i - (demoDays.count - 1))
            screens.append((day.name, maker.ringScreen(day: date, today: today, summary: day.summary, data: data, time: time)))
        }
        var chineseMaker = ScreenMaker(text: chinese, locale: AppLocale.simplifiedChinese, name: "小林")
        chineseMaker.clockFormat = ClockFormat.usual(for: .simplifiedChinese, environment: environmentTimeLocale())
        screens.append(
            ("rings-zh-Hans", chineseMaker.ringScreen(day: today, today: today, summary: typicalDay, data: data, time: time)))
        screens.append(("clock", maker.clockScreen(day: today, summary: typicalDay, time: time)))
        screens.append(("gauges", maker.gaugeScreen([
            Gauge(style: .accessoryCircular, value: 54, minimum: 30, maximum: 90, title: "CPU", unit: "°"),
            Gauge(style: .accessoryCircularCapacity, value: 72, minimum: 0, maximum: 100, unit: "%"),
            Gauge(style: .accessoryLinear, value: 0.8, minimum: 0, maximum: 4, title: "Load"),
            Gauge(style: .accessoryLinearCapacity, value: 41, minimum: 0, maximum: 100, title: "Disk", unit: "%"),
        ])))
        screens.append(("progress", maker.progressScreen(ProgressContent(
            amount: .determinate(0.41), style: .circular, label: "Importing health data", cancellable: true,
            cancelNote: "Cancelling leaves your data as it was"))))
        for (name, screen) in screens {
            let path = "\(folder)/\(name)-\(size).png"
            do {
                try PNGFile.write(composer.render(screen), to: path)
            } catch {
                complain(error.description)
                return error.denied ? ExitCode.noPermission : error.cannotCreate ? ExitCode.cannotCreate : ExitCode.ioError
            }
            say(path)
        }
        return ExitCode.ok
    }
}
