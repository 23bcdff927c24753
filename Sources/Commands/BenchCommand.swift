import Activity
import Raster
import Screens
import Text

/// `glance bench`: frames per size, timed against a full-frame fill of the same buffer.
struct BenchCommand {
    var options = ScreenOptions()
    var frames = 200
    var fill = true
    var screens: [String] = []
    var noText = false

    static let defaultSizes = [
        Size(width: 480, height: 480), Size(width: 800, height: 480),
        Size(width: 720, height: 1280), Size(width: 240, height: 240),
    ]

    /// The benchmark day: three rings at 75 %, 50 % and 120 %.
    static let benchSummary = ActivitySummary(
        activeEnergyBurned: .kilocalories(375), activeEnergyBurnedGoal: .kilocalories(500),
        exerciseTime: 15, exerciseTimeGoal: 30, standHours: 14.4, standHoursGoal: 12)

    static let help = """
        Usage: glance bench [--screen S] [--size WxH[,WxH…]] [--frames N] [options]

        Renders N full frames per screen and size (build with -c release) and prints one line each:
          bench screen=rings size=480x480 frames=200 ms_per_frame=… text_ms_per_frame=…
                fill_ms_per_frame=… ratio=…
        ms_per_frame is the whole frame with its labels; text_ms_per_frame is what the labels cost
        (the same frame drawn without text, subtracted); the fill is a full-frame colour fill of
        the same buffer, timed in the same run; ratio = ms_per_frame / fill_ms_per_frame.

          --screen rings|gauge|progress
                                  one screen (default: all three); gauge is a large circular
                                  gauge, progress a circle with label and Cancel hint
          --rings-only            the rings alone (no text): the frame the 3.0 M instruction
                                  target is for
          --size WxH[,WxH…]       sizes (default: 480x480,800x480,720x1280,240x240)
          --frames N              frames per size, 1 to 100000 (default: 200)
          --rotate, --format      as for render
          --move, --move-time, --exercise, --stand, --no-summary
                                  the day, as for render (default: Move 75 %, Exercise 50 %,
                                  Stand 120 %)
          --no-fill               skip the fill timing (for instruction counts under callgrind)
          --no-text               draw each screen without its labels (layout unchanged)
        """

    static func parse(_ argv: [String]) throws(UsageError) -> BenchCommand? {
        var command = BenchCommand()
        var args = Arguments(argv)
        while let option = try args.nextOption() {
            if option == "--help" || option == "-h" { return nil }
            if option == "--screen" {
                let name = try args.value(for: option)
                guard ScreenOptions.screens.contains(name) else {
                    throw UsageError("--screen '\(name)': expected one of \(ScreenOptions.screens.joined(separator: ", "))")
                }
                command.screens.append(name)
                continue
            }
            if try command.options.parse(option, &args) { continue }
            switch option {
            case "--frames":
                command.frames = try Parse.count(try args.value(for: option), option: option, range: 1...100_000)
            case "--no-fill": command.fill = false
            case "--no-text": command.noText = true
            default: throw UsageError("bench: unknown option '\(option)' (see glance bench --help)")
            }
        }
        if command.screens.isEmpty { command.screens = command.options.ringsOnly ? ["rings"] : ScreenOptions.screens }
        try command.options.finish()
        if !command.options.summaryGiven && !command.options.noSummary { command.options.summary = benchSummary }
        if command.options.sizes.isEmpty { command.options.sizes = defaultSizes }
        return command
    }

    /// The options for one benchmark screen: the given ones, plus a typical gauge or progress.
    func options(for screen: String) -> ScreenOptions {
        var o = options
        o.screen = screen
        switch screen {
        case "gauge":
            o.style = o.style ?? "circular"
            if !o.gaugeValueGiven { o.gaugeValue = 72 }
            o.gaugeMin = 30
            o.gaugeMax = 90
            if o.title.isEmpty { o.title = "CPU temperature" }
            if o.unit.isEmpty { o.unit = "°" }
        case "progress":
            o.style = o.style ?? "circular"
            if o.fraction == nil && !o.indeterminate { o.fraction = 0.41 }
            if o.label.isEmpty { o.label = "Importing health data" }
            o.cancellable = true
        default:
            o.style = nil
            if o.name.isEmpty { o.name = "Karan" }
        }
        return o
    }

    func run() -> Int32 {
        let clock = ContinuousClock()
        let text: FreeTypeTextRenderer?
        switch options.loadText(needed: screens.contains { options(for: $0).needsText }) {
        case .success(let t): text = t
        case .failure(let status): return status.code
        }
        for name in screens {
            for size in options.sizes {
                if !bench(name, size, text: text, clock: clock) { return ExitCode.software }
            }
        }
        return ExitCode.ok
    }

    /// One screen at one size; prints its line.
    func bench(_ name: String, _ size: Size, text: FreeTypeTextRenderer?, clock: ContinuousClock) -> Bool {
        let options = self.options(for: name)
        let composer = FrameComposer(panel: size, rotation: options.rotation, format: options.format)
        let target = PixelBuffer(width: size.width, height: size.height, format: options.format)
        let withText = options.needsText && !noText
        let screen = options.makeScreen(text: text, drawsText: withText)
        let bare = options.makeScreen(text: text, drawsText: false)
        // Alternate the two in rounds and keep each one's fastest round: the machine is shared
        // and noisy, and the difference of two times is what the labels cost.
        let rounds = withText ? min(5, frames) : 1
        var best = Double.infinity, bestBare = Double.infinity
        var done = 0
        for round in 0..<rounds {
            let n = frames / rounds + (round < frames % rounds ? 1 : 0)
            let start = done
            let t = clock.measure {
                for i in start..<(start + n) { composer.compose(screen, into: target, at: Double(i) / 60) }
            }
            best = min(best, Self.milliseconds(t) / Double(n))
            if withText {
                let b = clock.measure {
                    for i in start..<(start + n) { composer.compose(bare, into: target, at: Double(i) / 60) }
                }
                bestBare = min(bestBare, Self.milliseconds(b) / Double(n))
            }
            done += n
        }
        var line = "bench screen=\(name)\(options.ringsOnly && name == "rings" ? " rings_only=1" : "")"
            + "\(noText ? " text=0" : "") size=\(size) frames=\(frames)"
        let renderMs = best
        line += " ms_per_frame=\(Self.format(renderMs))"
        if withText {
            line += " text_ms_per_frame=\(Self.format(max(0, renderMs - bestBare)))"
        }
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
        return true
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
