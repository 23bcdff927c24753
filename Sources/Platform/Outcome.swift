/// How a command ended, as a value: what it did (ok) or the kind of failure, which the command
/// line turns into the process's exit status (sysexits) in one place (HelperCommands'
/// `Outcome.exit`). The message was told already, through the command's console or log.
public enum Outcome: Sendable, Equatable, CaseIterable {
    case ok
    /// A bad argument: an option, a value or a name that is not accepted.
    case usage
    /// Bad data: an input or a store that is not what it should be, left as it is.
    case dataError
    /// Missing input: a file or store that does not exist or cannot be read.
    case noInput
    /// Something needed is missing (a font, a display, a library opened on first use).
    case unavailable
    /// A bug.
    case software
    /// An output file or a new store cannot be made there.
    case cannotCreate
    /// A read or write failed part way.
    case ioError
    /// Busy (the store, the display held by another process): try again.
    case temporaryFailure
    case noPermission
    /// The configuration file is invalid (or asks for what the display lacks).
    case config
    /// Someone asked the work to stop (Cancel, `glance task cancel`, a signal during an import):
    /// stop; not to be tried again.
    case cancelled
}

/// An outcome as an Error, so `Result` can carry it.
public struct ExitStatus: Error {
    public let code: Outcome
    public init(_ code: Outcome) { self.code = code }
}

/// A failure told by its message, with the outcome it ends the command with.
public struct OutputFailure: Error, CustomStringConvertible {
    public let message: String
    public let status: Outcome
    public init(_ message: String, status: Outcome) {
        self.message = message
        self.status = status
    }
    public var description: String { message }
}
