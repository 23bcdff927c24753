import Runtime
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



/// `glance demo`: the demo screens as PNG files, or the README's contact sheet.
extension Pictures {
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

    /// `glance demo`'s description (its help), beside what it does.
    public static let demoAbout = """
        Draws the demo screens as PNG files into FOLDER, creating it if needed, and prints each file's \
        name: the ring screen through a range of days (with the week strip), in English and Simplified \
        Chinese, the clock, a grid of gauges and the progress screen. With --sheet, six of them side by \
        side in one picture (the README's, drawn again and compared by a test).
        """

    /// `glance demo`: the ring screen through the demo week in English and Simplified Chinese, a
    /// grid of gauges and the progress screen, into `folder`; with `sheet`, the README's contact
    /// sheet of them instead (one PNG). `today` and `time` fix the day and the clock (nil: the
    /// system's), so the sheet is the same picture on every machine.
    public struct Demo: Sendable {
        public var folder: String
        public var size: Size
        public var today: CalendarDay?
        public var time: TimeOfDay?
        public var sheet: String?

        public init(folder: String, size: Size, today: CalendarDay? = nil, time: TimeOfDay? = nil, sheet: String? = nil) {
            self.folder = folder
            self.size = size
            self.today = today
            self.time = time
            self.sheet = sheet
        }
    }

    /// The screens the contact sheet shows, in its order (three a row): where the ring screen is
    /// in pages (a small or round panel), the last is the typical day's Move page.
    public static let sheetScreens = ["rings-typical", "clock", "gauges", "rings-zh-Hans", "progress", "rings-big-day"]

