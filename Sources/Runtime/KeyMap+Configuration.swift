import Controls
import Configuration
import Input

extension KeyMap {
    /// The defaults with the configuration's `keys` and long presses on top. Names that are not
    /// key names are reported with their JSON path, as the configuration's other problems are.
    public static func make(_ configuration: Configuration) -> Result<KeyMap, ConfigurationIssues> {
        make(
            keys: configuration.keys, longPress: configuration.longPress,
            longPressSeconds: configuration.longPressSeconds
        ).mapError { unknown in
            ConfigurationIssues(
                unknown.names.map {
                    ConfigurationIssue(
                        path: "$.keys.\($0)", message: "no such key name (glance devices lists the keys a device has)")
                })
        }
    }
}
