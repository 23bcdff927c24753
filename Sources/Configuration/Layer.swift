// The command line's layer of the settings, made from the declarations: each option a setting's,
// each value read by the setting's form, kept as changes applied over the file (and applied again
// over the file read anew on a reload).
import CLI

/// What the command line set: a change per option given, in order.
public struct Layer: Sendable {
    public private(set) var changes: [Change] = []

    /// A setting given, and what it makes of the configuration. (A struct, not a tuple: an
    /// array of tuples with a function in them makes the runtime build the tuple's and the
    /// function's type at the first option given.)
    public struct Change: Sendable {
        public let setting: String
        public let change: Assignment<Configuration>
    }

    public init() {}

    /// Sets `setting` (a name of `Configuration.leaves`) as the command line's text `text` for
    /// `option` says.
    public mutating func set(_ setting: Setting<Configuration>, _ text: String, option: String) throws(UsageError) {
        changes.append(Change(setting: setting.name, change: try setting.assign(text, option: option)))
    }

    /// Sets a setting by its option's name, as if it were given (`--db PATH`): for tests and
    /// commands that give a setting of their own.
    public mutating func set(option: String, _ text: String = "") throws(UsageError) {
        guard let setting = Configuration.setting(option: option) else { throw UsageError("\(option): no such setting") }
        try set(setting, text, option: option)
    }

    /// The names of the settings given.
    public var given: Set<String> { Set(changes.map(\.setting)) }

    /// `configuration` with every change over it.
    public func apply(to configuration: inout Configuration) {
        for given in changes { given.change(&configuration) }
    }
}

extension Configuration {
    /// The file's settings with the command line's over them. A combination the command line
    /// makes that the settings cannot take (a blank before the dimming) is its error: it names
    /// the options.
    public func applying(_ layer: Layer) throws(UsageError) -> Configuration {
        var c = self
        layer.apply(to: &c)
        for check in Configuration.checks {
            guard let problem = check.problem(c) else { continue }
            // The file's own problems were told as the file's.
            if check.path != nil, check.problem(self) != nil { continue }
            let names = check.options.isEmpty ? "" : check.options.joined(separator: "/") + ": "
            throw UsageError(names + problem + (check.path == nil ? "" : " (with the configuration's settings)"))
        }
        return c
    }
}

extension Setting where Root == Configuration {
    /// The setting's command-line option, setting it in the `layer` of a command's target.
    public func option<Target>(
        _ layer: @autoclosure @escaping DeferredKeyPath<Target, Layer>, help: String? = nil, default given: String? = nil
    ) -> Option<Target> {
        option(through: partAccess(layer), help: help, default: given)
    }

    /// The same, the layer reached by `access`.
    public func option<Target>(
        through access: @escaping PartAccess<Target, Layer>, help: String? = nil, default given: String? = nil
    ) -> Option<Target> {
        let setting = self
        return Option<Target>.declared(
            names: options, placeholder: placeholder, help: help ?? self.help,
            default: { let said = given ?? setting.commandLineDefault; return said.isEmpty ? nil : said }(),
            completion: completion
        ) { (target, text, option) throws(UsageError) in
            try access(&target) { (layer) throws(UsageError) in try layer.set(setting, text, option: option) }
        }
    }
}

extension Setting {
    /// The default as the command line's help says it: without the file's `null:` and quotes.
    public var commandLineDefault: String {
        var text = Substring(defaultText)
        if text.hasPrefix("null: ") { text = text.dropFirst(6) }
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = text.dropFirst().dropLast() }
        return String(text)
    }
}

extension Configuration {
    /// The options of the settings named by `options` (`["--card", "--connector"]`), in that
    /// order, into a command's layer.
    public static func options<Target>(
        _ options: [String], into layer: @autoclosure @escaping DeferredKeyPath<Target, Layer>
    ) -> [Option<Target>] {
        self.options(options, through: partAccess(layer))
    }

    /// The same, into the layer `access` reaches.
    public static func options<Target>(_ options: [String], through access: @escaping PartAccess<Target, Layer>)
        -> [Option<Target>]
    {
        // A loop, not `map`: generic over the command's target, `map` is not specialized here
        // and would look its associated types up by name at every start.
        var made: [Option<Target>] = []
        made.reserveCapacity(options.count)
        for name in options {
            // Made when given or shown: a start given none of them makes none of the tables.
            made.append(
                Option<Target>.deferred(names: [name]) {
                    guard let setting = setting(option: name), setting.options == [name] else {
                        preconditionFailure("\(name) is no setting's only option")
                    }
                    return setting.option(through: access)
                })
        }
        return made
    }
}
