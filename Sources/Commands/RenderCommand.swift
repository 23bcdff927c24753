import Activity
import ImageFile
import Raster
import Screens
import Store
import Text

/// `glance render`: one screen into a PNG file, headlessly, through the same renderer as the panel.
struct RenderCommand {
    var options = ScreenOptions()
    var output: String?
    var frames = 1
    var fps = 30.0
    var framesGiven = false
    var store = StoreSelection()

    static let help = """
        Usage: glance render --size WxH --output FILE.png [options]

        Draws a screen exactly as the panel would show it and writes it as a PNG.

        Picture:
          --screen rings|gauge|progress
                                  the screen to draw (default: rings)
          --size WxH              panel size in pixels, 1 to 8192 each side (required)
          --rotate 0|90|180|270   the panel is mounted turned clockwise by this much; the picture
                                  is drawn upright for the viewer and turned onto the panel
          --format xrgb8888|rgb565
                                  the panel's pixel format; rgb565 is dithered (default: xrgb8888)
          --output FILE.png       where to write (required); nothing is written on any error

        The day (rings screen). VALUE/GOAL, either side may be - for missing; an omitted ring
        quantity is missing, and a ring whose value or goal is missing is empty:
          --move V/G              active energy and goal in kcal; a unit may follow a number:
                                  kcal, Cal (= kcal) or kJ, e.g. 1460kJ/2090kJ
          --move-time V/G         move minutes and goal; sets move-time mode
          --exercise V/G          exercise minutes and goal
          --stand V/G             stand hours and goal
          --no-summary            a day with no summary at all (every ring empty)
          --rings-only            the rings alone, filling the picture (no text)

        Around the rings:
          --name NAME             whose rings they are
          --date YYYY-MM-DD       the day shown (default: today)
          --today YYYY-MM-DD      the date taken as today (default: the system's local date)
          --locale en|zh-Hans     language of every label and date (default: from LC_ALL,
                                  LC_MESSAGES or LANG; zh_CN… gives zh-Hans)
          --shape rectangle|round a round panel keeps everything inside its inscribed circle
          --font FILE             a font file for all text instead of Inter (found by fontconfig)
          --cjk-font FILE         a font file for Chinese instead of the one fontconfig finds
          --db PATH               the day and its week from this store (as glance run shows
                                  them) instead of --move, --exercise, --stand

        Values and goals must be numbers of 0 or more. A goal of 0 carries no progress.

        Gauge screen (--screen gauge):
          --style STYLE           circular (default), circularCapacity, linear, linearCapacity,
                                  accessoryCircular, accessoryCircularCapacity, accessoryLinear,
                                  accessoryLinearCapacity
          --value V               the value; - or nan for none (shown as —); outside the range it
                                  pins to the end and the real number is shown
          --min A, --max B        the range (default 0 and 100)
          --title T, --unit U     e.g. --title CPU --unit °
          --tint C1,C2,…          colours along the path, low to high, as #RRGGBB

        Progress screen (--screen progress):
          --style bar|circular|toolbar
                                  bar (default), circle, or a thin bar at the top without track
          --fraction F            work done, 0 to 1; or
          --indeterminate         the amount of work is not known (sliding bar, spinner)
          --label TEXT            what is happening
          --cancellable           show the Cancel hint; --cancel-note TEXT says what stopping costs
          --time SECONDS          the animation clock (spinner and sliding bar are functions of it)

        Animation:
          --frames N --fps F      write N frames from --time on, F per second (default 30), as
                                  FILE-0001.png, FILE-0002.png, …
        Exit status: 0 written, 64 bad arguments or unwritable output, 69 a font is missing
        (the message names the Debian package); nothing is written on any error.

        Example:
          glance render --size 480x480 --move 350/500 --exercise 20/30 --stand 8/12 --output rings.png
        """

    /// `out.png` → `out-0001.png`.
    static func numbered(_ path: String, _ n: Int) -> String {
        let digits = String(n)
        let number = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        if let dot = path.lastIndex(of: "."), !path[dot...].contains("/") {
            return String(path[..<dot]) + "-" + number + String(path[dot...])
        }
        return path + "-" + number
    }

    static func parse(_ argv: [String]) throws(UsageError) -> RenderCommand? {
        var command = RenderCommand()
        var args = Arguments(argv)
        while let option = try args.nextOption() {
            if option == "--help" || option == "-h" { return nil }
            if try command.options.parse(option, &args) { continue }
            switch option {
            case "--output", "-o": command.output = try args.value(for: option)
            case "--db": _ = try command.store.parse(option, &args)
            case "--frames":
                command.frames = try Parse.count(try args.value(for: option), option: option, range: 1...10_000)
                command.framesGiven = true
            case "--fps":
                let text = try args.value(for: option)
                let f = try Parse.real(text, option: option)
                guard f > 0 && f <= 1000 else { throw UsageError("--fps '\(text)': expected frames per second, above 0 and up to 1000") }
                command.fps = f
            default: throw UsageError("render: unknown option '\(option)' (see glance render --help)")
            }
        }
        try command.options.finish()
        guard command.options.sizes.count == 1 else {
            throw UsageError(command.options.sizes.isEmpty
                ? "render: --size WxH is required" : "render: give one --size (bench takes several)")
        }
        guard let output = command.output else { throw UsageError("render: --output FILE.png is required") }
        if let problem = isWritableOutput(output) {
            throw UsageError("--output '\(output)': cannot write there: \(problem)")
        }
        return command
    }

    func run() -> Int32 {
        let size = options.sizes[0]
        let composer = FrameComposer(panel: size, rotation: options.rotation, format: options.format)
        let text: FreeTypeTextRenderer?
        switch options.loadText() {
        case .success(let t): text = t
        case .failure(let status): return status.code
        }
        var screen = options.makeScreen(text: text)
        if store.path != nil {
            // The day and its week from the store, as the panel shows them.
            guard options.screen == "rings", !options.summaryGiven, !options.noSummary else {
                complain("--db draws the ring screen's day from the store: drop --move/--exercise/--stand/--no-summary and --screen")
                return ExitCode.usage
            }
            switch store.open(create: false) {
            case .failure(let status): return status.code
            case .success(let db):
                do {
                    screen = try options.ringScreen(from: db, text: text)
                } catch {
                    return fail(error)
                }
            }
        }
        for i in 0..<frames {
            let time = options.time + Double(i) / fps
            let frame = composer.render(screen, at: time)
            let path = framesGiven ? Self.numbered(output!, i + 1) : output!
            do {
                try PNGFile.write(frame, to: path)
            } catch {
                complain("--output '\(path)': \(error.reason)")
                return ExitCode.usage
            }
            if framesGiven { print(path) }
        }
        return ExitCode.ok
    }
}
