import Runtime
import CLI
import Configuration
import ConfigurationFile
import Controls
import HelperCommands
import Platform
import Raster

/// `glance screenshot`: its declaration; the work is `Screenshot`, beside it.
extension PanelCommands {
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
        exits: Screenshot.outcomes,
        finish: { (shot) throws(UsageError) in
            guard shot.output != nil else { throw UsageError("screenshot: --output FILE.png is required") }
        })

    static func screenshotMain(_ shot: Shot) -> Outcome {
        Screenshot.run(output: shot.output ?? "", socket: shot.socket, log: console.complain, say: console.say)
    }
}
