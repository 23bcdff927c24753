import Activity
import Platform

/// A client's side of the panel's control socket, for the commands that ask the running glance
/// something (`glance screenshot`, `glance message`, and glance-serve's `glance people token NAME
/// --panel`): the connection, found where `ControlSocketLocation` says, and a command's answer.
public enum PanelClient {
    /// A connection to the running app's control socket at `socket` (else the usual places), or
    /// why there is none, `unavailable` or `noPermission`.
    public static func connect(_ socket: String?) -> Result<PacketSocket, OutputFailure> {
        let candidates = socket.map { [$0] } ?? ControlSocketLocation.clientPaths()
        var problems: [(String, SystemError)] = []
        for path in candidates {
            do throws(SystemError) {
                return .success(try PacketSocket.connect(to: path))
            } catch {
                problems.append((path, error))
            }
        }
        if let denied = problems.first(where: { $0.1.errno == .permissionDenied || $0.1.errno == .notPermitted }) {
            return .failure(
                OutputFailure(
                    "\(denied.0): permission denied: the running glance's socket is for root and group glance "
                        + "(sudo adduser $USER glance, then log in again)", status: Outcome.noPermission))
        }
        return .failure(
            OutputFailure(
                "no running glance answers (" + problems.map { "\($0.0): \($0.1.errno)" }.joined(separator: "; ")
                    + "); start it (glance run, or systemctl start glance), or give --socket PATH", status: Outcome.unavailable))
    }

    /// `request` (a command: answered `ok` or `refused WHY`) sent to the app at `socket` (else the
    /// usual places), waiting at most `timeout` for its answer; `what` names the command in a
    /// failure to send. Fails `unavailable` or `noPermission` (no connection), `temporaryFailure`
    /// (refused, said why, or no answer in time), `ioError` (the answer could not be read). A
    /// refusal's message is `refused`, `: ` and the panel's reason as it said it (control
    /// characters shown as `Quote.clip` shows them), so a caller can show the reason alone:
    /// `reload`'s is the new configuration's first problem.
    public static func command(
        _ request: String, socket: String?, what: String, refused: String = "the running glance did not show it",
        timeout: Duration = .seconds(5)
    ) -> Result<Void, OutputFailure> {
        exchange(request, socket: socket, what: what, refused: refused, timeout: timeout).flatMap { text in
            if text == "ok" { return .success(()) }
            return .failure(
                OutputFailure(
                    text.isEmpty ? "the running glance closed the connection without an answer" : "the running glance answered '\(Quote.clip(text, 80))'",
                    status: Outcome.ioError))
        }
    }

    /// `request` (one that is answered with a line: `state`, `panel`) sent to the app at `socket`
    /// (else the usual places), and its answer's text, waiting at most `timeout`. Fails as
    /// `command` does: `unavailable` or `noPermission`, `temporaryFailure` (refused: the message
    /// `the running glance refused REQUEST: REASON`; or no answer in time), `ioError` (no answer
    /// could be read, or an empty one).
    public static func ask(_ request: String, socket: String?, timeout: Duration = .seconds(5)) -> Result<String, OutputFailure> {
        let what = Quote.clip(request, 32)
        return exchange(request, socket: socket, what: "the request '\(what)'", refused: "the running glance refused '\(what)'", timeout: timeout)
            .flatMap { text in
                text.isEmpty
                    ? .failure(OutputFailure("the running glance closed the connection without an answer", status: Outcome.ioError))
                    : .success(text)
            }
    }

    /// The answer to `request`, read whole (at most 512 bytes) as text; a refusal is the failure
    /// `refused: REASON` (`temporaryFailure`).
    static func exchange(
        _ request: String, socket: String?, what: String, refused: String, timeout: Duration
    ) -> Result<String, OutputFailure> {
        let connection: PacketSocket
        switch connect(socket) {
        case .success(let c): connection = c
        case .failure(let failure): return .failure(failure)
        }
        let answer: [UInt8]?
        do throws(SystemError) {
            try connection.send(Array(request.utf8))
            if try waitForReadable([connection.descriptor], timeout: timeout).isEmpty {
                answer = nil
            } else {
                let received = try connection.receive(capacity: 512)
                received?.fd?.close()
                answer = received?.bytes ?? []
            }
        } catch {
            return .failure(OutputFailure("\(what): \(error)", status: Outcome.ioError))
        }
        guard let answer else {
            return .failure(
                OutputFailure("the running glance did not answer within \(Int(timeout / .seconds(1))) s", status: Outcome.temporaryFailure))
        }
        let text = String(decoding: answer, as: UTF8.self)
        if text.hasPrefix("refused ") {
            // (The panel's answers are at most 400 bytes: the whole reason, its control
            // characters shown, never cut.)
            return .failure(
                OutputFailure("\(refused): \(Quote.clip(text.dropFirst("refused ".count), 512))", status: Outcome.temporaryFailure))
        }
        return .success(text)
    }
}
