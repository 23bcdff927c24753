import App
import CLI

/// Where the commands' words go: the process's standard output and error (App's work is given it).
let console = Console.standard

extension Outcome {
    /// The exit status (sysexits.h) of each way a command ends: the one place they are mapped.
    var exitStatus: Int32 {
        switch self {
        case .ok: ExitCode.ok
        case .usage: ExitCode.usage
        case .dataError: ExitCode.dataError
        case .noInput: ExitCode.noInput
        case .unavailable: ExitCode.unavailable
        case .software: ExitCode.software
        case .cannotCreate: ExitCode.cannotCreate
        case .ioError: ExitCode.ioError
        case .temporaryFailure: ExitCode.temporaryFailure
        case .noPermission: ExitCode.noPermission
        case .config: ExitCode.config
        case .cancelled: ExitCode.cancelled
        }
    }
}
