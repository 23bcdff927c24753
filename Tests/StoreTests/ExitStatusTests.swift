import Foundation
import TestSupport
import Testing

@testable import Store

#if canImport(Glibc)
    import Glibc
#endif

/// The one table of exit statuses (docs/reliability.md; `glance --help`): every command is run
/// through each situation that can happen to it, and each ends with the situation's status. A
/// situation that cannot happen to a command is listed with the reason.
@Suite(.timeLimit(.minutes(10))) struct ExitStatusTests {
    enum Situation: Int32, CaseIterable, Sendable {
        case badArgument = 64, badData = 65, missingInput = 66, unavailable = 69, internalError = 70
        case cannotCreate = 73, io = 74, busy = 75, permission = 77, configuration = 78, cancelled = 79

        /// The words the table and `glance --help` start the status's line with.
        var name: String {
            switch self {
            case .badArgument: "bad argument"
            case .badData: "bad data"
            case .missingInput: "missing input"
            case .unavailable: "unavailable"
            case .internalError: "internal error"
            case .cannotCreate: "cannot create"
            case .io: "input/output error"
            case .busy: "busy"
            case .permission: "permission denied"
            case .configuration: "bad configuration"
            case .cancelled: "cancelled"
            }
        }
    }

    static let commands = [
        "render", "bench", "demo", "config", "run", "devices", "import", "log", "goals", "metric", "task", "export",
        "demo-data", "watch", "serve", "mqtt", "people", "web", "screenshot", "message", "help", "completion",
    ]

    /// One command in one situation: how to bring it about, and run it (nil: skipped, said why).
    struct Case: Sendable, CustomTestStringConvertible {
        let command: String
        let situation: Situation
        /// Needs root: to run glance as another user (setpriv) or to mount a read-only disk.
        var needsRoot = false
        let run: @Sendable (Scratch) throws -> GlanceCLI.Result?
        var testDescription: String { "\(command): \(situation.name)" }
    }

    // MARK: situations, made

    /// A store with a day, a metric and a finished task.
    static func store(_ scratch: Scratch, at path: String? = nil) throws -> String {
        let db = path ?? scratch.db
        let store = try Store(path: db)
        try store.setSummary(.init(exerciseTime: 5, exerciseTimeGoal: 30), for: CalendarDayForTests.parse("2024-01-01"))
        try store.setMetric("cpu", value: 40)
        try store.startTask("copy", total: 1, description: nil, cancellable: true)
        try store.finishTask("copy", state: .done)
        return db
    }

    /// Someone else's SQLite database.
    static func foreign(_ scratch: Scratch) throws -> String {
        let path = scratch.file("notes.sqlite")
        try Connection(path: path, mode: .readWrite(create: true)).execute("CREATE TABLE notes (text TEXT)")
        return path
    }

    /// A path whose folder cannot be made (a regular file is in the way).
    static func underAFile(_ scratch: Scratch, _ name: String) -> String {
        scratch.write("in-the-way", "a file, not a folder\n") + "/sub/\(name)"
    }

    static func invalidConfiguration(_ scratch: Scratch) -> String {
        scratch.write("bad.json", "{\"display\": {\"rotate\": 45}}")
    }

    static let png = ["--size", "32x32", "--rings-only"]

    /// A configuration for glance serve whose token file only root may read.
    static func serveConfig(_ scratch: Scratch) -> String {
        let token = scratch.write("token", "0123456789abcdef0123\n")
        chmod(token, 0o600)
        return scratch.write("serve.json", "{\"serve\": {\"tokenFile\": \"\(token)\"}}")
    }

    /// A configuration for glance people: the token files in the scratch folder (person 1's
    /// readable by its owner alone, as root's is on the board).
    static func peopleConfig(_ scratch: Scratch) -> String {
        let token = scratch.write("token", "0123456789abcdef0123\n")
        chmod(token, 0o600)
        return scratch.write("people.json", "{\"serve\": {\"tokenFile\": \"\(token)\", \"listen\": \"192.168.1.20:8127\"}}")
    }

    /// A configuration for glance mqtt: a broker nobody listens at (each case ends before it
    /// connects).
    /// A configuration for glance web, its one-time link's file at `linkFile` (in the scratch folder).
    static func webConfig(_ scratch: Scratch, linkFile: String? = nil) -> String {
        scratch.write(
            "web.json", "{\"web\": {\"listen\": \"127.0.0.1:8128\", \"linkFile\": \"\(linkFile ?? scratch.file("link"))\"}}")
    }

    static func mqttConfig(_ scratch: Scratch) -> String {
        scratch.write("mqtt.json", "{\"mqtt\": {\"broker\": \"mqtt://127.0.0.1:1\"}}")
    }

    static var isRoot: Bool { getuid() == 0 }

    /// `glance ARGS` as user nobody (needs root and setpriv); nil (said why) otherwise.
    static func asNobody(_ arguments: [String], in scratch: Scratch, killAfter: Double = 30) throws -> GlanceCLI.Result? {
        guard isRoot, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            print("skipped: needs root and setpriv to run glance as another user; CI runs as root")
            return nil
        }
        chmod(scratch.path, 0o755)
        return try GlanceCLI.run(
            ["--reuid=65534", "--regid=65534", "--clear-groups"] + GlanceExecutable.words(arguments), in: scratch,
            program: "/usr/bin/setpriv")
    }

    /// A store nobody may open (root's, in a 0700 folder).
    static func privateStore(_ scratch: Scratch) throws -> String {
        let folder = scratch.file("private")
        mkdir(folder, 0o700)
        return try store(scratch, at: folder + "/glance.db")
    }

    /// A folder anyone may write into (for pictures made as nobody).
    static func openFolder(_ scratch: Scratch) -> String {
        let folder = scratch.file("open")
        mkdir(folder, 0o777)
        chmod(folder, 0o777)
        return folder
    }

    /// A store on a read-only mount (a small tmpfs, remounted): writing it fails with EROFS.
    /// Needs root; `body` runs while it is mounted.
    static func onAReadOnlyMount(
        _ scratch: Scratch, _ body: (String) throws -> GlanceCLI.Result
    ) throws -> GlanceCLI.Result? {
        guard isRoot else {
            print("skipped: needs root to mount a tmpfs; CI runs as root")
            return nil
        }
        let disk = scratch.file("ro")
        mkdir(disk, 0o755)
        guard try GlanceCLI.run(["-t", "tmpfs", "-o", "size=1m", "tmpfs", disk], in: scratch, program: "/bin/mount").status == 0
        else { throw CocoaError(.fileWriteUnknown) }
        defer { _ = try? GlanceCLI.run([disk], in: scratch, program: "/bin/umount") }
        let db = try store(scratch, at: disk + "/glance.db")
        _ = try GlanceCLI.run(["-o", "remount,ro", disk], in: scratch, program: "/bin/mount")
        return try body(db)
    }

    /// Runs `body` while another process holds the store's write lock (longer than the 5 s a
    /// writer waits).
    static func whileLocked(_ scratch: Scratch, _ body: (String) throws -> GlanceCLI.Result) throws -> GlanceCLI.Result {
        let db = try store(scratch)
        let ready = scratch.file("locked")
        let script = """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute("BEGIN EXCLUSIVE")
            open(sys.argv[2], "w").write("locked")
            time.sleep(30)
            """
        let (holder, finish) = try GlanceCLI.start(["-c", script, db, ready], in: scratch, program: "/usr/bin/python3")
        defer {
            kill(holder.processIdentifier, SIGKILL)
            _ = finish()
        }
        _ = eventually(seconds: 10) { FileManager.default.fileExists(atPath: ready) }
        return try body(db)
    }

    /// An empty fontconfig configuration: fontconfig finds no font at all.
    static func noFonts(_ scratch: Scratch) -> String {
        "FONTCONFIG_FILE=" + scratch.write("fonts.conf", "<?xml version=\"1.0\"?>\n<fontconfig></fontconfig>\n")
    }

    static func glance(_ arguments: [String], _ scratch: Scratch) throws -> GlanceCLI.Result {
        try GlanceCLI.run(arguments, in: scratch, killAfter: 30)
    }

    // MARK: every command, every situation

    static let cases: [Case] = [
        // render
        Case(command: "render", situation: .badArgument) { try glance(["render", "--bogus"], $0) },
        Case(command: "render", situation: .badData) {
            try glance(["render", "--db", try foreign($0), "--output", $0.file("x.png")] + png, $0)
        },
        Case(command: "render", situation: .missingInput) {
            try glance(["render", "--db", $0.file("none.db"), "--output", $0.file("x.png")] + png, $0)
        },
        Case(command: "render", situation: .unavailable) {
            try glance(["render", "--size", "32x32", "--font", $0.file("none.ttf"), "--output", $0.file("x.png")], $0)
        },
        Case(command: "render", situation: .cannotCreate) {
            try glance(["render", "--output", $0.file("none/x.png")] + png, $0)
        },
        Case(command: "render", situation: .io) { try glance(["render", "--output", "/dev/full"] + png, $0) },
        Case(command: "render", situation: .permission, needsRoot: true) {
            try asNobody(["render", "--db", try privateStore($0), "--output", openFolder($0) + "/x.png"] + png, in: $0)
        },
        // bench
        Case(command: "bench", situation: .badArgument) { try glance(["bench", "--bogus"], $0) },
        Case(command: "bench", situation: .unavailable) {
            try glance(["bench", "--frames", "1", "--size", "32x32", "--font", $0.file("none.ttf")], $0)
        },
        Case(command: "bench", situation: .io) {
            try GlanceCLI.runIntoAFullDisk(["bench", "--frames", "1", "--size", "32x32", "--screen", "rings", "--rings-only"], in: $0)
        },
        // demo
        Case(command: "demo", situation: .badArgument) { try glance(["demo", "--bogus"], $0) },
        Case(command: "demo", situation: .unavailable) {
            try GlanceCLI.run(
                [noFonts($0)] + GlanceExecutable.words(["demo", "--size", "32x32", "--output", $0.file("demo")]), in: $0,
                program: "/usr/bin/env")
        },
        Case(command: "demo", situation: .cannotCreate) {
            try glance(["demo", "--size", "32x32", "--output", underAFile($0, "demo")], $0)
        },
        Case(command: "demo", situation: .permission, needsRoot: true) {
            let root = $0.file("root-only")
            mkdir(root, 0o755)
            return try asNobody(["demo", "--size", "32x32", "--output", root + "/demo"], in: $0)
        },
        // config
        Case(command: "config", situation: .badArgument) { try glance(["config", "fix"], $0) },
        Case(command: "config", situation: .missingInput) { try glance(["config", "check", "--config", $0.file("none.json")], $0) },
        Case(command: "config", situation: .permission, needsRoot: true) {
            let file = $0.write("root.json", "{}")
            chmod(file, 0o600)
            return try asNobody(["config", "check", "--config", file], in: $0)
        },
        Case(command: "config", situation: .configuration) {
            try glance(["config", "check", "--config", invalidConfiguration($0)], $0)
        },
        // run (on this machine: only what happens before the display is taken)
        Case(command: "run", situation: .badArgument) { try glance(["run", "--bogus"], $0) },
        Case(command: "run", situation: .unavailable) {
            guard !FileManager.default.fileExists(atPath: "/dev/dri") else {
                print("skipped run without a display: this machine has one (Tests/VMTests: 'a VM without a display device')")
                return nil
            }
            return try glance(["run", "--db", $0.db], $0)
        },
        Case(command: "run", situation: .configuration) {
            try glance(["run", "--config", invalidConfiguration($0)], $0)
        },
        // devices
        Case(command: "devices", situation: .badArgument) { try glance(["devices", "--bogus"], $0) },
        Case(command: "devices", situation: .unavailable) {
            guard !FileManager.default.fileExists(atPath: "/dev/dri") else {
                print("skipped devices without a card: this machine has one (Tests/VMTests: 'no display device')")
                return nil
            }
            return try glance(["devices"], $0)
        },
        // import
        Case(command: "import", situation: .badArgument) { try glance(["import"], $0) },
        Case(command: "import", situation: .badData) {
            try glance(["import", $0.write("notes.txt", "shopping list\n"), "--db", $0.db, "-q"], $0)
        },
        Case(command: "import", situation: .missingInput) { try glance(["import", $0.file("none.zip"), "--db", $0.db], $0) },
        Case(command: "import", situation: .cannotCreate) {
            try glance(["import", $0.write("d.csv", "dateComponents\n2024-01-01\n"), "--db", underAFile($0, "glance.db")], $0)
        },
        Case(command: "import", situation: .io, needsRoot: true) { s in
            try onAReadOnlyMount(s) { db in
                try glance(["import", s.write("d.csv", "dateComponents,appleExerciseTime\n2024-01-02,5\n"), "--db", db, "-q"], s)
            }
        },
        Case(command: "import", situation: .busy) { s in
            try whileLocked(s) { try glance(["import", s.write("d.csv", "dateComponents,appleExerciseTime\n2024-01-02,5\n"), "--db", $0, "-q"], s) }
        },
        // Ctrl-C while it waits for its writer: stopped as asked.
        Case(command: "import", situation: .cancelled) {
            let fifo = $0.file("fifo")
            mkfifo(fifo, 0o600)
            let (process, finish) = try GlanceCLI.startAsFromAShell(["import", fifo, "--db", $0.db, "-q"], in: $0)
            _ = eventually(seconds: 20) { hasOpen(process.processIdentifier, fifo) }
            usleep(200_000)
            kill(process.processIdentifier, SIGINT)
            if !eventually(seconds: 10, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
            return finish()
        },
        Case(command: "import", situation: .permission, needsRoot: true) {
            let file = $0.write("mine.csv", "dateComponents\n2024-01-01\n")
            chmod(file, 0o600)
            return try asNobody(["import", file, "--db", openFolder($0) + "/glance.db", "-q"], in: $0)
        },
        // log
        Case(command: "log", situation: .badArgument) { try glance(["log", "--move", "-5"], $0) },
        Case(command: "log", situation: .badData) { try glance(["log", "--move", "5", "--db", try foreign($0)], $0) },
        Case(command: "log", situation: .cannotCreate) { try glance(["log", "--move", "5", "--db", underAFile($0, "glance.db")], $0) },
        Case(command: "log", situation: .io, needsRoot: true) { s in
            try onAReadOnlyMount(s) { db in try glance(["log", "--move", "5", "--db", db], s) }
        },
        Case(command: "log", situation: .busy) { s in try whileLocked(s) { try glance(["log", "--move", "5", "--db", $0], s) } },
        Case(command: "log", situation: .missingInput) {
            try glance(["log", "--move", "5", "--db", $0.db, "--config", $0.file("none.json")], $0)
        },
        Case(command: "log", situation: .configuration) {
            try glance(["log", "--move", "5", "--db", $0.db, "--config", invalidConfiguration($0)], $0)
        },
        Case(command: "log", situation: .permission, needsRoot: true) { try asNobody(["log", "--move", "5", "--db", try privateStore($0)], in: $0) },
        // goals
        Case(command: "goals", situation: .badArgument) { try glance(["goals", "set", "--stand", "25"], $0) },
        Case(command: "goals", situation: .badData) { try glance(["goals", "--db", try foreign($0)], $0) },
        Case(command: "goals", situation: .missingInput) { try glance(["goals", "--db", $0.file("none.db")], $0) },
        Case(command: "goals", situation: .cannotCreate) {
            try glance(["goals", "set", "--move", "500", "--db", underAFile($0, "glance.db")], $0)
        },
        Case(command: "goals", situation: .io) {
            let db = try store($0)
            return try GlanceCLI.runIntoAFullDisk(["goals", "list", "--db", db], in: $0)
        },
        Case(command: "goals", situation: .busy) { s in
            try whileLocked(s) { try glance(["goals", "set", "--move", "500", "--db", $0], s) }
        },
        Case(command: "goals", situation: .configuration) {
            try glance(["goals", "--db", $0.db, "--config", invalidConfiguration($0)], $0)
        },
        Case(command: "goals", situation: .permission, needsRoot: true) { try asNobody(["goals", "--db", try privateStore($0)], in: $0) },
        // metric
        Case(command: "metric", situation: .badArgument) { try glance(["metric", "set", "cpu", "1e300"], $0) },
        Case(command: "metric", situation: .badData) { try glance(["metric", "list", "--db", try foreign($0)], $0) },
        Case(command: "metric", situation: .missingInput) { try glance(["metric", "list", "--db", $0.file("none.db")], $0) },
        Case(command: "metric", situation: .cannotCreate) {
            try glance(["metric", "set", "cpu", "5", "--db", underAFile($0, "glance.db")], $0)
        },
        Case(command: "metric", situation: .io) {
            let db = try store($0)
            return try GlanceCLI.runIntoAFullDisk(["metric", "list", "--db", db], in: $0)
        },
        Case(command: "metric", situation: .busy) { s in
            try whileLocked(s) { try glance(["metric", "set", "cpu", "5", "--db", $0], s) }
        },
        Case(command: "metric", situation: .permission, needsRoot: true) { try asNobody(["metric", "list", "--db", try privateStore($0)], in: $0) },
        // task
        Case(command: "task", situation: .badArgument) { try glance(["task", "start"], $0) },
        Case(command: "task", situation: .badData) { try glance(["task", "list", "--db", try foreign($0)], $0) },
        Case(command: "task", situation: .missingInput) { try glance(["task", "list", "--db", $0.file("none.db")], $0) },
        Case(command: "task", situation: .cannotCreate) { try glance(["task", "start", "x", "--db", underAFile($0, "glance.db")], $0) },
        Case(command: "task", situation: .io) {
            let db = try store($0)
            return try GlanceCLI.runIntoAFullDisk(["task", "list", "--db", db], in: $0)
        },
        Case(command: "task", situation: .busy) {
            let db = try store($0)
            let pid = String(getpid())
            _ = try glance(["task", "start", "backup", "--pid", pid, "--db", db], $0)
            return try glance(["task", "start", "backup", "--db", db], $0)
        },
        Case(command: "task", situation: .cancelled) {
            let db = try store($0)
            _ = try glance(["task", "start", "backup", "--cancellable", "--db", db], $0)
            _ = try glance(["task", "cancel", "backup", "--db", db], $0)
            return try glance(["task", "update", "backup", "--done", "1", "--db", db], $0)
        },
        Case(command: "task", situation: .permission, needsRoot: true) { try asNobody(["task", "list", "--db", try privateStore($0)], in: $0) },
        // export
        Case(command: "export", situation: .badArgument) { try glance(["export"], $0) },
        Case(command: "export", situation: .badData) { try glance(["export", "--csv", "--db", try foreign($0)], $0) },
        Case(command: "export", situation: .missingInput) { try glance(["export", "--csv", "--db", $0.file("none.db")], $0) },
        Case(command: "export", situation: .cannotCreate) {
            try glance(["export", "--csv", "--db", try store($0), "--output", $0.file("none/x.csv")], $0)
        },
        Case(command: "export", situation: .io) {
            let db = try store($0)
            return try GlanceCLI.runIntoAFullDisk(["export", "--csv", "--db", db], in: $0)
        },
        Case(command: "export", situation: .permission, needsRoot: true) { try asNobody(["export", "--csv", "--db", try privateStore($0)], in: $0) },
        // demo-data
        Case(command: "demo-data", situation: .badArgument) { try glance(["demo-data", "--end", "0001-01-05"], $0) },
        Case(command: "demo-data", situation: .badData) { try glance(["demo-data", "--db", try foreign($0)], $0) },
        Case(command: "demo-data", situation: .cannotCreate) { try glance(["demo-data", "--db", underAFile($0, "glance.db")], $0) },
        Case(command: "demo-data", situation: .io) { try GlanceCLI.runIntoAFullDisk(["demo-data", "--print"], in: $0) },
        Case(command: "demo-data", situation: .busy) { s in try whileLocked(s) { try glance(["demo-data", "--db", $0], s) } },
        Case(command: "demo-data", situation: .permission, needsRoot: true) { try asNobody(["demo-data", "--db", try privateStore($0)], in: $0) },
        // watch
        Case(command: "watch", situation: .badArgument) { try glance(["watch"], $0) },
        Case(command: "watch", situation: .badData) {
            try glance(["watch", "--db", try foreign($0), "--render-to", $0.file("x.png")] + png.dropFirst(2), $0)
        },
        Case(command: "watch", situation: .unavailable) {
            let config = $0.write("fonts.json", "{\"fonts\": {\"file\": \"\($0.file("none.ttf"))\"}}")
            return try glance(["watch", "--config", config, "--db", $0.db, "--render-to", $0.file("x.png")], $0)
        },
        Case(command: "watch", situation: .cannotCreate) {
            try glance(["watch", "--db", $0.db, "--render-to", $0.file("none/x.png"), "--rings-only"], $0)
        },
        Case(command: "watch", situation: .io) { try glance(["watch", "--db", $0.db, "--render-to", "/dev/full", "--rings-only"], $0) },
        Case(command: "watch", situation: .busy) {
            let db = try store($0)
            let picture = $0.file("x.png")
            let (process, finish) = try GlanceCLI.start(["watch", "--db", db, "--render-to", picture, "--rings-only"], in: $0)
            _ = eventually(seconds: 20) { FileManager.default.fileExists(atPath: picture) }
            _ = try store($0, at: $0.file("other.db"))
            rename($0.file("other.db"), db)
            if !eventually(seconds: 20, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
            return finish()
        },
        Case(command: "watch", situation: .permission, needsRoot: true) {
            try asNobody(["watch", "--db", try privateStore($0), "--render-to", openFolder($0) + "/x.png", "--rings-only"], in: $0)
        },
        Case(command: "watch", situation: .configuration) {
            try glance(["watch", "--config", invalidConfiguration($0), "--db", $0.db, "--render-to", $0.file("x.png")], $0)
        },
        // serve (each ends before it listens)
        Case(command: "serve", situation: .badArgument) { try glance(["serve", "--bogus"], $0) },
        Case(command: "serve", situation: .badData) {
            try glance(["serve", "--config", serveConfig($0), "--db", try foreign($0), "--listen", "127.0.0.1:0"], $0)
        },
        Case(command: "serve", situation: .missingInput) {
            let config = $0.write("none.json", "{\"serve\": {\"tokenFile\": \"\($0.file("no-token"))\"}}")
            return try glance(["serve", "--config", config, "--db", $0.db, "--listen", "127.0.0.1:0"], $0)
        },
        Case(command: "serve", situation: .unavailable) {
            // 192.0.2.1 (TEST-NET-1) is no address of this machine.
            try glance(["serve", "--config", serveConfig($0), "--db", $0.db, "--listen", "192.0.2.1:8127"], $0)
        },
        Case(command: "serve", situation: .cannotCreate) {
            try glance(["serve", "--config", serveConfig($0), "--db", underAFile($0, "glance.db"), "--listen", "127.0.0.1:0"], $0)
        },
        Case(command: "serve", situation: .permission, needsRoot: true) {
            try asNobody(["serve", "--config", serveConfig($0), "--db", openFolder($0) + "/glance.db", "--listen", "127.0.0.1:0"], in: $0)
        },
        Case(command: "serve", situation: .configuration) {
            try glance(["serve", "--config", invalidConfiguration($0), "--db", $0.db, "--listen", "127.0.0.1:0"], $0)
        },
        // people
        Case(command: "people", situation: .badArgument) { try glance(["people", "add", "42"], $0) },
        Case(command: "people", situation: .badArgument) {
            try glance(["people", "token", "Nobody", "--config", peopleConfig($0), "--db", $0.db], $0)
        },
        Case(command: "people", situation: .badData) { try glance(["people", "--config", peopleConfig($0), "--db", try foreign($0)], $0) },
        Case(command: "people", situation: .missingInput) { s in
            // A person without a token file (made by another way than glance people add).
            try Store(path: s.db).addPerson(name: "Ann", now: 0)
            return try glance(["people", "token", "Ann", "--config", peopleConfig(s), "--db", s.db], s)
        },
        Case(command: "people", situation: .unavailable) { s in
            // --panel with no panel running.
            try glance(["people", "token", "1", "--panel", "--socket", s.file("none.sock"), "--config", peopleConfig(s), "--db", s.db], s)
        },
        Case(command: "people", situation: .cannotCreate) { s in
            _ = s.write("people", "a file where the tokens' folder goes\n")
            return try glance(["people", "add", "Ann", "--config", peopleConfig(s), "--db", s.db], s)
        },
        Case(command: "people", situation: .cannotCreate) {
            try glance(["people", "--config", peopleConfig($0), "--db", underAFile($0, "glance.db")], $0)
        },
        Case(command: "people", situation: .io, needsRoot: true) { s in
            try onAReadOnlyMount(s) { db in try glance(["people", "add", "Ann", "--config", peopleConfig(s), "--db", db], s) }
        },
        Case(command: "people", situation: .busy) { s in
            try whileLocked(s) { try glance(["people", "add", "Ann", "--config", peopleConfig(s), "--db", $0], s) }
        },
        Case(command: "people", situation: .permission, needsRoot: true) {
            // Person 1's token is root's alone.
            try asNobody(["people", "token", "1", "--config", peopleConfig($0), "--db", openFolder($0) + "/glance.db"], in: $0)
        },
        Case(command: "people", situation: .configuration) {
            try glance(["people", "--config", invalidConfiguration($0), "--db", $0.db], $0)
        },
        // web (glance web link: each ends before anything is served)
        Case(command: "web", situation: .badArgument) { try glance(["web", "--bogus"], $0) },
        Case(command: "web", situation: .badArgument) { try glance(["web", "link", "extra"], $0) },
        Case(command: "web", situation: .unavailable) { s in
            // --panel with no panel running: the link is made and printed, the panel is away.
            try glance(["web", "link", "--panel", "--socket", s.file("none.sock"), "--config", webConfig(s)], s)
        },
        Case(command: "web", situation: .cannotCreate) { try glance(["web", "link", "--config", webConfig($0, linkFile: underAFile($0, "login"))], $0) },
        Case(command: "web", situation: .permission, needsRoot: true) { s in
            // The link's folder is root's alone.
            let folder = s.file("private")
            mkdir(folder, 0o700)
            return try asNobody(["web", "link", "--config", webConfig(s, linkFile: folder + "/login")], in: s)
        },
        Case(command: "web", situation: .configuration) { try glance(["web", "--config", invalidConfiguration($0)], $0) },
        Case(command: "web", situation: .configuration) { s in
            // No address: the page is off, and a link to it would lead nowhere.
            try glance(["web", "link", "--config", s.write("off.json", "{\"web\": {\"linkFile\": \"\(s.file("link"))\"}}")], s)
        },
        // mqtt (each ends before it connects)
        Case(command: "mqtt", situation: .badArgument) { try glance(["mqtt", "--bogus"], $0) },
        Case(command: "mqtt", situation: .badData) { try glance(["mqtt", "--config", mqttConfig($0), "--db", try foreign($0)], $0) },
        Case(command: "mqtt", situation: .cannotCreate) {
            try glance(["mqtt", "--config", mqttConfig($0), "--db", underAFile($0, "glance.db")], $0)
        },
        Case(command: "mqtt", situation: .permission, needsRoot: true) {
            try asNobody(["mqtt", "--config", mqttConfig($0), "--db", try privateStore($0)], in: $0)
        },
        Case(command: "mqtt", situation: .configuration) {
            try glance(["mqtt", "--config", $0.write("none.json", "{}"), "--db", $0.db], $0)
        },
        // help, completion
        // screenshot
        Case(command: "screenshot", situation: .badArgument) { try glance(["screenshot"], $0) },
        Case(command: "screenshot", situation: .unavailable) {
            try glance(["screenshot", "-o", $0.file("x.png"), "--socket", $0.file("none.sock")], $0)
        },
        Case(command: "screenshot", situation: .permission, needsRoot: true) {
            try rootsSocket($0) { try asNobody(["screenshot", "-o", openFolder($0) + "/x.png", "--socket", $1], in: $0) }
        },
        // message
        Case(command: "message", situation: .badArgument) { try glance(["message"], $0) },
        Case(command: "message", situation: .badArgument) { try glance(["message", "tab\there"], $0) },
        Case(command: "message", situation: .unavailable) { try glance(["message", "hello", "--socket", $0.file("none.sock")], $0) },
        Case(command: "message", situation: .busy) {
            // A socket nobody answers on (an app whose loop is stuck): given up after 5 s.
            try rootsSocket($0, mode: 0o666) { try glance(["message", "hello", "--socket", $1], $0) }
        },
        Case(command: "message", situation: .permission, needsRoot: true) {
            try rootsSocket($0) { try asNobody(["message", "hello", "--socket", $1], in: $0) }
        },
        Case(command: "help", situation: .badArgument) { try glance(["help", "nosuch"], $0) },
        Case(command: "help", situation: .io) { try GlanceCLI.runIntoAFullDisk(["help", "export"], in: $0) },
        Case(command: "completion", situation: .badArgument) { try glance(["completion", "tcsh"], $0) },
        Case(command: "completion", situation: .io) { try GlanceCLI.runIntoAFullDisk(["completion", "bash"], in: $0) },
    ]

    /// `body` with the path of a socket only its owner (root) may connect to, as a running app's
    /// would be to a stranger.
    static func rootsSocket(
        _ scratch: Scratch, mode: mode_t = 0o600, _ body: (Scratch, String) throws -> GlanceCLI.Result?
    ) throws -> GlanceCLI.Result? {
        let path = openFolder(scratch) + "/glance.sock"
        let fd = socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(fd, 1) == 0, chmod(path, mode) == 0 else { throw POSIXError(.EIO) }
        return try body(scratch, path)
    }

    /// Situations that cannot happen to a command, and why.
    static let notApplicable: [String: [Situation: String]] = {
        var table: [String: [Situation: String]] = [:]
        let internalError = "an internal error is a bug: there is nothing to provoke"
        let noWork = "does no work that Cancel or glance task cancel stops (a signal ends it as any process)"
        for command in commands {
            table[command] = [.internalError: internalError]
            if !["import", "task"].contains(command) { table[command]![.cancelled] = noWork }
        }
        let noStore = "reads no store and no input file"
        let noConfiguration = "reads no configuration file"
        let reader = "only reads the store: in WAL mode readers never wait for a writer"
        func add(_ command: String, _ reasons: [Situation: String]) { table[command]!.merge(reasons) { a, _ in a } }
        add("render", [.busy: reader, .configuration: noConfiguration])
        add("bench", [
            .badData: noStore, .missingInput: noStore, .cannotCreate: "writes no file", .busy: noStore,
            .permission: "opens no file of the user's", .configuration: noConfiguration,
        ])
        add("demo", [
            .badData: noStore, .missingInput: noStore, .io: "a full disk under its folder: the same OutputFile path as render's",
            .busy: noStore, .configuration: noConfiguration,
        ])
        add("config", [
            .badData: "a bad file is a bad configuration (78)", .unavailable: "needs nothing but the file",
            .cannotCreate: "writes no file", .io: "its result is the status; the one line it prints is a report",
            .busy: "holds nothing another process uses",
        ])
        let vm = "happens after the display is taken: Tests/VMTests provoke it on a real kernel"
        add("run", [
            .badData: "the store is opened after the display; it is watch's code (Settings.openData), tested there",
            .missingInput: "a named configuration that cannot be read is 78, so the service is not restarted over it",
            .cannotCreate: "writes no file; a new store is watch's path (tested there)", .io: vm, .busy: vm,
            .permission: vm,
        ])
        add("devices", [
            .badData: noStore, .missingInput: noStore, .cannotCreate: "writes no file",
            .io: "without a card it ends 69 first (this machine); its lines describe the machine",
            .busy: "takes nothing", .permission: "lists what it may open", .configuration: noConfiguration,
        ])
        add("import", [.unavailable: "needs nothing missing", .configuration: noConfiguration])
        add("log", [.unavailable: "needs nothing missing"])
        add("goals", [.unavailable: "needs nothing missing"])
        add("metric", [.unavailable: "needs nothing missing", .configuration: noConfiguration])
        add("task", [.unavailable: "needs nothing missing", .configuration: noConfiguration])
        add("export", [.unavailable: "needs nothing missing", .busy: reader, .configuration: noConfiguration])
        add("demo-data", [
            .missingInput: "makes the store it loads into; the days are built in", .unavailable: "needs nothing missing",
            .configuration: noConfiguration,
        ])
        add("watch", [.missingInput: "makes the store it watches (it may be started before the first import), as run does"])
        add("serve", [
            .io: "serves until a signal: a store write that fails is an HTTP 500 to its client, not an exit",
            .busy: "a busy store is an HTTP 503 to the client, which retries; a port in use is 69 (unavailable)",
        ])
        add("mqtt", [
            .missingInput: "makes the store it writes, as run does; an unreadable password file is told and it connects without",
            .unavailable: "a broker or a panel that is away is tried again, not an exit",
            .io: "bridges until a signal: a store write that fails is told, not an exit",
            .busy: "a busy store costs one value a bounded wait (250 ms), told; not an exit",
        ])
        add("web", [
            .badData: "reads no store when it starts: a store the goals or people page cannot use is said on the page (503)",
            .missingInput: "reads no input file",
            .io: "serves until a signal: a write that fails is said on the page, not an exit",
            .busy: "link --panel: a panel that refuses a QR code is glance people --panel's client, tested in PanelQRCodeTests",
        ])
        let answered = "happens once a running app has answered: RuntimeTests/ScreenshotTests run it against a real session"
        add("screenshot", [
            .badData: noStore, .missingInput: "reads no input file: the picture comes from the app",
            .cannotCreate: answered, .io: "a malformed answer: only a broken app gives one", .busy: answered,
            .configuration: noConfiguration,
        ])
        add("message", [
            .badData: noStore, .missingInput: "reads no input file: the text is its arguments", .cannotCreate: "writes no file",
            .io: "a malformed answer: only a broken app gives one", .configuration: noConfiguration,
        ])
        for command in ["help", "completion"] {
            add(command, [
                .badData: noStore, .missingInput: noStore, .unavailable: "needs nothing", .cannotCreate: "writes no file",
                .busy: "holds nothing", .permission: "opens nothing", .configuration: noConfiguration,
            ])
        }
        return table
    }()

    /// The cases any user can run (a named list: Swift 6.0.3 crashed on a closure in the
    /// attribute).
    static let ownCases = cases.filter { !$0.needsRoot }

    @Test(arguments: ownCases)
    func everyCommandEndsWithItsSituationsStatus(_ c: Case) throws {
        try Self.check(c)
    }

    /// The cases that run glance as user nobody or on a read-only mount: reported as skipped, not
    /// passed, where that cannot be done (CI runs as root).
    @Test(
        .enabled(if: Privilege.canActAsOthers, "needs root and setpriv: to run glance as another user and mount a read-only tmpfs"),
        arguments: cases.filter(\.needsRoot))
    func asAnotherUserOrOnAReadOnlyDisk(_ c: Case) throws {
        try Self.check(c)
    }

    static func check(_ c: Case) throws {
        let scratch = Scratch()
        guard let r = try c.run(scratch) else {
            Issue.record("\(c.command), \(c.situation.name): could not be set up")
            return
        }
        #expect(
            r.status == c.situation.rawValue,
            "\(c.command), \(c.situation.name): exit \(r.status), expected \(c.situation.rawValue): \(r.err.prefix(400))")
        #expect(!r.err.isEmpty, "\(c.command), \(c.situation.name): no message said why")
    }

    /// Every command meets every situation: a case, or a reason it cannot happen.
    @Test func theMatrixIsComplete() throws {
        let scratch = Scratch()
        let help = try GlanceCLI.run(["--help"], in: scratch).out
        let listed = help.split(separator: "\n").compactMap { line -> String? in
            // "  render        draw a screen…": two spaces, then a command's name.
            guard line.hasPrefix("  "), line.dropFirst(2).first?.isLetter == true, let word = line.split(separator: " ").first
            else { return nil }
            return String(word)
        }
        #expect(Set(listed) == Set(Self.commands), "glance --help lists \(listed)")
        for command in Self.commands {
            for situation in Situation.allCases {
                let tested = Self.cases.contains { $0.command == command && $0.situation == situation }
                let excused = Self.notApplicable[command]?[situation] != nil
                #expect(tested != excused, "\(command), \(situation.name): \(tested ? "both tested and excused" : "neither tested nor excused")")
            }
        }
    }

    /// The table in docs/reliability.md is the program's (`glance --help`), status for status.
    @Test func theReadmeTableIsTheProgramsTable() throws {
        let readme = try String(contentsOfFile: Fixtures.repository + "/docs/reliability.md", encoding: .utf8)
        let start = try #require(readme.range(of: "<!-- exit-statuses -->"))
        let end = try #require(readme.range(of: "<!-- /exit-statuses -->"))
        let rows = readme[start.upperBound..<end.lowerBound].split(separator: "\n").filter { $0.hasPrefix("| ") }
            .compactMap { row -> (Int32, String)? in
                let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                guard let status = Int32(cells.first ?? "") else { return nil }
                return (status, cells[1])
            }
        #expect(rows.map(\.0) == [0] + Situation.allCases.map(\.rawValue))
        let help = try GlanceCLI.run(["--help"], in: Scratch()).out
        for (status, name) in rows where status != 0 {
            let situation = Situation(rawValue: status)
            #expect(situation?.name == name, "docs/reliability.md: \(status) is '\(name)'")
            #expect(help.contains("\(status)  \(name):"), "glance --help: \(status) should start with '\(name):'")
        }
    }
}
