import Activity
import ImageFile
import Raster
import Screens

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `glance demo`: the demo screens, headlessly, into a folder of PNG files.
struct DemoCommand {
    var folder = "out"
    var size = Size(width: 480, height: 480)

    static let help = """
        Usage: glance demo [--output FOLDER] [--size WxH]

        Draws the demo screens (the rings through a range of days) as PNG files into FOLDER
        (default: out), creating it if needed, and prints each file's name.
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
        let composer = FrameComposer(panel: size)
        for day in Self.days {
            let path = "\(folder)/\(day.name)-\(size).png"
            do {
                try PNGFile.write(composer.render(RingScreen(summary: day.summary)), to: path)
            } catch {
                complain(error.description)
                return ExitCode.cannotCreate
            }
            print(path)
        }
        return ExitCode.ok
    }
}
