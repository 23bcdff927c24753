import CLI
import Foundation
import TestSupport
import Testing

/// `glance help`, `--version`, the man page and the completion scripts, through the real program
/// and the real shells.
@Suite("glance help, --version, man page, shell completions", .timeLimit(.minutes(10)))
struct HelpCompletionTests {
    static let commands = [
        "render", "bench", "demo", "config", "run", "screenshot", "message", "devices", "import", "log", "goals", "metric", "task",
        "export", "demo-data", "watch", "serve", "mqtt", "people", "web", "help", "completion",
    ]

    /// Runs `script` in `shell` (which must exist: the test says so and fails otherwise).
    static func shell(_ shell: String, _ script: String) throws -> String {
        let path = "/usr/bin/" + shell
        guard FileManager.default.isExecutableFile(atPath: path) else {
            Issue.record("\(path) is missing: make deps installs it (tools/debian-packages.txt)")
            return ""
        }
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = GlanceExecutable.folderForPATH + ":" + (environment["PATH"] ?? "")
        let result = try runProcess(path, ["-c", script], environment: environment, seconds: 120)
        #expect(result.status == 0, "\(shell) -c \(script): \(result.stderr)")
        return result.stdout
    }

    @Test("every command has help: glance help COMMAND is glance COMMAND --help, and lists the exit statuses")
    func everyCommandsHelp() throws {
        let top = try Executable.run(["--help"])
        // The list above is every command glance --help lists, no more and no fewer.
        let listed = top.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }.filter { !$0.allSatisfy(\.isNumber) }
        #expect(listed == Self.commands, "glance --help lists \(listed)")
        for name in Self.commands {
            #expect(top.stdout.contains("\n  \(name) "), "glance --help lists \(name)")
            let a = try Executable.run([name, "--help"])
            let b = try Executable.run(["help", name])
            #expect(a.status == 0 && b.status == 0, "\(name)")
            #expect(a.stdout == b.stdout, "\(name)")
            #expect(a.stdout.hasPrefix("Usage: glance \(name)"), "\(name)")
            #expect(a.stdout.contains("\nExit status:\n  0 "), "\(name) --help lists its exit statuses")
            #expect(a.stdout.split(separator: "\n").allSatisfy { $0.count <= 96 }, "\(name): a line over 96 columns")
        }
        let unknown = try Executable.run(["help", "paint"])
        #expect(unknown.status == 64 && unknown.stderr.contains("unknown command 'paint'"))
    }

    @Test("--version prints the version the package carries")
    func version() throws {
        let result = try Executable.run(["--version"])
        #expect(result.status == 0)
        let parts = result.stdout.split(separator: " ")
        #expect(parts.first == "glance")
        #expect(parts.count == 2 && parts[1].first?.isNumber == true, "\(result.stdout)")
    }

    @Test("the man page is clean roff (mandoc -Tlint) and documents every command and option")
    func manPage() throws {
        let folder = Executable.scratch("man")
        let page = folder + "/glance.1"
        let result = try Executable.run(["help", "--man"])
        #expect(result.status == 0)
        try result.stdout.write(toFile: page, atomically: true, encoding: .utf8)
        #expect(try Self.shell("sh", "mandoc -Tlint -Wwarning '\(page)'") == "", "mandoc finds no warning")
        let text = try Self.shell("sh", "MANWIDTH=100 man -l '\(page)' 2>/dev/null | col -b")
        for name in Self.commands { #expect(text.contains("glance \(name)"), "the man page has \(name)") }
        for option in ["--size", "--connector", "--dim-after", "--skip-invalid", "--render-to", "--table"] {
            #expect(text.contains(option), "the man page has \(option)")
        }
        #expect(text.contains("EXIT STATUS") && text.contains("FILES") && text.contains("/etc/glance/config.json"))
    }

    @Test("the package installs each shell's completion where that shell looks (CompletionScript.installPath)")
    func packagedCompletionPaths() throws {
        let script = try String(contentsOfFile: Repository.root + "/tools/build-deb.sh", encoding: .utf8)
        let line = try #require(script.split(separator: "\n").first { $0.hasPrefix("COMPLETIONS=") }, "no COMPLETIONS= in build-deb.sh")
        let packaged = line.dropFirst("COMPLETIONS=".count).filter { $0 != "\"" }.split(separator: " ").map(String.init)
        let expected = CompletionScript.Shell.allCases.map { "\($0.rawValue):\(CompletionScript.installPath($0, program: "glance"))" }
        #expect(packaged.sorted() == expected.sorted())
    }

    @Test("bash: commands, options, and each option's values complete")
    func bash() throws {
        func complete(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let out = try Self.shell(
                "bash",
                "source <(glance completion bash); COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _glance; "
                    + "printf '%s\\n' \"${COMPREPLY[@]}\"")
            return out.split(separator: "\n").map(String.init).sorted()
        }
        #expect(try complete(["glance", "re"]) == ["render"])
        #expect(try complete(["glance", "render", "--scr"]) == ["--screen"])
        #expect(try complete(["glance", "render", "--screen", ""]) == ["clock", "competition", "family", "gauges", "progress", "rings"])
        #expect(try complete(["glance", "run", "--rotate", "1"]) == ["180"])
        #expect(try complete(["glance", "metric", ""]) == ["list", "remove", "set"])
        #expect(try complete(["glance", "metric", "set", ""]) == [], "the verb is given")
        #expect(try complete(["glance", "goals", ""]) == ["list", "remove", "set"])
        #expect(
            try complete(["glance", "goals", "set", "--"])
                == ["--config", "--db", "--exercise", "--from", "--help", "--move", "--person", "--stand", "--steps"])
        // Only the options the verb takes (task finish takes no --total).
        #expect(try complete(["glance", "task", "finish", "--"]) == ["--db", "--description", "--failed", "--help"])
        #expect(try complete(["glance", "task", "--db", "x.db", "update", "--"]) == ["--db", "--description", "--done", "--help", "--total"])
        #expect(try complete(["glance", "completion", "z"]) == ["zsh"])
        #expect(try complete(["glance", "help", "dem"]) == ["demo", "demo-data"])
        let folder = Executable.scratch("bash-files")
        #expect(FileManager.default.createFile(atPath: folder + "/export.zip", contents: Data()), "a file for the test")
        #expect(FileManager.default.createFile(atPath: folder + "/notes.txt", contents: Data()), "a file for the test")
        #expect(try complete(["glance", "import", folder + "/"]) == [folder + "/export.zip"])
    }

    @Test("fish: the same, through fish's own completion engine")
    func fish() throws {
        func complete(_ line: String) throws -> [String] {
            let out = try Self.shell("fish", "glance completion fish | source; complete -C'\(line)'")
            return out.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }.sorted()
        }
        #expect(try complete("glance ren") == ["render"])
        #expect(try complete("glance render --scr") == ["--screen"])
        #expect(try complete("glance render --screen ") == ["clock", "competition", "family", "gauges", "progress", "rings"])
        #expect(try complete("glance task ").contains("start"))
        #expect(try complete("glance task finish --") == ["--db", "--description", "--failed", "--help"])
        #expect(try complete("glance export --table ") == ["days", "metrics", "tasks"])
    }

    @Test("zsh: the script loads, and hands _arguments each command's options with their values")
    func zsh() throws {
        // _describe and _arguments (zsh's completion system) replaced by printers: what the script
        // asks of them is what zsh would offer.
        let stubs = "_describe() { print -l -- \"${(@P)4}\" }; _arguments() { print -l -- \"$@\" }; _files() { : }; "
        let load = "eval \"$(glance completion zsh | sed '$d')\"; "
        let commands = try Self.shell("zsh", stubs + load + "words=(glance re); CURRENT=2; _glance")
        #expect(commands.contains("render:draw a screen into a PNG file"))
        let render = try Self.shell("zsh", stubs + load + "words=(glance render --s); CURRENT=3; _glance")
        #expect(render.contains("--screen[the screen shown first]:rings|clock|gauges|progress|family|competition:(rings clock gauges progress family competition)"))
        #expect(render.contains("--size[panel size in pixels, 1 to 8192 each side]:WxH: "))
        let finishing = try Self.shell("zsh", stubs + load + "words=(glance task finish --); CURRENT=4; _glance")
        #expect(finishing.contains("--failed[the work failed]") && !finishing.contains("--total"), "\(finishing)")
        let importing = try Self.shell("zsh", stubs + load + "words=(glance import ''); CURRENT=3; _glance")
        #expect(importing.contains("*:FILE:_files -g \"*.(zip|xml|csv|db|json)\""), "\(importing)")
        #expect(try Self.shell("zsh", "glance completion zsh > /dev/null && zsh -n <(glance completion zsh) && echo ok") == "ok\n")
    }
}
