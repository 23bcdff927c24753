import Runtime
import CLI
import Configuration
import ConfigurationFile
import Controls
import HelperCommands
import Platform
import Raster

/// `glance devices`: its declaration; the work is `DeviceList` (and `ScriptJSON.devices`), beside it.
extension PanelCommands {
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
