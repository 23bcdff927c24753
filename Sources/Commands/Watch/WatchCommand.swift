import Runtime
import CLI
import Configuration
import ConfigurationFile
import Controls
import HelperCommands
import Platform
import Raster

/// `glance watch`: its declaration; the work is `WatchApp`, beside it.
extension PanelCommands {
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
        exits: WatchApp.outcomes,
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
}
