import Runtime
import CLI
import Configuration
import ConfigurationFile
import Controls
import HelperCommands
import Platform

/// `glance message`: its declaration; the work is `Message`, beside it.
extension PanelCommands {
    struct Note {
        var words: [String] = []
        var seconds = PanelMessage.defaultSeconds
        var socket: String?
        /// The message, once the words are checked.
        var message: PanelMessage?
    }

    static let message = CommandSpec<Note>(
        "message", summary: "show a message on the running app's panel until a press, as Home Assistant's notify does",
        usage: ["message [--seconds N] [--socket PATH] TEXT…"],
        about: Message.about,
        groups: [
            OptionGroup(
                "",
                [
                    .value(
                        "--seconds", as: Value.count(1...PanelMessage.maximumSeconds),
                        help: "how long it stays without a press (1 to \(PanelMessage.maximumSeconds))",
                        default: "\(PanelMessage.defaultSeconds)", to: \.seconds),
                    .value(
                        "--socket", as: Value.file("PATH"), help: "the running app's control socket",
                        default: "$XDG_RUNTIME_DIR/glance/glance.sock when there is one (your own glance run), else /run/glance/glance.sock (the service)", to: \.socket),
                ])
        ],
        operands: Operands("TEXT") { words, note in note.words = words },
        exits: Message.outcomes,
        finish: { (note) throws(UsageError) in
            guard !note.words.isEmpty else { throw UsageError("message: give the text to show (glance message TEXT)") }
            switch PanelMessage.check(Array(note.words.joined(separator: " ").utf8)) {
            case .success(let text): note.message = PanelMessage(text: text, seconds: note.seconds)
            case .failure(let refusal): throw UsageError(refusal.reason)
            }
        })

    static func messageMain(_ note: Note) -> Outcome {
        guard let message = note.message else { return Outcome.usage }
        return Message.run(message, socket: note.socket, log: console.complain, say: console.say)
    }
}
