import Runtime
import CLI
import Configuration
import Controls
import Raster
import Platform
import ConfigurationFile
import HelperCommands

/// `glance bench`: its declaration; the work is `Benchmark`, beside it.
extension PictureCommands {
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
                    .flag(
                        "--wire",
                        help: "the SPI wire's budget: each scene's bytes a frame (as a MIPI DBI driver sends its damage) on 240x240, "
                            + "320x240 and round 240 RGB565 panels, the frame rates and shares of the wire they make", sets: \.run.wire),
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
        ] + Array(ScreenOptions.groups(\Bench.layer).map { group in
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
}
