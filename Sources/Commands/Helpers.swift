import App
import CLI
import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The commands that take data from outside — an export's XML or zip, the network — are
/// executables of their own, git-style: `glance serve` runs glance-serve in its place, so
/// glance's own binary (glance run, the panel's process) has neither their code nor their
/// libraries (libxml2, libarchive, libmicrohttpd, libqrencode, libmosquitto and theirs).
/// Their declarations stay here, so `glance help`, the manual and the completions know them, and
/// `glance serve --bad` is refused before anything is run.
public enum Helper: String, CaseIterable, Sendable {
    case `import`, serve, mqtt

    /// The executable's name: glance-import, glance-serve, glance-mqtt.
    public var executable: String { "glance-" + rawValue }

    /// The package's library folder, beside the program's: /usr/bin/glance → /usr/lib/glance.
    static let libraryFolder = "../lib/glance"

    /// Where `executable` is looked for, in order: only `$GLANCE_EXEC_PATH` when it is set (as git's
    /// GIT_EXEC_PATH); else beside this program (a build folder, where the package manager puts
    /// every product), then the package's library folder beside its folder.
    static func candidates(_ executable: String, execPath: String?, program: String) -> [String] {
        if let execPath, !execPath.isEmpty { return [execPath + "/" + executable] }
        let folder = program.lastIndex(of: "/").map { String(program[..<$0]) } ?? "."
        return [folder + "/" + executable, folder + "/" + libraryFolder + "/" + executable]
    }

    /// Runs the executable in this process's place with `arguments` (the command's, without its
    /// name): the same process id, signals and descriptors, so a unit's `glance serve` is
    /// glance-serve. Returns only when it cannot be run: told, with what to do (69).
    func exec(_ arguments: [String]) -> Outcome {
        let program = executablePath() ?? CommandLine.arguments.first ?? "glance"
        let places = Self.candidates(executable, execPath: getenv("GLANCE_EXEC_PATH").map { String(cString: $0) }, program: program)
        let tried = places.map { replaceProcess(with: $0, arguments: [executable] + arguments).description }
        console.complain(
            "\(rawValue): cannot run \(executable) (\(tried.joined(separator: "; "))): the package glance installs it in "
                + "/usr/lib/glance; reinstall it, or set GLANCE_EXEC_PATH to the folder that holds it")
        return .unavailable
    }
}

extension CommandSpec {
    /// A command that runs in its own executable: parsed here (help, bad arguments), then the
    /// executable is run with the same arguments.
    func entry(_ initial: Target, runs helper: Helper) -> Glance.Entry where Target: Sendable {
        let description = self.description
        return Glance.Entry(description: description) { (argv) throws(UsageError) in
            switch try parse(argv, into: initial) {
            case .help: return console.result(HelpText.render(description))
            case .run: return helper.exec(argv)
            }
        }
    }
}

extension Glance {
    /// The main of glance-import, glance-serve and glance-mqtt: `arguments` (without the program
    /// name) parsed by the command's declaration, then `run`; the exit status.
    public static func helperMain<Line: Sendable>(
        _ spec: CommandSpec<Line>, _ initial: Line, _ arguments: [String], run: @escaping @Sendable (Line) -> Outcome
    ) -> Int32 {
        do {
            return try spec.entry(initial, run).main(arguments).exitStatus
        } catch {
            console.complain(error.message)
            return error.status
        }
    }
}
