import Activity
import Raster
import Screens

/// `glance bench`: frames per size, timed against a full-frame fill of the same buffer.
struct BenchCommand {
    var options = ScreenOptions()
    var frames = 200
    var fill = true

    static let defaultSizes = [
        Size(width: 480, height: 480), Size(width: 800, height: 480),
        Size(width: 720, height: 1280), Size(width: 240, height: 240),
    ]

    /// The benchmark day: three rings at 75 %, 50 % and 120 %.
    static let benchSummary = ActivitySummary(
        activeEnergyBurned: .kilocalories(375), activeEnergyBurnedGoal: .kilocalories(500),
        exerciseTime: 15, exerciseTimeGoal: 30, standHours: 14.4, standHoursGoal: 12)

    static let help = """
        Usage: glance bench [--screen rings] [--size WxH[,WxH…]] [--frames N] [options]

        Renders N full frames per size (build with -c release) and prints one line per size:
          bench screen=rings size=480x480 frames=200 ms_per_frame=… fill_ms_per_frame=… ratio=…
        where the fill is a full-frame colour fill of the same buffer, timed in the same run,
        and ratio = ms_per_frame / fill_ms_per_frame.

          --screen rings          the screen (default: rings)
          --size WxH[,WxH…]       sizes (default: 480x480,800x480,720x1280,240x240)
          --frames N              frames per size, 1 to 100000 (default: 200)
          --rotate, --format      as for render
          --move, --move-time, --exercise, --stand, --no-summary
                                  the day, as for render (default: Move 75 %, Exercise 50 %,
                                  Stand 120 %)
          --no-fill               skip the fill timing (for instruction counts under callgrind)
        """

    static func parse(_ argv: [String]) throws(UsageError) -> BenchCommand? {
        var command = BenchCommand()
        var args = Arguments(argv)
        while let option = try args.nextOption() {
            if option == "--help" || option == "-h" { return nil }
            if try command.options.parse(option, &args) { continue }
            switch option {
            case "--frames":
                command.frames = try Parse.count(try args.value(for: option), option: option, range: 1...100_000)
            case "--no-fill": command.fill = false
            default: throw UsageError("bench: unknown option '\(option)' (see glance bench --help)")
            }
        }
        try command.options.finish()
        if !command.options.summaryGiven && !command.options.noSummary { command.options.summary = benchSummary }
        if command.options.sizes.isEmpty { command.options.sizes = defaultSizes }
        return command
    }

    func run() -> Int32 {
        let clock = ContinuousClock()
        for size in options.sizes {
            let composer = FrameComposer(panel: size, rotation: options.rotation, format: options.format)
            let target = PixelBuffer(width: size.width, height: size.height, format: options.format)
            let screen = options.makeScreen(text: nil)
            let render = clock.measure {
                for _ in 0..<frames { composer.compose(screen, into: target) }
            }
            var line = "bench screen=\(options.screen) size=\(size) frames=\(frames)"
            let renderMs = Self.milliseconds(render) / Double(frames)
            line += " ms_per_frame=\(Self.format(renderMs))"
            if fill {
                let colors = [Color(hex: 0x102030), Color(hex: 0x203040)]
                let filled = clock.measure {
                    for i in 0..<frames { target.fill(colors[i & 1]) }
                }
                let fillMs = Self.milliseconds(filled) / Double(frames)
                line += " fill_ms_per_frame=\(Self.format(fillMs)) ratio=\(Self.format(renderMs / max(fillMs, 1e-9)))"
            }
            if options.rotation != .none || options.format != .xrgb8888 {
                line += " rotate=\(options.rotation.degrees) format=\(options.format.rawValue)"
            }
            print(line)
        }
        return ExitCode.ok
    }

    static func milliseconds(_ d: Duration) -> Double {
        let c = d.components
        return Double(c.seconds) * 1000 + Double(c.attoseconds) / 1e15
    }

    /// Three significant decimals, without Foundation.
    static func format(_ x: Double) -> String {
        guard x.isFinite else { return "\(x)" }
        let scaled = (x * 1000).rounded()
        let whole = Int(scaled / 1000)
        let frac = Int(abs(scaled).truncatingRemainder(dividingBy: 1000))
        let f = String(frac)
        return "\(whole).\(String(repeating: "0", count: 3 - f.count))\(f)"
    }
}
