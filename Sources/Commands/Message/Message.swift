import CLI
import Activity
import ControlSocket
import Controls
import Platform

/// `glance message`: a message on the running app's panel, as Home Assistant's notify shows one.
public enum Message {
    /// How it ends, and why (its help's exit statuses: Commands maps each to its number).
    public static let outcomes: [ExitStatusNote] = [
        ExitStatusNote(.ok, "shown"),
        ExitStatusNote(.unavailable, "no running glance answers (start it, or give --socket)"),
        ExitStatusNote(.ioError, "the app's answer could not be read"),
        ExitStatusNote(.temporaryFailure, "the app did not show it: it refused (the reason is said) or did not answer within 5 s"),
        ExitStatusNote(.noPermission, "not allowed to ask (join group glance)"),
    ]

    /// `glance message`'s description (its help), beside what it does.
    public static let about = """
        Shows TEXT on the running glance's panel (glance run, the service) in place of what it shows, as \
        Home Assistant's notify does, until a press or a touch dismisses it (that press does nothing else), \
        --seconds pass, or a newer message takes its place. A dimmed or dark panel is lit while it shows, \
        and dark again after it if it was dark by a command or the schedule.

        The text is wrapped and drawn as large as the panel holds it, never smaller than a figure's size \
        (legible from where people sit, display.diagonal and display.viewingDistance); what does not fit \
        ends in "…". At most 255 bytes of UTF-8; a line feed breaks the line, any other control \
        character (a tab, an escape) is refused. The words given are joined with spaces. The app answers \
        on a socket in its runtime directory, open to root and group glance.
        """

    /// `message` shown by the app at `socket` (else the usual places); ends as `outcomes` says.
    public static func run(_ message: PanelMessage, socket: String?, log: (String) -> Void, say: (String) -> Void) -> Outcome {
        switch PanelClient.command(message.request, socket: socket, what: "glance message") {
        case .success:
            say("shown on the panel for \(message.seconds) s, or until a press")
            return Outcome.ok
        case .failure(let failure):
            log(failure.message)
            return failure.status
        }
    }
}
