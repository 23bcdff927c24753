/// The `glance` command line: subcommands only; each parses its options by hand.
public enum Glance {
    public static let help = """
        Usage: glance COMMAND [options]

        Glance turns a small Linux board with a small screen into a glanceable display:
        Activity rings, gauges and progress, drawn straight to the panel.

        Commands:
          render      draw a screen into a PNG file (headless, same renderer as the panel)
          bench       time full frames against a full-frame fill
          demo        draw the demo screens into a folder of PNG files
          config      check the configuration file (glance config check)
          run         show the app on the display (DRM/KMS) until SIGTERM
          devices     list display cards, connectors, modes, planes and input devices

        Data (the store: a SQLite file, see --db in each command's help):
          import      import an Apple Health export (export.zip, export.xml or CSV)
          log         set a day's Move, Exercise and Stand figures
          metric      set, list or remove the numbers gauges show
          task        start, update, finish or cancel work shown on the progress screen
          export      write the store's days, metrics or tasks as CSV
          demo-data   load the bundled demo days and metrics into the store
          watch       draw a day's rings into a PNG again whenever the store changes

        Run `glance COMMAND --help` for a command's options.

        Exit status: 0 success, 64 bad arguments, 65 bad input data, 66 an input file cannot be
        read, 69 something needed is missing (a font, a display), 70 internal error, 73 cannot
        create an output file, 74 input/output error, 75 busy (the display held by another
        program, the store busy) or cancelled (the data unchanged; try again), 77 permission denied,
        78 bad configuration.
        """

    /// The subcommands, in the order `glance --help` lists them.
    static var commands: [(name: String, type: any Subcommand.Type)] {
        [
            ("render", RenderCommand.self), ("bench", BenchCommand.self), ("demo", DemoCommand.self),
            ("config", ConfigCommand.self), ("run", RunCommand.self), ("devices", DevicesCommand.self),
            ("import", ImportCommand.self), ("log", LogCommand.self), ("metric", MetricCommand.self),
            ("task", TaskCommand.self), ("export", ExportCommand.self), ("demo-data", DemoDataCommand.self),
            ("watch", WatchCommand.self),
        ]
    }

    /// Runs the command line `arguments` (without the program name); returns the exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first else {
            complain("no command given\n\n\(help)")
            return ExitCode.usage
        }
        let rest = Array(arguments.dropFirst())
        if ["--help", "-h", "help"].contains(command) {
            print(help)
            return ExitCode.ok
        }
        guard let type = commands.first(where: { $0.name == command })?.type else {
            complain(
                "unknown command '\(command)' (commands: \(commands.map(\.name).joined(separator: ", ")); "
                    + "see glance --help)")
            return ExitCode.usage
        }
        do {
            return try type.main(rest)
        } catch {
            complain(error.message)
            return ExitCode.usage
        }
    }
}

/// A `glance` subcommand: parses its arguments (nil: --help was asked) and runs.
protocol Subcommand {
    static var help: String { get }
    static func parse(_ argv: [String]) throws(UsageError) -> Self?
    func run() -> Int32
}

extension Subcommand {
    /// Parses and runs, or prints the help.
    static func main(_ argv: [String]) throws(UsageError) -> Int32 {
        guard let command = try parse(argv) else {
            print(help)
            return ExitCode.ok
        }
        return command.run()
    }
}

extension RenderCommand: Subcommand {}
extension BenchCommand: Subcommand {}
extension DemoCommand: Subcommand {}
extension ConfigCommand: Subcommand {}
extension RunCommand: Subcommand {}
extension DevicesCommand: Subcommand {}
extension ImportCommand: Subcommand {}
extension LogCommand: Subcommand {}
extension MetricCommand: Subcommand {}
extension TaskCommand: Subcommand {}
extension ExportCommand: Subcommand {}
extension DemoDataCommand: Subcommand {}
extension WatchCommand: Subcommand {}
