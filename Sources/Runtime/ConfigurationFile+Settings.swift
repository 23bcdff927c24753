import Configuration
import ConfigurationFile
import Platform

extension ConfigurationFile {
    /// `work` done with the settings (as `settings` makes them), or the status they ended with.
    public static func withSettings(
        _ path: String?, commandLine: Layer, console: Console, _ work: (Settings) -> Outcome
    ) -> Outcome {
        switch settings(path, commandLine: commandLine, console: console) {
        case .failure(let status): status.code
        case .success(let settings): work(settings)
        }
    }

    /// The settings: the configuration as `layered` makes it, the key map made of it (its key
    /// names are libevdev's, so only the panel's side knows them: an unknown one is the file's
    /// problem, 78, as any other).
    public static func settings(_ path: String?, commandLine: Layer, console: Console) -> Result<Settings, ExitStatus> {
        layered(path, commandLine: commandLine, console: console) { (configuration) throws(ConfigurationIssues) in
            try Settings(configuration)
        }
    }
}
