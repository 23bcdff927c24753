import Runtime
import CLI
import Configuration
import HelperCommands
import Store

/// The options that say what to show, the same for `glance run`, `watch` and `render` (and
/// `bench`): each a setting's, declared once in `Configuration`.
enum ScreenOptions {
    /// What to show and how it looks: the screen, the day, whose, the language, the panel's
    /// shape, the fonts, the clock, and the configuration they come from otherwise.
    static let look = ["--screen", "--page", "--date", "--today", "--time", "--name", "--locale", "--shape", "--diagonal", "--distance", "--font", "--cjk-font", "--clock", "--rings-only"]
    /// A day's figures instead of the store's.
    static let day = ["--move", "--move-time", "--steps", "--exercise", "--stand", "--no-summary"]
    /// A gauge or a task instead of the store's.
    static let content = [
        "--style", "--value", "--min", "--max", "--title", "--unit", "--decimals", "--tint", "--fraction", "--indeterminate", "--label",
        "--cancellable", "--cancel-note", "--cancelling",
    ]

    /// The groups of options for what to show, into a command's `layer` and its `config` file.
    static func groups<Target>(
        _ layer: @autoclosure @escaping DeferredKeyPath<Target, Layer>,
        config: @autoclosure @escaping DeferredKeyPath<Target, String?>
    ) -> [OptionGroup<Target>] {
        // Built in steps: Swift 6.0.3 (Debian 13's) crashes on the closure over `config` in one expression.
        var what = Configuration.options(look, into: layer())
        what.append(CommonOptions.config.lifted(config()))
        return groups(layer(), what: what)
    }

    /// The same for a command that reads no configuration file (glance bench).
    static func groups<Target>(_ layer: @autoclosure @escaping DeferredKeyPath<Target, Layer>)
        -> [OptionGroup<Target>]
    {
        groups(layer(), what: Configuration.options(look, into: layer()))
    }

    private static func groups<Target>(
        _ layer: @autoclosure @escaping DeferredKeyPath<Target, Layer>, what: [Option<Target>]
    ) -> [OptionGroup<Target>] {
        return [
            OptionGroup("What to show (glance run, watch and render take the same)", what),
            OptionGroup(
                "A day instead of the store's (the ring and clock screens). VALUE/GOAL, either side may be - for missing; "
                    + "an omitted ring quantity is missing, and a ring whose value or goal is missing is empty",
                note: "Energy is 0 to 100000 (kcal or kJ), minutes 0 to 1440, hours 0 to 24; a goal is 0 (it carries no "
                    + "progress) or from 1 up to the same.",
                Configuration.options(day, into: layer())),
            OptionGroup(
                "A gauge (--screen gauges) or a task (--screen progress) instead of the store's",
                Configuration.options(content, into: layer())),
        ]
    }
}
