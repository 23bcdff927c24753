import Runtime
import CLI
import Configuration
import Controls
import Raster
import Platform
import ConfigurationFile
import HelperCommands

/// `glance render`, `bench`, `demo`: screens drawn headlessly.
enum PictureCommands {
}
