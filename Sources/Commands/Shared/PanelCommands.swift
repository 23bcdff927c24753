import Runtime
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
    static let configOption = CommonOptions.config
}
