import CLI
import Platform

extension Outcome {
    /// The exit status (sysexits.h) of each way a command ends and what it means: the one place
    /// they are mapped, and the program's table of them (the manual's EXIT STATUS; docs/reliability.md
    /// has it too, and a test runs every command through each situation and holds both to it).
    package var exit: ExitStatusNote {
        switch self {
        case .ok: ExitStatusNote(ExitCode.ok, "success")
        case .usage:
            ExitStatusNote(ExitCode.usage, "bad argument: an option, a value or a name that is not accepted (out of its range, say)")
        case .dataError:
            ExitStatusNote(
                ExitCode.dataError,
                "bad data: an input or a store that is not what it should be (damaged, someone else's, too new), left as it is")
        case .noInput: ExitStatusNote(ExitCode.noInput, "missing input: a file or store that does not exist or cannot be read")
        case .unavailable:
            ExitStatusNote(
                ExitCode.unavailable,
                "unavailable: something needed is missing (a font, a display, a library opened on first use, the executable a command runs)")
        case .software: ExitStatusNote(ExitCode.software, "internal error: a bug (please report it)")
        case .cannotCreate: ExitStatusNote(ExitCode.cannotCreate, "cannot create: an output file or a new store cannot be made there")
        case .ioError:
            ExitStatusNote(ExitCode.ioError, "input/output error: a read or write failed part way (a full disk, a read-only mount)")
        case .temporaryFailure:
            ExitStatusNote(ExitCode.temporaryFailure, "busy: the store or the display held by another process (nothing changed); try again")
        case .noPermission:
            ExitStatusNote(ExitCode.noPermission, "permission denied: this user may not open the store, a file or the display")
        case .config:
            ExitStatusNote(ExitCode.config, "bad configuration: the configuration file is invalid (glance config check says where)")
        case .cancelled:
            ExitStatusNote(
                ExitCode.cancelled,
                "cancelled: someone asked the work to stop (Cancel on the screen, glance task cancel, Ctrl-C during an import); "
                    + "stop, do not try again")
        }
    }

    package var exitStatus: Int32 { exit.code }
}

extension ExitStatusNote {
    /// A command's own words for how it ends `outcome`: the status is the outcome's, never a
    /// number written by hand.
    package init(_ outcome: Outcome, _ meaning: String) {
        self.init(outcome.exitStatus, meaning)
    }
}
