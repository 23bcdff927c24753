import App
import CLI
import Configuration
import ConfigurationFile
import Controls
import HelperCommands
import Platform
import Raster

/// `glance run`, `glance watch`, `glance devices`: the panel, the panel as a picture, and what
/// there is to show it on.
enum PanelCommands {
    /// `glance run`'s command line: the settings layer it makes, and the configuration file.
    struct Run {
        var layer = Layer()
        var config: String?
    }

    static let configOption = CommonOptions.config

    static let run = CommandSpec<Run>(
        "run", summary: "show the app on the display (DRM/KMS) until SIGTERM",
        usage: ["run [options]"],
        about: PanelApp.about,
        groups: [
            OptionGroup(
                "Display",
                Configuration.options(
                    ["--card", "--connector", "--mode", "--rotate", "--format", "--legacy", "--single-buffer", "--intro",
                     "--report-startup", "--report-frames"], into: \Run.layer)
                    + [
                        .refused("--size", message: "run: --size is for glance render; the display's mode sets the size (--mode WxH)"),
                        .refused("--output", "-o", message: "run: --output is for glance render; the display's mode sets the size (--mode WxH)"),
                        .refused("--frames", message: "run: --frames is for glance render; the display's mode sets the size (--mode WxH)"),
                        .refused("--fps", message: "run: --fps is for glance render; the display's mode sets the size (--mode WxH)"),
                    ]),
        ] + ScreenOptions.groups(\Run.layer, config: \Run.config) + [
            OptionGroup(
                "Data: the store (days, metrics, tasks), redrawn whenever it changes",
                [
                    CommonOptions.database(
                        \Run.layer,
                        help: CommonOptions.storeHelp + "; a day given with --move … or a gauge or progress given on the command line is shown instead")
                ]),
            OptionGroup(
                "Input and behaviour (defaults from the configuration file)",
                Configuration.options(
                    ["--no-input", "--no-grab", "--input-dir", "--socket", "--dim-after", "--blank-after"], into: \Run.layer)),
        ],
        epilogue: KeyMap.defaultsHelp + "\n\n`glance devices` lists the cards, connectors, modes and formats to choose from.",
        exits: Outcome.notes(PanelApp.outcomes),
        finish: { _ in })

    static func runMain(_ line: Run) -> Outcome {
        let started = monotonicNow()
        return ConfigurationFile.withSettings(line.config, commandLine: line.layer, console: console) {
            PanelApp.run($0, started: started, configuration: line.config, commandLine: line.layer, log: console.complain, say: console.say)
        }
    }

    // MARK: glance watch

    struct Watch {
        var layer = Layer()
        var config: String?
        var output = ""
        var size = Size(width: 480, height: 480)
    }

    static let watch = CommandSpec<Watch>(
        "watch", summary: "draw what the panel would show into a PNG, again whenever the store changes",
        usage: ["watch --render-to FILE.png [--size WxH] [--date D] [--db PATH] [options]"],
        about: WatchApp.about,
        groups: [
            OptionGroup(
                "Picture",
                [
                    .value("--render-to", "--output", "-o", as: Value.output("FILE.png", extensions: ["png"]),
                        help: "where to draw (replaced whole each time)", to: \.output),
                    .value("--size", as: Value.size, help: "picture size", default: "480x480", to: \.size),
                ] + Configuration.options(["--rotate", "--format"], into: \Watch.layer)),
        ] + ScreenOptions.groups(\Watch.layer, config: \Watch.config) + [
            OptionGroup("Data", [CommonOptions.database(\Watch.layer)]),
            // Only when given: glance run's own socket is left to it.
            OptionGroup("Control", Configuration.options(["--socket"], into: \Watch.layer)),
        ],
        exits: Outcome.notes(WatchApp.outcomes),
        finish: { (watch) throws(UsageError) in
            guard !watch.output.isEmpty else { throw UsageError("watch: --render-to FILE.png is required") }
        })

    static func watchMain(_ line: Watch) -> Outcome {
        var layer = line.layer
        try? layer.set(option: "--no-input")
        return ConfigurationFile.withSettings(line.config, commandLine: layer, console: console) {
            WatchApp.run(
                $0, size: line.size, output: line.output, configuration: line.config, commandLine: layer, log: console.complain,
                say: console.say)
        }
    }

    // MARK: glance screenshot

    struct Shot {
        var output: String?
        var socket: String?
    }

    static let screenshot = CommandSpec<Shot>(
        "screenshot", summary: "a picture of what the running app shows on the panel, as a PNG",
        usage: ["screenshot --output FILE.png [--socket PATH]"],
        about: Screenshot.about,
        groups: [
            OptionGroup(
                "",
                [
                    .value("--output", "-o", as: Value.output("FILE.png", extensions: ["png"]),
                        help: "where to write the picture (required)", to: \.output),
                    .value(
                        "--socket", as: Value.file("PATH"), help: "the running app's control socket",
                        default: "$XDG_RUNTIME_DIR/glance/glance.sock when there is one (your own glance run), else /run/glance/glance.sock (the service)", to: \.socket),
                ])
        ],
        exits: Outcome.notes(Screenshot.outcomes),
        finish: { (shot) throws(UsageError) in
            guard shot.output != nil else { throw UsageError("screenshot: --output FILE.png is required") }
        })

    static func screenshotMain(_ shot: Shot) -> Outcome {
        Screenshot.run(output: shot.output ?? "", socket: shot.socket, log: console.complain, say: console.say)
    }

    // MARK: glance devices

    static let devices = CommandSpec<Bool>(
        "devices", summary: "list display cards, connectors, modes, planes and input devices",
        usage: ["devices [--json]"],
        about: DeviceList.about,
        groups: [
            OptionGroup(
                "",
                [
                    .flag(
                        "--json",
                        help: "one JSON document for scripts: {\"cards\": [{\"path\", \"driver\", \"dumbBuffers\", \"atomic\", "
                            + "\"connectors\", \"crtcs\", \"planes\", \"chosen\"}], \"inputs\": [{\"path\", \"name\", \"kinds\", "
                            + "\"keys\", \"multiTouchSlots\", \"summary\"}], \"problems\": [{\"path\", \"problem\"}]}"
                    ) { $0 = true }
                ])
        ],
        exits: [ExitStatusNote(.ok, "listed"), ExitStatusNote(.unavailable, "no DRM card (input devices are still listed)")])
}
