import Runtime
import Platform


/// The commands that take data from outside — an export's XML or zip, the network — are
/// executables of their own, git-style: `glance serve` runs glance-serve in its place, so
/// glance's own binary (glance run, the panel's process) has neither their code nor their
/// libraries (libxml2, libarchive, libmicrohttpd, libqrencode, libmosquitto and theirs).
/// Their declarations are in HelperCommands (glance's and theirs), so `glance help`, the manual
/// and the completions know them, and `glance serve --bad` is refused before anything is run.
public enum Helper: String, CaseIterable, Sendable {
    case `import`, serve, mqtt
    /// `glance people`: glance-serve's too (`glance-serve people …`): the store, the token files
    /// and libqrencode, which glance-serve has and glance does not.
    case people
    /// `glance web`: glance-serve's too (`glance-serve web …`): the network side, the page.
    case web

    /// The executable's name: glance-import, glance-serve, glance-mqtt (glance-serve for people and web).
    public var executable: String { self == .people || self == .web ? "glance-serve" : "glance-" + rawValue }

    /// What goes before the command's arguments: the command's name, for an executable that runs
    /// more than one.
    var leading: [String] { self == .people || self == .web ? [rawValue] : [] }

    /// The package's library folder, beside the program's: /usr/bin/glance → /usr/lib/glance.
    public static let libraryFolder = "../lib/glance"

    /// Where `executable` is looked for, in order: only `$GLANCE_EXEC_PATH` when it is set (as git's
    /// GIT_EXEC_PATH); else beside this program (a build folder, where the package manager puts
    /// every product), then the package's library folder beside its folder.
    public static func candidates(_ executable: String, execPath: String?, program: String) -> [String] {
        if let execPath, !execPath.isEmpty { return [execPath + "/" + executable] }
        let folder = program.lastIndex(of: "/").map { String(program[..<$0]) } ?? "."
        return [folder + "/" + executable, folder + "/" + libraryFolder + "/" + executable]
    }

    /// Runs the executable in this process's place with `arguments` (the command's, without its
    /// name): the same process id, signals and descriptors, so a unit's `glance serve` is
    /// glance-serve. Returns only when it cannot be run: told, with what to do (69).
    public func exec(_ arguments: [String], console: Console) -> Outcome {
        let program = executablePath() ?? CommandLine.arguments.first ?? "glance"
        let places = Self.candidates(executable, execPath: environmentVariable("GLANCE_EXEC_PATH"), program: program)
        let tried = places.map { replaceProcess(with: $0, arguments: [executable] + leading + arguments).description }
        console.complain(
            "\(rawValue): cannot run \(executable) (\(tried.joined(separator: "; "))): the package glance installs it in "
                + "/usr/lib/glance; reinstall it, or set GLANCE_EXEC_PATH to the folder that holds it")
        return .unavailable
    }
}
