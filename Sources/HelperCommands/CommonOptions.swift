import CLI
import Configuration
import Store

/// The options more than one command takes (glance's own and its helpers'), each declared once.
package enum CommonOptions {
    /// The configuration file.
    package static let config = Option<String?>.value(
        "--config", as: ValueParser("FILE", completion: .file(extensions: ["json"])) { text, _ in text },
        help: "the configuration (without it the built-in defaults apply); an invalid file stops with 78",
        default: Configuration.defaultPath
    ) { $0 = $1 }

    /// The store: the configuration's "database" setting, with `help`.
    package static func database<Target>(
        _ layer: @autoclosure @escaping DeferredKeyPath<Target, Layer>, help: String = storeHelp
    ) -> Option<Target> {
        // Made when given or shown, as the settings' other options (Configuration.options).
        .deferred(names: ["--db"]) { Configuration.setting(option: "--db")!.option(layer(), help: help, default: "") }
    }

    /// A service's options (glance serve, glance mqtt): the configuration, the store, and `more`
    /// of its settings.
    package static func service<Target>(
        config: @autoclosure @escaping DeferredKeyPath<Target, String?>,
        layer: @autoclosure @escaping DeferredKeyPath<Target, Layer>, _ more: [String]
    ) -> [Option<Target>] {
        // In steps, as `groups`: Swift 6.0.3 crashes on closures over key paths in one expression.
        var options = [self.config.lifted(config())]
        options.append(database(layer()))
        return options + Configuration.options(more, into: layer())
    }

    package static let storeHelp = "the store (default: the configuration's \"database\"; without it \(StoreLocation.defaults))"

    /// The data commands' store (they read no configuration): `--db PATH`.
    package static func store<T>(_ path: @autoclosure @escaping DeferredKeyPath<T, String?>) -> Option<T> {
        .value("--db", as: Value.database, help: storeDatabaseHelp) { $0[keyPath: path()] = $1 }
    }

    static let storeDatabaseHelp = "the store (default: \(StoreLocation.defaults))"

    /// Whose days a command reads or writes: `--person NAME|ID` (all digits: an id), person 1
    /// unless given (`StoreJobs.with` finds them, or refuses with 64 listing the people there are).
    package static func person<T>(
        _ path: @autoclosure @escaping DeferredKeyPath<T, String?>, help: String = personHelp
    ) -> Option<T> {
        .value("--person", as: personValue, help: help) { $0[keyPath: path()] = $1 }
    }

    package static let personHelp = "whose days: a person's name or id (default: person 1, the store's first)"

    /// `--person NAME|ID`: not empty (the store says whether there is such a person).
    package static let personValue = ValueParser<String>("NAME|ID") { (text, option) throws(UsageError) in
        guard !text.isEmpty else { throw UsageError("\(option) needs a person's name or id (glance people lists them)") }
        return text
    }
}
