import App
import CLI
import Configuration
import Controls
import Raster
import Platform
import ConfigurationFile
import HelperCommands

/// `glance render`, `bench`, `demo`: screens drawn headlessly.
enum PictureCommands {
    struct Render {
        var layer = Layer()
        var config: String?
        var sizes: [Size] = []
        var output: String?
        var frames: Int?
        var fps = 30.0
        var explain = false
    }

    static let render = CommandSpec<Render>(
        "render", summary: "draw a screen into a PNG file (headless, same renderer as the panel)",
        usage: ["render --size WxH --output FILE.png [options]"],
        about: "Draws a screen exactly as the panel would show it and writes it as a PNG.",
        groups: [
            OptionGroup(
                "Picture",
                [
                    .value("--size", as: Value.size, help: "panel size in pixels, 1 to 8192 each side (required)") {
                        $0.sizes.append($1)
                    },
                    .value("--output", "-o", as: Value.file("FILE.png", extensions: ["png"]),
                        help: "where to write (required but with --explain); nothing is written on any error", to: \.output),
                    .flag(
                        "--explain",
                        help: "print what the picture shows as JSON: every text run (the string as drawn, what it says whole "
                            + "where it was shortened, its size in pixels, its box, its element), the rings, arcs and shapes", sets: \.explain),
                ] + Configuration.options(["--rotate", "--format"], into: \Render.layer)
                    + [
                        CommonOptions.database(
                            \Render.layer,
                            help: "the day and its week (and the gauges, with --config) from this store, as glance run shows "
                                + "them, instead of --move, --exercise, --stand")
                    ]),
        ] + ScreenOptions.groups(\Render.layer, config: \Render.config)
            + [
                OptionGroup(
                    "Animation",
                    [
                        .value(
                            "--frames", as: Value.count(1...10_000),
                            help: "write N frames from --time on, --fps a second, as FILE-0001.png, FILE-0002.png, …", to: \.frames),
                        .value("--fps", as: Value.fps, help: "frames per second", default: "30", to: \.fps),
                        Configuration.setting(option: "--intro")!.option(
                            \Render.layer,
                            help: "the ring screen as glance run --intro draws it --time SECONDS after its first frame "
                                + "(the rings filling up; whole from 0.9 s on)"),
                    ])
            ],
        epilogue: """
            Example:
              glance render --size 480x480 --move 350/500 --exercise 20/30 --stand 8/12 --output rings.png
            """,
        exits: [
            ExitStatusNote(.ok, "written"), ExitStatusNote(.usage, "bad arguments or unwritable output"),
            ExitStatusNote(.dataError, "--db is not a Glance store"), ExitStatusNote(.noInput, "--db: no such store"),
            ExitStatusNote(.unavailable, "a font is missing (the message names the Debian package)"),
            ExitStatusNote(.cannotCreate, "the file could not be written"),
        ],
        finish: { (line) throws(UsageError) in
            let shown = try Configuration().applying(line.layer)
            if shown.show.screen == .progress && !shown.show.progressGiven {
                throw UsageError("progress: give --fraction F (0 to 1) or --indeterminate")
            }
            guard line.sizes.count == 1 else {
                throw UsageError(
                    line.sizes.isEmpty ? "render: --size WxH is required" : "render: give one --size (bench takes several)")
            }
            if line.explain && line.frames != nil { throw UsageError("--explain describes one picture: drop --frames") }
            guard let output = line.output else {
                if line.explain { return }
                throw UsageError("render: --output FILE.png is required (or --explain)")
            }
            if let error = outputUsageError(output, option: "--output") { throw error }
            if shown.run.intro, let screen = shown.show.screen, screen != .rings {
                throw UsageError("--intro draws the ring screen filling up: drop --screen \(screen.rawValue)")
            }
        })

    static func renderMain(_ line: Render) -> Outcome {
        ConfigurationFile.withSettings(line.config, commandLine: line.layer, console: console) {
            var job = Pictures.Render(
                settings: $0, size: line.sizes[0], output: line.output ?? "", frames: line.frames, fps: line.fps,
                fromStore: line.layer.given.contains("database"))
            job.explain = line.explain
            return Pictures.render(job, console: console)
        }
    }

