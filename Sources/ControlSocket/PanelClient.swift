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
    /// (refused, said why, or no answer in time), `ioError` (the answer could not be read).
    public static func command(
        _ request: String, socket: String?, what: String, timeout: Duration = .seconds(5)
    ) -> Result<Void, OutputFailure> {
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
        if text == "ok" { return .success(()) }
        if text.hasPrefix("refused ") {
            return .failure(
                OutputFailure(
                    "the running glance did not show it: \(Quote.clip(String(text.dropFirst("refused ".count)), 200))",
                    status: Outcome.temporaryFailure))
        }
        return .failure(
            OutputFailure(
                answer.isEmpty ? "the running glance closed the connection without an answer" : "the running glance answered '\(Quote.clip(text, 80))'",
                status: Outcome.ioError))
    }
}
