import DeviceLogic
import Activity
import Runtime
import CLI
import Configuration
import Raster
import Store
import Platform
import ControlSocket
import ConfigurationFile
import HelperCommands

/// The `glance` command line: each command's declaration (options, help, exit statuses) and what
/// it runs, in App.
public enum Glance {
    /// A command by its name, declared only when it is asked for: `glance run` declares itself
    /// alone, not the other commands too (all of them measured 4.7 M instructions, most of it the
    /// runtime instantiating their generic types, 0.1 to 0.2 s in the VM before `run` began).
    struct Listed: Sendable {
        /// The command's name (`make().description.name`: the help tests run each by it).
        let name: String
        let make: @Sendable () -> CommandEntry
        init(_ name: String, _ make: @escaping @Sendable () -> CommandEntry) {
            self.name = name
            self.make = make
        }
    }

    public static let version = BuildInfo.version
    static let name = "glance"

    /// A titled group of commands in `--help`. (A struct, not a tuple: an array of tuples brings
    /// the runtime's tuple metadata code into every start, docs/speed.md.)
    struct Section: Sendable {
        let title: String
        let entries: [Listed]
        init(_ title: String, _ entries: [Listed]) {
            self.title = title
            self.entries = entries
        }
    }

    static let sections: [Section] = [
        Section(
            "Commands",
            [
                Listed("render") { PictureCommands.render.entry(.init(), PictureCommands.renderMain) },
                Listed("bench") { PictureCommands.bench.entry(.init(), PictureCommands.benchMain) },
                Listed("demo") {
                    PictureCommands.demo.entry(.init(folder: "out", size: Size(width: 800, height: 480))) { Pictures.demo($0, console: console) }
                },
                Listed("config") {
                    config.entry(.init()) {
                        $0.settings
                            ? console.result(String(Configuration.settingsPage.dropLast())) : ConfigurationFile.check($0.file, console: console)
                    }
                },
                Listed("run") { PanelCommands.run.entry(.init(), PanelCommands.runMain) },
                Listed("screenshot") { PanelCommands.screenshot.entry(.init(), PanelCommands.screenshotMain) },
                Listed("message") { PanelCommands.message.entry(.init(), PanelCommands.messageMain) },
                Listed("devices") {
                    PanelCommands.devices.entry(false) { $0 ? ScriptJSON.devices(console: console) : DeviceList.run(console: console) }
                },
            ]
        ),
        Section(
            "Data (the store: a SQLite file, see --db in each command's help)",
            [
                Listed("import") { ImportCommand.spec.entry(.init(), runs: .import) },
                Listed("log") { DataCommands.log.entry(.init()) { StoreJobs.log($0, console: console) } },
                Listed("goals") {
                    DataCommands.goals.entry(.init()) { StoreJobs.goals($0.job, database: $0.database, person: $0.person, config: $0.config, console: console) }
                },
                Listed("metric") {
                    DataCommands.metric.entry(.init()) {
                        $0.json
                            ? ScriptJSON.metrics(database: $0.database, console: console)
                            : StoreJobs.metric($0.job, database: $0.database, console: console)
                    }
                },
                Listed("task") {
                    DataCommands.task.entry(.init()) {
                        $0.json
                            ? ScriptJSON.tasks(database: $0.database, console: console)
                            : StoreJobs.task($0.job, database: $0.database, console: console)
                    }
                },
                Listed("export") {
                    DataCommands.export.entry(.init()) {
                        StoreJobs.export(
                            $0.table, output: $0.output, database: $0.database, person: $0.person, json: $0.json,
                            readings: $0.readings, config: $0.config, console: console)
                    }
                },
                Listed("demo-data") { DataCommands.demoData.entry(.init()) { StoreJobs.demoData($0, console: console) } },
                Listed("watch") { PanelCommands.watch.entry(.init(), PanelCommands.watchMain) },
                Listed("serve") { ServeCommand.spec.entry(.init(), runs: .serve) { settingsRefused($0.config, $0.layer) } },
                Listed("mqtt") { MQTTCommand.spec.entry(.init(), runs: .mqtt) { settingsRefused($0.config, $0.layer) } },
                Listed("people") { PeopleCommand.spec.entry(.init(), runs: .people) { settingsRefused($0.config, $0.layer) } },
                Listed("web") { WebCommand.spec.entry(.init(), runs: .web) { settingsRefused($0.config, $0.layer) } },
            ]
        ),
        Section(
            "Help",
            [
                Listed("help") { Builtins.help(name).entry(.init()) { console.answer(Builtins.help($0, of: program)) } },
                Listed("completion") {
                    Builtins.completion(name).entry(nil) { $0.map { console.result(Builtins.completion($0, of: program)) } ?? .usage }
                },
            ]
        ),
    ]

    static let program = ProgramDescription(
        name: name, version: version, date: BuildInfo.date,
        summary: "Activity rings, gauges and progress, drawn straight to a small panel",
        about: """
            Glance turns a small Linux board with a small screen into a glanceable display: Activity rings, \
            gauges and progress, drawn straight to the panel.
            """,
        sections: sections.map { ($0.title, $0.entries.map { $0.make().description }) },
        exits: Outcome.allCases.map(\.exit),
        files: [
            (Configuration.defaultPath, "the configuration (glance config check; glance config settings lists every setting)"),
            (ServeSetting().tokenFile, "glance serve's bearer token (root and group glance only; glance serve token shows it)"),
        ] + StoreLocation.files + ControlSocketLocation.files + [
            ("/sys/class/backlight/*", "the panel's backlight, dimmed and turned off by glance run"),
            ("/dev/dri/card*, /dev/input/event*", "the display (DRM/KMS) and the buttons and touch (evdev) glance run uses"),
        ],
        environment: [
            ("LC_ALL, LC_MESSAGES, LANG", "the language of the labels (en, or zh_CN… for Simplified Chinese)"),
            ("LC_ALL, LC_TIME, LANG", "how the time is written when the configuration does not say (12- or 24-hour)"),
            ("TZ", "the time zone of the days, of midnight and of the clock"),
        ] + StoreLocation.environment + ControlSocketLocation.environment + [
            ("FONTCONFIG_FILE, FONTCONFIG_PATH, FONTCONFIG_SYSROOT", "fontconfig decides every font when one is set"),
            ("NOTIFY_SOCKET, WATCHDOG_USEC", "systemd's notification socket and watchdog (glance run and serve as services)"),
        ],
        settings: Configuration.settingEntries)

    /// Runs the command line `arguments` (without the program name); returns the exit status
    /// (the outcome's, or a bad argument's).
    public static func main(_ arguments: [String]) -> Int32 {
        switch run(arguments) {
        case .outcome(let outcome): outcome.exitStatus
        case .refused(let status): status
        }
    }

    /// How a command line ended: its work's outcome, or refused before it began (a bad argument,
    /// an output that cannot be written) with that exit status.
    enum Ended {
        case outcome(Outcome)
        case refused(Int32)
    }

    static func run(_ arguments: [String]) -> Ended {
        var listed: [Listed] = []
        for section in sections { listed += section.entries }
        switch ProgramDescription.start(arguments, name: name, version: version, commands: listed.map(\.name), help: { program.help }) {
        case .answer(let answer): return .outcome(console.answer(answer))
        case .command(let command, let rest):
            do {
                // `start` let through only a listed name.
                return .outcome(try listed.first { $0.name == command }!.make().main(rest))
            } catch {
                console.complain(error.message)
                return .refused(error.status)
            }
        }
    }
}