    // MARK: glance bench

    struct Bench {
        var layer = Layer()
        var run = Benchmark()
    }

    static let bench = CommandSpec<Bench>(
        "bench", summary: "time full frames against a full-frame fill",
        usage: ["bench [--screen S] [--size WxH[,WxH…]] [--frames N] [options]"],
        about: Benchmark.about,
        groups: [
            OptionGroup(
                "Benchmark",
                [
                    .value("--screen", as: Value.screenKind, help: "one screen (repeatable)", default: "rings, gauges, progress") {
                        $0.run.screens.append($1)
                    },
                    .value("--size", as: Value.sizes, help: "sizes", default: "480x480,800x480,720x1280,240x240") {
                        $0.run.sizes += $1
                    },
                    .value("--frames", as: Value.count(1...100_000), help: "frames per size", default: "200", to: \.run.frames),
                    .flag("--no-fill",
                        help: "skip the fill timing (for instruction counts under callgrind)", sets: \.run.fill, to: false),
                    .flag("--no-text", help: "draw each screen without its labels (layout unchanged)", sets: \.run.noText),
                    .flag("--cold",
                        help: "draw every frame into a new buffer, nothing kept from the frames before", sets: \.run.cold),
                    .flag("--animated", help: "frames of each animation through the damage path", sets: \.run.animated),
                    .value("--animation", as: Value.choice(Benchmark.Animation.self), help: "one animation (repeatable)",
                           default: "all four") { $0.run.animations.append($1) },
                    .value("--fps", as: Value.count(1...240), help: "animation frames per second",
                           default: "30; the intro 60") { $0.run.fps = Double($1) },
                    .value("--buffers", as: Value.count(1...2),
                        help: "buffers drawn into in turn", default: "2", to: \.run.buffers),
                    .flag("--whole", help: "draw every animation frame whole (the reference)", sets: \.run.whole),
                    .flag("--in-place",
                        help: "draw into the buffers themselves, not into a picture copied onto them", sets: \.run.shadow, to: false),
                ] + Configuration.options(["--rotate", "--format"], into: \Bench.layer))
        ] + Array(ScreenOptions.groups(\Bench.layer, config: nil).map { group in
            // The screen is --screen's above (several may be given).
            OptionGroup(group.title, note: group.note, group.options.filter { $0.name != "--screen" })
        }),
        exits: [ExitStatusNote(.ok, "measured"), ExitStatusNote(.unavailable, "a font is missing")],
        finish: { (line) throws(UsageError) in
            _ = try Configuration().applying(line.layer)
        })

    static func benchMain(_ line: Bench) -> Outcome {
        var bench = line.run
        line.layer.apply(to: &bench.configuration)
        return bench.run(console: console)
    }

    // MARK: glance demo

    static let demo = CommandSpec<Pictures.Demo>(
        "demo", summary: "draw the demo screens into a folder of PNG files, or the README's contact sheet",
        usage: ["demo [--output FOLDER] [--size WxH] [--today D] [--time HH:MM]", "demo --sheet FILE.png [--size WxH] …"],
        about: Pictures.demoAbout,
        groups: [
            OptionGroup(
                "",
                [
                    .value("--output", "-o", as: Value.folder, help: "where to write", default: "out", to: \.folder),
                    .value("--size", as: Value.size, help: "picture size", default: "800x480", to: \.size),
                    .value("--today", as: Value.day, help: "the date taken as today", default: "the system's", to: \.today),
                    .value("--time", as: Value.clockTime,
                        help: "the time the clock shows, HH:MM", default: "the system's", to: \.time),
                    .value("--sheet", as: Value.output("FILE.png", extensions: ["png"]),
                        help: "the contact sheet instead", to: \.sheet),
                ])
        ],
        exits: [
            ExitStatusNote(.ok, "written"), ExitStatusNote(.unavailable, "a font is missing"),
            ExitStatusNote(.cannotCreate, "FOLDER or a file in it cannot be created"),
        ])
}