    public static func demo(_ job: Demo, console: Console) -> Outcome {
        if job.sheet == nil {
            do throws(SystemError) {
                try Folders.make(job.folder)
            } catch {
                console.complain("--output '\(job.folder)': cannot create the folder: \(error.errno)")
                let denied = error.errno == .permissionDenied || error.errno == .notPermitted
                return OutputFile.Failure.outcome(denied: denied, cannotCreate: true)
            }
        }
        let english: FreeTypeTextRenderer, chinese: FreeTypeTextRenderer
        do {
            english = try FreeTypeTextRenderer()
            chinese = try FreeTypeTextRenderer(fonts: .init(languages: [.simplifiedChinese]))
        } catch {
            console.complain(error.message)
            return Outcome.unavailable
        }
        let size = job.size
        let today = job.today ?? SystemLocalClock().today()
        // The demo week: the days above, ending today.
        var week: [CalendarDay: ActivitySummary] = [:]
        for (i, day) in demoDays.enumerated() where day.summary != nil {
            week[today.adding(days: i - (demoDays.count - 1))] = day.summary
        }
        // The time (now, unless fixed), written as the language and region usually do.
        let clock = FixedClock(today, time: job.time ?? SystemLocalClock().timeOfDay())
        let timeLocale = job.time == nil ? environmentTimeLocale() : nil
        let sink = PNGSink(size: size, format: .xrgb8888, naming: .latest(job.sheet ?? job.folder))
        // Each demo screen is what the panel shows with its settings and data, as glance run
        // would put it together.
        var composer = FrameComposer(panel: size)
        var screens: [(String, any Screen)] = []
        func add(
            _ name: String, _ show: (inout Configuration) -> Void, chinese inChinese: Bool = false,
            days: [CalendarDay: ActivitySummary] = week, gauges: [Gauge] = [], task: ProgressContent? = nil
        ) throws(OutputFailure) {
            var c = Configuration()
            c.locale = inChinese ? .simplifiedChinese : .english
            c.name = inChinese ? "小林" : "Alex"
            c.clock.format = ClockFormat.usual(for: c.locale ?? .english, environment: timeLocale)
            show(&c)
            let settings: Settings
            do {
                settings = try Settings(c)
            } catch {
                throw OutputFailure("the demo's settings: \(error)", status: Outcome.software)
            }
            let data = FixedData(days: days, gauges: gauges, task: task)
            let panel = try HeadlessPanel.make(
                settings, sink: sink, text: inChinese ? chinese : english, clock: clock, data: data
            ).get()
            composer = panel.composer
            screens.append((name, panel.screen(at: 0)))
        }
        let typicalToday = week.merging([today: typicalDay]) { $1 }
        do throws(OutputFailure) {
            for (i, day) in demoDays.enumerated() {
                let date = today.adding(days: i - (demoDays.count - 1))
                try add(day.name, { $0.show.screen = .rings; $0.show.day = .date(date) })
            }
            try add("rings-zh-Hans", { $0.show.screen = .rings }, chinese: true, days: typicalToday)
            try add("clock", { $0.show.screen = .clock; $0.screens = [.clock, .rings] }, days: typicalToday)
            try add("gauges", { $0.show.screen = .gauges }, gauges: [
                Gauge(style: .accessoryCircular, value: 54, minimum: 30, maximum: 90, title: "CPU", unit: "°"),
                Gauge(style: .accessoryCircularCapacity, value: 72, minimum: 0, maximum: 100, title: "Battery", unit: "%"),
                Gauge(style: .accessoryLinear, value: 0.8, minimum: 0, maximum: 4, title: "Load"),
                Gauge(style: .accessoryLinearCapacity, value: 41, minimum: 0, maximum: 100, title: "Disk", unit: "%"),
            ])
            try add("progress", { $0.show.screen = .progress }, task: ProgressContent(
                amount: .determinate(0.41), style: .circular, label: "Importing health data", cancellable: true,
                cancelNote: "Cancelling leaves your data as it was"))
            // The typical day's Move page, where the ring screen is in pages.
            try add("rings-typical-move", { $0.show.screen = .rings; $0.show.page = 1 }, days: typicalToday)
        } catch {
            console.complain(error.message)
            return error.status
        }
        if let typical = screens.last, typical.1.pageCount(for: composer.pictureSize) <= 1 { screens.removeLast() }
        if let sheet = job.sheet {
            let names = sheetScreens.map { $0 == "rings-big-day" && screens.contains { $0.0 == "rings-typical-move" } ? "rings-typical-move" : $0 }
            let chosen = names.compactMap { name in screens.first { $0.0 == name }?.1 }
            let picture = contactSheet(chosen.map { composer.render($0) }, columns: 3)
            do {
                try PNGFile.write(picture, to: sheet)
            } catch {
                console.complain(error.description)
                return error.outcome
            }
            console.say(sheet)
            return .ok
        }
        for (name, screen) in screens {
            let path = "\(job.folder)/\(name)-\(size).png"
            do {
                try PNGFile.write(composer.render(screen), to: path)
            } catch {
                console.complain(error.description)
                return error.outcome
            }
            console.say(path)
        }
        return Outcome.ok
    }

    /// Pictures of one size side by side, `columns` a row, on the panel's black with a grey gap.
    static func contactSheet(_ pictures: [PixelBuffer], columns: Int) -> PixelBuffer {
        guard let first = pictures.first else { return PixelBuffer(width: 1, height: 1) }
        let gap = max(4, first.width / 40)
        let rows = (pictures.count + columns - 1) / columns
        let sheet = PixelBuffer(
            width: columns * first.width + (columns + 1) * gap, height: rows * first.height + (rows + 1) * gap)
        sheet.fill(Color(hex: 0x2C2C2E))
        for (i, picture) in pictures.enumerated() {
            let x = gap + (i % columns) * (first.width + gap), y = gap + (i / columns) * (first.height + gap)
            let cell = PixelBuffer(
                wrapping: UnsafeMutableRawPointer(sheet.row32(y) + x), width: first.width, height: first.height,
                stride: sheet.stride, format: .xrgb8888)
            cell.copy(from: picture)
        }
        return sheet
    }
}
