import Configuration

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reads the configuration file: `--config PATH`, else the default path (a missing default file
/// means the defaults; a missing named file is an error).
enum ConfigurationFile {
    enum Failure: Error {
        /// The file cannot be read: the message says why.
        case unreadable(String)
        case invalid(path: String, ConfigurationIssues)
    }

    static func load(_ path: String?) -> Result<Configuration, Failure> {
        let file = path ?? Configuration.defaultPath
        guard let fd = Optional(open(file, O_RDONLY | O_CLOEXEC)), fd >= 0 else {
            if path == nil && errno == ENOENT { return .success(Configuration()) }
            return .failure(.unreadable("\(file): cannot read the configuration: \(String(cString: strerror(errno)))"))
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else {
                return .failure(.unreadable("\(file): cannot read the configuration: \(String(cString: strerror(errno)))"))
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > 4 << 20 { return .failure(.unreadable("\(file): larger than 4 MB; is it the right file?")) }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(.unreadable("\(file): not UTF-8 text"))
        }
        return Configuration.parse(text).mapError { .invalid(path: file, $0) }
    }

    /// Prints a failure as the lines a person needs to fix the file.
    static func report(_ failure: Failure) {
        switch failure {
        case .unreadable(let message): complain(message)
        case .invalid(let path, let found):
            complain("\(path): \(found.issues.count) problem\(found.issues.count == 1 ? "" : "s") in the configuration:")
            var err = StandardError()
            for issue in found.issues { print("  \(issue)", to: &err) }
        }
    }
}

/// `glance config check`: validates the configuration file and says what is wrong, all at once.
struct ConfigCommand {
    var path: String?

    static let help = """
        Usage: glance config check [--config FILE]

        Reads the configuration (default: \(Configuration.defaultPath); without that file the
        built-in defaults apply) and reports every problem with its JSON path and the form
        expected. Exit status: 0 valid, 78 invalid (the app refuses to start with it), 66 the
        named file cannot be read, 64 bad arguments.
        """

    static func parse(_ argv: [String]) throws(UsageError) -> ConfigCommand? {
        var args = Arguments(argv)
        guard let verb = try args.nextWord() else {
            throw UsageError("config: expected a verb: check (see glance config --help)")
        }
        if verb == "--help" || verb == "-h" { return nil }
        guard verb == "check" else { throw UsageError("config: unknown verb '\(verb)' (expected check)") }
        var command = ConfigCommand()
        while let option = try args.nextOption() {
            switch option {
            case "--help", "-h": return nil
            case "--config": command.path = try args.value(for: option)
            default: throw UsageError("config check: unknown option '\(option)' (see glance config --help)")
            }
        }
        return command
    }

    func run() -> Int32 {
        switch ConfigurationFile.load(path) {
        case .success:
            print("\(path ?? Configuration.defaultPath): valid")
            return ExitCode.ok
        case .failure(let failure):
            ConfigurationFile.report(failure)
            if case .unreadable = failure { return ExitCode.noInput }
            return ExitCode.config
        }
    }
}
