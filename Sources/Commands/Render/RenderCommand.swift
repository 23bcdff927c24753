import Runtime
import CLI
import Configuration
import Controls
import Raster
import Platform
import ConfigurationFile
import HelperCommands

/// `glance render`: its declaration; the work is `Pictures.render`, beside it.
extension PictureCommands {
    struct Render {
        var layer = Layer()
        var config: String?
        var sizes: [Size] = []
        var output: String?
        var frames: Int?
        var fps = 30.0
        var explain = false
        /// A message over the screen, as the panel shows one (`glance message`).
        var message: String?
        /// Whose day from the store (`--person NAME|ID`, with `--db`).
        var person: String?
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
                    .value(
                        "--message", as: Value.text,
                        help: "draw this message in place of the screen, as glance message and Home Assistant's notify show "
                            + "one on the panel (the screen's options still say what is under it)", to: \.message),
                    .flag(
                        "--explain",
                        help: "print what the picture shows as JSON: every text run (the string as drawn, what it says whole "
                            + "where it was shortened, its size in pixels, its box, its element), the rings, arcs and shapes", sets: \.explain),
                ] + Configuration.options(["--rotate", "--format"], into: \Render.layer)
                    + [
                        CommonOptions.database(
                            \Render.layer,
                            help: "the day and its week (and the gauges, with --config) from this store, as glance run shows "
                                + "them, instead of --move, --exercise, --stand"),
                        CommonOptions.person(
                            \Render.person,
                            help: "with --db: whose day and week (a person's name or id; default: person 1, the store's first); "
                                + "the ring screen says their name unless --name is given"),
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
            // With --db the store's running task is the progress drawn.
            if shown.show.screen == .progress && !shown.show.progressGiven && !line.layer.given.contains("database") {
                throw UsageError("progress: give --fraction F (0 to 1) or --indeterminate")
            }
            guard line.sizes.count == 1 else {
                throw UsageError(
                    line.sizes.isEmpty ? "render: --size WxH is required" : "render: give one --size (bench takes several)")
            }
            if line.explain && line.frames != nil { throw UsageError("--explain describes one picture: drop --frames") }
            if line.person != nil && !line.layer.given.contains("database") {
                throw UsageError("--person draws that person's day from the store: give --db PATH too")
            }
            if let message = line.message, case .failure(let refusal) = PanelMessage.check(Array(message.utf8)) {
                throw UsageError("--" + refusal.reason)
            }
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
            job.message = line.message
            job.person = line.person
            job.nameFromPerson = !line.layer.given.contains("name")
            return Pictures.render(job, console: console)
        }
    }
}
