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

/// `glance import`, `serve` and `mqtt`: declared in HelperCommands, run in their own executables.
extension Glance {
    /// How glance serve and glance mqtt end when their settings are refused as glance run would
    /// refuse them (nil: not refused). Their executables read the configuration without its key
    /// names, which only libevdev (the panel's side) knows; glance asks here first, so a file
    /// with a key name glance run refuses stops them as before (78), told once, by glance.
    static func settingsRefused(_ file: String?, _ layer: Layer) -> Outcome? {
        switch ConfigurationFile.settings(file, commandLine: layer, console: console) {
        case .success: nil
        case .failure(let status): status.code
        }
    }
}

extension CommandSpec where Target: Sendable {
    /// A command that runs in its own executable: parsed here (help, bad arguments), `check`ed
    /// (nil: go on; else how it ends), then the executable is run with the same arguments.
    func entry(_ initial: Target, runs helper: Helper, check: @escaping @Sendable (Target) -> Outcome? = { _ in nil }) -> CommandEntry {
        entry(initial) { target, argv in check(target) ?? helper.exec(argv, console: console) }
    }
}
