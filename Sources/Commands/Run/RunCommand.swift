import Runtime
import CLI
import Configuration
import ConfigurationFile
import Controls
import HelperCommands
import Platform
import Raster

/// `glance run`: its declaration and its entry into the runtime (`PanelApp.run`).
extension PanelCommands {
    /// `glance run`'s command line: the settings layer it makes, and the configuration file.
    struct Run {
        var layer = Layer()
        var config: String?

        /// The layer, for `run`'s own options (no key path made when one is given: the packaged
        /// unit gives --report-startup at every start).
        static let layerAccess: PartAccess<Run, Layer> = { (run, body) throws(UsageError) in try body(&run.layer) }
    }

    static let run = CommandSpec<Run>(
        "run", summary: "show the app on the display (DRM/KMS) until SIGTERM",
        usage: ["run [options]"],
        about: runAbout,
        groups: [
            OptionGroup(
                "Display",
                Configuration.options(
                    ["--card", "--connector", "--mode", "--rotate", "--format", "--legacy", "--single-buffer", "--intro",
                     "--report-startup", "--report-frames"], through: Run.layerAccess)
                    + [
                        .refused("--size", message: "run: --size is for glance render; the display's mode sets the size (--mode WxH)"),
                        .refused("--output", "-o", message: "run: --output is for glance render; the display's mode sets the size (--mode WxH)"),
                        .refused("--frames", message: "run: --frames is for glance render; the display's mode sets the size (--mode WxH)"),
                        .refused("--fps", message: "run: --fps is for glance render; the display's mode sets the size (--mode WxH)"),
                    ]),
        ] + ScreenOptions.groups(\Run.layer, config: \Run.config) + [
            OptionGroup(
                "Data: the store (days, metrics, tasks), redrawn whenever it changes",
                [
                    CommonOptions.database(
                        \Run.layer,
                        help: CommonOptions.storeHelp + "; a day given with --move … or a gauge or progress given on the command line is shown instead")
                ]),
            OptionGroup(
                "Input and behaviour (defaults from the configuration file)",
                Configuration.options(
                    ["--no-input", "--no-grab", "--input-dir", "--socket", "--dim-after", "--blank-after"],
                    through: Run.layerAccess)),
        ],
        epilogue: KeyMap.defaultsHelp + "\n\n`glance devices` lists the cards, connectors, modes and formats to choose from.",
        exits: runOutcomes,
        finish: { _ in })

    static func runMain(_ line: Run) -> Outcome {
        let started = monotonicNow()
        return ConfigurationFile.withSettings(line.config, commandLine: line.layer, console: console) {
            PanelApp.run($0, started: started, configuration: line.config, commandLine: line.layer, log: console.complain, say: console.say)
        }
    }

    /// How it ends, and why (its help's exit statuses: Commands maps each to its number).
    static let runOutcomes: [ExitStatusNote] = [
        ExitStatusNote(.ok, "stopped by SIGTERM or SIGINT, display restored"),
        ExitStatusNote(.noInput, "the default configuration file exists but cannot be read"),
        ExitStatusNote(
            .unavailable,
            "no display: no /dev/dri card, no connected connector, nothing plugged into the requested "
                + "connector; or no font for the labels (the message names the package)"),
        ExitStatusNote(.ioError, "a DRM call failed (the message names it)"),
        ExitStatusNote(
            .temporaryFailure,
            "another program (a display server) holds the display, or the console in front did not let "
                + "the app's console come to the front; try again when it stops. Also when the store's file was "
                + "replaced by another while shown (it is not followed: started again, the app shows the new one)"),
        ExitStatusNote(.noPermission, "permission denied opening the card (add the user to group video)"),
        ExitStatusNote(
            .config,
            "the requested connector, mode or format does not exist on this display (the message lists "
                + "what does), or the configuration file is invalid (every problem is listed with its JSON path)"),
    ]

    /// `glance run`'s description (its help).
    static let runAbout = """
        Shows a screen on the display through DRM/KMS (no X or Wayland needed) until it gets SIGTERM or \
        SIGINT; then puts back what the display showed before (the console) and exits 0. SIGHUP \
        (systemctl reload glance) reads the configuration again and applies it in place, the display \
        included, without the console showing between; an invalid file is logged with every problem and \
        the running configuration stays. It \
        shows the store's days, gauges and running task (see --db), or the screen and day given with \
        the options below; buttons and touch move between screens and days. It draws only when \
        something changed: a screen that moves (a spinner, an easing progress) is redrawn on a timer; \
        a still one once, and the process then sleeps until input, a change in the store, dimming or \
        midnight.

        On a text console (its own, or the one in front through /dev/tty0) it hides the console while \
        it shows, and a switch to another console (chvt; Ctrl+Alt+Fn from a keyboard that is not \
        grabbed, see --no-grab) gives the display, the input devices and the backlight up until you \
        switch back (nothing dims meanwhile). Started on a console that is not in front (systemd's \
        TTYPath=, or < /dev/ttyN as root), it switches to it first, as display servers do.
        """
}
