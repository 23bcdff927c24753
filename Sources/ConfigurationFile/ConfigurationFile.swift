import Configuration
import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reads the configuration file: `--config PATH`, else the default path (a missing default file
/// means the defaults; a missing named file is an error).
public enum ConfigurationFile {
    /// `glance config`'s description (its help), beside what it does.
    public static let about = """
        check: reads the configuration (default: \(Configuration.defaultPath); without that file the built-in \
        defaults apply) and reports every problem with its JSON path and the form expected, and every note: a \
        setting it reads in an older form (a brightness as a fraction of full, 0.8 for 80), with what to write \
        now. settings: prints \
        every setting of the file, with its option, the form it takes, its default and what a reload does \
        with it (as docs/settings.md and the manual's CONFIGURATION section list them).
        """

    public enum Failure: Error {
        /// The file cannot be read: the message says why.
        case unreadable(String)
        /// This user may not read it.
        case denied(String)
        case invalid(path: String, ConfigurationIssues)
    }

    /// The largest configuration read (the example that sets everything is about 2 KB).
    static let maxSize = 4 << 20

    public static func load(_ path: String?) -> Result<Configuration, Failure> {
        loadNoted(path).map(\.configuration)
    }

    /// As `load`, with the file's notes (what it says in an older form: a brightness as a fraction).
    public static func loadNoted(_ path: String?) -> Result<NotedConfiguration, Failure> {
        let file = path ?? Configuration.defaultPath
        // O_NONBLOCK: opening a FIFO nobody writes to must not wait for ever (it is refused below).
        let fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            if path == nil && errno == ENOENT { return .success(NotedConfiguration(configuration: Configuration())) }
            let message = "\(file): cannot read the configuration: \(String(cString: strerror(errno)))"
            return .failure(errno == EACCES || errno == EPERM ? .denied(message) : .unreadable(message))
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            let kind = (st.st_mode & S_IFMT) == S_IFDIR ? "a folder" : "not a regular file (a pipe or a device?)"
            return .failure(.unreadable("\(file): cannot read the configuration: it is \(kind); give the JSON file"))
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { bytes in retryingInterrupts { read(fd, bytes.baseAddress, bytes.count) } }
            guard n >= 0 else {
                return .failure(.unreadable("\(file): cannot read the configuration: \(String(cString: strerror(errno)))"))
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > maxSize {
                return .failure(.invalid(path: file, problem("larger than \(maxSize >> 20) MB; is it the right file?")))
            }
        }
        // Read, but not text: a bad configuration (78) like any other, not an unreadable file (66).
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let at = firstInvalidUTF8(bytes)
            return .failure(.invalid(path: file, problem("not UTF-8 text (byte \(at + 1) is not part of a UTF-8 character)")))
        }
        return Configuration.read(text, patternProblem: regexProblem).mapError { .invalid(path: file, $0) }
    }

    /// Why `pattern` is not a POSIX extended regular expression (the C library's regcomp); nil
    /// when it is one.
    @Sendable public static func regexProblem(_ pattern: String) -> String? { ExtendedRegex.problem(pattern) }

    static func problem(_ message: String) -> ConfigurationIssues {
        ConfigurationIssues([ConfigurationIssue(path: "$", message: message)])
    }

    /// Where UTF-8 decoding first fails.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let s): offset += UTF8.width(s)
            case .emptyInput: return offset
            case .error: return offset
            }
        }
    }

    /// Prints a failure as the lines a person needs to fix the file.
    public static func report(_ failure: Failure, console: Console) {
        switch failure {
        case .unreadable(let message), .denied(let message): console.complain(message)
        case .invalid(let path, let found):
            console.complain("\(path): \(found.issues.count) problem\(found.issues.count == 1 ? "" : "s") in the configuration:")
            for issue in found.issues { console.writeError("  \(issue)\n") }
        }
    }

    /// The notes of a valid file as lines for a log (`glance run`, a reload): the file, the JSON
    /// path, what is read and what to write.
    public static func lines(notes: [ConfigurationIssue], path: String?) -> [String] {
        notes.map { "\(path ?? Configuration.defaultPath): \($0)" }
    }

    /// A failure as lines for a log: what is wrong, then every problem with its JSON path.
    public static func lines(_ failure: Failure) -> [String] {
        switch failure {
        case .unreadable(let message), .denied(let message): return [message]
        case .invalid(let path, let found):
            return ["\(path): \(found.issues.count) problem\(found.issues.count == 1 ? "" : "s") in the configuration:"]
                + found.issues.map { "  \($0)" }
        }
    }
}

