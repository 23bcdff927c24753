import Activity
import ImageFile
import Raster
import Screens
import Text

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `glance demo`: the demo screens, headlessly, into a folder of PNG files.
struct DemoCommand {
    var folder = "out"
    var size = Size(width: 800, height: 480)

    static let help = """
        Usage: glance demo [--output FOLDER] [--size WxH]

        Draws the demo screens as PNG files into FOLDER (default: out), creating it if needed,
        and prints each file's name: the ring screen through a range of days (with the week
        strip), in English and Simplified Chinese, a grid of gauges and the progress screen.
        """

    /// The demo days: name and summary.
    static let days: [(name: String, summary: ActivitySummary?)] = [
        ("rings-typical", BenchCommand.benchSummary),
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

    static func parse(_ argv: [String]) throws(UsageError) -> DemoCommand? {
        var command = DemoCommand()
        var args = Arguments(argv)
        while let option = try args.nextOption() {
            switch option {
            case "--help", "-h": return nil
            case "--output", "-o": command.folder = try args.value(for: option)
            case "--size": command.size = try Parse.size(try args.value(for: option), option: option)
            default: throw UsageError("demo: unknown option '\(option)' (see glance demo --help)")
            }
        }
        return command
    }

    func run() -> Int32 {
        if mkdir(folder, 0o755) != 0 && errno != EEXIST {
            complain("--output '\(folder)': cannot create the folder: \(String(cString: strerror(errno)))")
            return ExitCode.cannotCreate
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
        let today = SystemClock.today()
        // The demo week: the days above, ending today.
        var week: [CalendarDay: ActivitySummary] = [:]
        for (i, day) in Self.days.enumerated() where day.summary != nil {
            week[today.adding(days: i - (Self.days.count - 1))] = day.summary
        }
        var screens: [(String, any Screen)] = []
        for (i, day) in Self.days.enumerated() {
            let date = today.adding(days: i - (Self.days.count - 1))
            let content = RingScreenContent(name: "Alex", day: date, today: today, summary: day.summary, week: week)
            screens.append((day.name, RingScreen(content: content, context: ScreenContext(text: english))))
        }
        let chineseDay = RingScreenContent(name: "小林", day: today, today: today, summary: Self.days[0].summary, week: week)
        screens.append(("rings-zh-Hans", RingScreen(content: chineseDay, context: ScreenContext(text: chinese, locale: .simplifiedChinese))))
        screens.append(("gauges", GaugeScreen(gauges: [
            Gauge(style: .accessoryCircular, value: 54, minimum: 30, maximum: 90, title: "CPU", unit: "°"),
            Gauge(style: .accessoryCircularCapacity, value: 72, minimum: 0, maximum: 100, unit: "%"),
            Gauge(style: .accessoryLinear, value: 0.8, minimum: 0, maximum: 4, title: "Load"),
            Gauge(style: .accessoryLinearCapacity, value: 41, minimum: 0, maximum: 100, title: "Disk", unit: "%"),
        ], context: ScreenContext(text: english))))
        screens.append(("progress", ProgressScreen(content: ProgressContent(
            amount: .determinate(0.41), style: .circular, label: "Importing health data", cancellable: true,
            cancelNote: "Cancelling leaves your data as it was"), context: ScreenContext(text: english))))
        for (name, screen) in screens {
            let path = "\(folder)/\(name)-\(size).png"
            do {
                try PNGFile.write(composer.render(screen), to: path)
            } catch {
                complain(error.description)
                return ExitCode.cannotCreate
            }
            print(path)
        }
        return ExitCode.ok
    }
}
