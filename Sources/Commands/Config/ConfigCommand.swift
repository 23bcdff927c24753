import DeviceLogic
import Activity
import Runtime
import CLI
import Configuration
import Raster
import Store
import Platform
import ControlSocket
import ConfigurationFile
import HelperCommands

/// `glance config`: its declaration; the work is `ConfigurationFile.check` and the settings page.
extension Glance {
    struct Config {
        var file: String?
        var settings = false
    }

    static let config = CommandSpec<Config>(
        "config", summary: "check the configuration file, or list every setting",
        usage: ["config check [--config FILE]", "config settings"],
        about: ConfigurationFile.about,
        groups: [OptionGroup("", [PanelCommands.configOption.lifted(\.file)])],
        operands: Operands(
            "check|settings", verbs: [.init("check", ["--config"]), .init("settings") { _, line in line.settings = true }]),
        exits: [
            ExitStatusNote(.ok, "valid (check), or listed (settings)"),
            ExitStatusNote(.noInput, "the named file cannot be read"),
            ExitStatusNote(.config, "invalid (the app refuses to start with it)"),
        ])
}
