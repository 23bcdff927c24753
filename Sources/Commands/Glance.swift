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
        program, the store busy) or cancelled (nothing changed; try again), 77 permission denied,
        78 bad configuration.
        """

    private static func printHelp(_ text: String) -> Int32 {
        print(text)
        return ExitCode.ok
    }

    /// Runs the command line `arguments` (without the program name); returns the exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first else {
            complain("no command given\n\n\(help)")
            return ExitCode.usage
        }
        let rest = Array(arguments.dropFirst())
        do {
            switch command {
            case "--help", "-h", "help":
                print(help)
                return ExitCode.ok
            case "render":
                guard let render = try RenderCommand.parse(rest) else {
                    print(RenderCommand.help)
                    return ExitCode.ok
                }
                return render.run()
            case "bench":
                guard let bench = try BenchCommand.parse(rest) else {
                    print(BenchCommand.help)
                    return ExitCode.ok
                }
                return bench.run()
            case "demo":
                guard let demo = try DemoCommand.parse(rest) else {
                    print(DemoCommand.help)
                    return ExitCode.ok
                }
                return demo.run()
            case "config":
                guard let config = try ConfigCommand.parse(rest) else {
                    print(ConfigCommand.help)
                    return ExitCode.ok
                }
                return config.run()
            case "run":
                guard let run = try RunCommand.parse(rest) else {
                    print(RunCommand.help)
                    return ExitCode.ok
                }
                return run.run()
            case "devices":
                guard let devices = try DevicesCommand.parse(rest) else {
                    print(DevicesCommand.help)
                    return ExitCode.ok
                }
                return devices.run()
            case "import": return try ImportCommand.parse(rest)?.run() ?? printHelp(ImportCommand.help)
            case "log": return try LogCommand.parse(rest)?.run() ?? printHelp(LogCommand.help)
            case "metric": return try MetricCommand.parse(rest)?.run() ?? printHelp(MetricCommand.help)
            case "task": return try TaskCommand.parse(rest)?.run() ?? printHelp(TaskCommand.help)
            case "export": return try ExportCommand.parse(rest)?.run() ?? printHelp(ExportCommand.help)
            case "demo-data": return try DemoDataCommand.parse(rest)?.run() ?? printHelp(DemoDataCommand.help)
            case "watch": return try WatchCommand.parse(rest)?.run() ?? printHelp(WatchCommand.help)
            default:
                complain(
                    "unknown command '\(command)' (commands: render, bench, demo, config, run, devices, import, log, "
                        + "metric, task, export, demo-data, watch; see glance --help)")
                return ExitCode.usage
            }
        } catch {
            complain(error.message)
            return ExitCode.usage
        }
    }
}