extension ConfigurationFile {
    /// `glance config check`: 0 valid, 78 invalid, 66 the named file cannot be read, 77 this user
    /// may not read it.
    public static func check(_ path: String?, console: Console) -> Outcome {
        switch loadNoted(path) {
        case .success(let read):
            // No file at the default place is no configuration at all: say so, not "valid".
            if path == nil, access(Configuration.defaultPath, F_OK) != 0 {
                console.say("\(Configuration.defaultPath): no such file; the built-in defaults apply (glance config settings lists them)")
            } else if read.notes.isEmpty {
                console.say("\(path ?? Configuration.defaultPath): valid")
            } else {
                // Valid, as it is read: each note says how, and what to write instead.
                let count = read.notes.count
                console.say("\(path ?? Configuration.defaultPath): valid, with \(count) note\(count == 1 ? "" : "s"):")
                for note in read.notes { console.say("  \(note)") }
            }
            return Outcome.ok
        case .failure(let failure):
            report(failure, console: console)
            if case .unreadable = failure { return Outcome.noInput }
            if case .denied = failure { return Outcome.noPermission }
            return Outcome.config
        }
    }

    /// The configuration as `layered` makes it, the configuration itself (glance serve and glance
    /// mqtt: their executables have no key map, whose key names only libevdev knows).
    public static func configuration(_ path: String?, commandLine: Layer, console: Console) -> Result<Configuration, ExitStatus> {
        layered(path, commandLine: commandLine, console: console) { $0 }
    }

    /// The configuration: the defaults, the file (`path`, else the default one when it exists) and
    /// the command line, each made into what the caller runs on by `make` (`{ $0 }`: the
    /// configuration itself; App's `Settings`, whose key map also checks the key names) — the
    /// file's alone first, so a file `make` refuses is told as the file's. The file's notes are
    /// told on standard error (an older brightness, with what to write). Told and an exit status
    /// when the file is unreadable (66 for the default file, 78 for a named one) or invalid (78),
    /// or the command line does not fit it (64).
    public static func layered<Made>(
        _ path: String?, commandLine: Layer, console: Console, _ make: (Configuration) throws(ConfigurationIssues) -> Made
    ) -> Result<Made, ExitStatus> {
        let configuration: Configuration
        switch loadNoted(path) {
        case .success(let read):
            configuration = read.configuration
            for line in lines(notes: read.notes, path: path) { console.complain(line) }
        case .failure(let failure):
            report(failure, console: console)
            if case .unreadable = failure, path == nil { return .failure(ExitStatus(Outcome.noInput)) }
            return .failure(ExitStatus(Outcome.config))
        }
        do throws(ConfigurationIssues) {
            _ = try make(configuration)
        } catch {
            report(.invalid(path: path ?? Configuration.defaultPath, error), console: console)
            return .failure(ExitStatus(Outcome.config))
        }
        let layered: Configuration
        do {
            layered = try configuration.applying(commandLine)
        } catch {
            console.complain(error.message)
            return .failure(ExitStatus(Outcome.usage))
        }
        do throws(ConfigurationIssues) {
            return .success(try make(layered))
        } catch {
            report(.invalid(path: path ?? Configuration.defaultPath, error), console: console)
            return .failure(ExitStatus(Outcome.config))
        }
    }
}
