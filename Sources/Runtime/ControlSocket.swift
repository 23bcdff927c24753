import Clocks
import Activity
import ControlSocket
import Controls
import DeviceLogic
import ImageFile
import Platform
import Raster


/// The running app's control socket, in its runtime directory: `glance screenshot` asks it for
/// the frame on the panel. A Unix socket of messages, mode 0660, group glance where that group
/// exists, so the group's members may ask.
///
/// The conversation: the client sends `screenshot`; the app answers `picture W H` with a memory
/// file (memfd) of W×H XRGB8888 pixels, rows packed, the picture upright as a person sees it; or
/// `refused WHY` without one. The app never waits on a client: every read and write is
/// non-blocking, and a client that does not ask at once is dropped after a few others.
///
/// The home's commands (`PanelRequest`, from `glance mqtt`) come the same way: `show clock`,
/// `next`, `brightness 40`, … answered `ok` or `refused WHY`; `state` is answered with the
/// `PanelState` line, `panel` with the `PanelFacts` line (the picture's size, rotation, outline,
/// physical size and viewing distance, the connector and pixel format); `reload` reads the
/// configuration file again as SIGHUP does and is answered `ok` (applied, or nothing changed) or
/// `refused WHY` (the first problem; the running configuration stays), the log saying which
/// user asked. A client that sends `watch` stays connected: it gets the state at once and
/// again whenever it changes, and may send commands on that connection. One watch a user (by the
/// peer's credentials: a user's new watch replaces its old one, as a restarted bridge's does) and
/// four users at most, so nobody can push Home Assistant's bridge out by watching twice. A
/// screenshot's answer holds a copy of the frame until the client reads it: at most two unread a
/// user and eight in all, the rest refused until they are read (a client that never reads pins
/// no more). Every request is one datagram of at most 64 bytes, parsed strictly
/// (`PanelRequest.parse`), but a message to show (`message TEXT`: its text up to 255 bytes, checked
/// as strictly, `PanelMessage`) and a phone's QR code (`qr WIDTH HEX CAPTION`, `PanelQRCode`: up
/// to 77 modules a side; while it shows, `screenshot` is refused, as its modules carry a token). When a message goes (a press, its time, a newer one) the watchers
/// are told in a line of its own, `message dismissed pressed|timeout|replaced`, before the state.
public final class ControlServer: ReadingSource {
    public let path: String
    let listener: PacketListener
    /// Connected clients that have not asked yet, oldest first.
    private var clients: [PacketSocket] = []
    static let maximumClients = 4
    /// The panel the home's commands go to (as `PanelRemote`'s events), and whose state is told
    /// (nil: only screenshots).
    public var remote: PanelController?
    /// Clients that asked to `watch` the state (one a user), and the state they were told last.
    private var watchers: [(socket: PacketSocket, user: UInt32?)] = []
    private var told: String?
    static let maximumWatchers = 4
    /// Screenshot answers not read yet, by the user who asked (the connection kept open to tell).
    private var unread: [(socket: PacketSocket, user: UInt32?)] = []
    static let maximumUnreadPerUser = 2
    static let maximumUnread = 8
    /// Messages taken from one client in one turn: a client that floods waits for the next.
    static let messagesPerTurn = 8

    /// Listens at `path`, making its folder (0750) when missing.
    public init(path: String) throws(SystemError) {
        self.path = path
        let group = ControlSocketLocation.prepareFolder(for: path)
        listener = try PacketListener(path: path, mode: 0o660, group: group)
    }

    /// Where the frame on the panel comes from, and where problems are told, once the session
    /// answers from its loop (`Session.control`): what `handle(ready:now:)`, the loop's shape of
    /// a source, answers with.
    public var picture: () -> Result<PixelBuffer, PictureRefusal> = { .failure(PictureRefusal("no panel answers here")) }
    /// The output as `panel` tells it (nil: no panel answers here).
    public var output: () -> Session.OutputFacts? = { nil }
    /// The configuration read again for `reload`, asked by the client it names; nil: nothing
    /// reloads here.
    public var reload: (Duration, String) -> ReloadOutcome? = { _, _ in nil }
    public var problems: (String) -> Void = { _ in }

    /// The listening socket and the clients that have not asked yet.
    public var descriptors: [FileDescriptor] { [listener.descriptor] + clients.map(\.descriptor) + watchers.map(\.socket.descriptor) }

    /// The loop's shape of a source: `handle` with the picture and the problems' place it was
    /// given.
    public func handle(ready: [FileDescriptor], now: Duration) -> Bool {
        handle(ready: ready, picture: picture, log: problems, now: now)
    }

    public func nextDeadline(now: Duration) -> Duration? { nil }

    /// Accepts waiting connections and answers the requests that came; `picture` gives the frame
    /// on the panel (or why there is none). Problems are told through `log`, never thrown: a bad
    /// client must not stop the panel. True when a command changed the picture.
    @discardableResult
    public func handle(
        ready: [FileDescriptor], picture: () -> Result<PixelBuffer, PictureRefusal>, log: (String) -> Void,
        now: Duration = monotonicNow()
    ) -> Bool {
        if ready.contains(listener.descriptor) {
            while let client = try? listener.accept() {
                clients.append(client)
                if clients.count > Self.maximumClients { clients.removeFirst() }
            }
        }
        var changed = false
        // Every client is asked (non-blocking): a request may have come with the connection. Each
        // is answered once, then let go; one that has not asked yet is kept; a watcher stays.
        var waiting: [PacketSocket] = []
        for client in clients {
            switch receive(client) {
            case .none: waiting.append(client)
            case .gone: continue
            case .request(let bytes):
                let request = PanelRequest.parse(bytes)
                if case .success(.watch) = request {
                    watch(client)
                    continue
                }
                changed = answer(client, request: request, picture: picture, log: log, now: now) || changed
            }
        }
        clients = waiting
        var staying: [(socket: PacketSocket, user: UInt32?)] = []
        for entry in watchers {
            let watcher = entry.socket
            var open = true
            reading: for _ in 0..<Self.messagesPerTurn {
                switch receive(watcher) {
                case .none: break reading
                case .gone:
                    open = false
                    break reading
                case .request(let bytes):
                    changed = answer(watcher, request: PanelRequest.parse(bytes), picture: picture, log: log, now: now) || changed
                }
            }
            if open { staying.append(entry) }
        }
        watchers = staying
        return changed
    }

    private enum Received { case none, gone, request([UInt8]) }

    /// One message from `client`, without waiting.
    private func receive(_ client: PacketSocket) -> Received {
        // (Room for one byte more than the longest request: a longer one is read cut, and refused.)
        guard let message = try? client.receive(capacity: PanelRequest.maximumRequestBytes + 1, nonblocking: true) else {
            // Nothing yet, or a failed read (it hung up badly): the next poll tells.
            return .none
        }
        message.fd?.close()
        return message.bytes.isEmpty ? .gone : .request(message.bytes)
    }

    private func watch(_ client: PacketSocket) {
        let user = client.peerUser
        if let mine = watchers.firstIndex(where: { $0.user == user }) {
            watchers.remove(at: mine)
        } else if watchers.count >= Self.maximumWatchers {
            try? client.send(Array("refused \(Self.maximumWatchers) users watch already".utf8), nonblocking: true)
            return
        }
        watchers.append((client, user))
        told = nil
    }

    /// The state to every watcher when it changed since it was told (and to a new watcher): called
    /// at the end of every turn of the loop.
    public func notify(now: Duration, wallNow: Double = wallClockNow()) {
        guard let remote else { return }
        // The messages that went, each once (none kept for a watcher to come).
        let ends = remote.takeMessageEnds()
        guard !watchers.isEmpty else { return }
        for end in ends {
            watchers.removeAll { (try? $0.socket.send(Array(end.line.utf8), nonblocking: true)) == nil }
        }
        let text = remote.state(now: now, wallNow: wallNow).text
        guard text != told else { return }
        told = text
        // A watcher that cannot take it now (its queue full: it stopped reading) is let go.
        watchers.removeAll { (try? $0.socket.send(Array(text.utf8), nonblocking: true)) == nil }
    }

    /// One request's answer: the picture, the state, what a command did; true when a command
    /// changed the picture.
    private func answer(
        _ client: PacketSocket, request parsed: Result<PanelRequest, PanelRefusal>,
        picture: () -> Result<PixelBuffer, PictureRefusal>, log: (String) -> Void, now: Duration
    ) -> Bool {
        let request: PanelRequest
        switch parsed {
        case .failure(let refusal):
            try? client.send(Array("refused \(refusal.reason)".utf8), nonblocking: true)
            return false
        case .success(let r): request = r
        }
        switch request {
        case .screenshot:
            // A phone's QR code carries a person's token: no copy of it leaves the panel (Home
            // Assistant's Screenshot image would keep it on the broker).
            if remote?.device.message?.code != nil {
                try? client.send(Array("refused the panel shows a phone's QR code (a person's token): ask again when it is gone".utf8), nonblocking: true)
                return false
            }
            switch picture() {
            case .failure(let refusal):
                try? client.send(Array("refused \(refusal.reason)".utf8), nonblocking: true)
            case .success(let frame):
                // Answers read (or whose client hung up) hold nothing any more.
                unread.removeAll { ($0.socket.unreadBytes ?? 0) == 0 }
                let user = client.peerUser
                let users = unread.filter { $0.user == user }.count
                guard users < Self.maximumUnreadPerUser, unread.count < Self.maximumUnread else {
                    let waiting = users >= Self.maximumUnreadPerUser ? "\(users) of this user's" : "\(unread.count)"
                    try? client.send(Array("refused \(waiting) screenshots are not read yet: read them or hang up".utf8), nonblocking: true)
                    return false
                }
                do {
                    try Self.send(frame, to: client)
                    unread.append((client, user))
                } catch {
                    log("glance screenshot: \(error)")
                }
            }
            return false
        case .state, .watch:
            let text = remote.map { $0.state(now: now, wallNow: wallClockNow()).text } ?? "refused this glance takes no commands"
            try? client.send(Array(text.utf8), nonblocking: true)
            return false
        case .panel:
            let text: String
            if let remote, let output = output() {
                text = remote.facts(output).text
            } else {
                text = "refused no panel answers here"
            }
            try? client.send(Array(text.utf8), nonblocking: true)
            return false
        case .reload:
            // Asked as SIGHUP asks, by whom the log says (the reloader tells the rest: what
            // changed, or every problem).
            let asker = "control socket (\(client.peerUser.map { "uid \($0)" } ?? "uid unknown"))"
            switch reload(now, asker) {
            case .none:
                try? client.send(Array("refused this glance has no configuration to reload".utf8), nonblocking: true)
                return false
            case .refused(let reason):
                try? client.send(Array(Self.refused(reason).utf8), nonblocking: true)
                return false
            case .applied:
                try? client.send(Array("ok".utf8), nonblocking: true)
                return true
            }
        default:
            guard let remote else {
                try? client.send(Array("refused this glance takes no commands".utf8), nonblocking: true)
                return false
            }
            switch remote.perform(request, now: now) {
            case .failure(let refusal):
                try? client.send(Array("refused \(refusal.reason)".utf8), nonblocking: true)
                return false
            case .success(let changed):
                log("control socket: \(request.described)")
                try? client.send(Array("ok".utf8), nonblocking: true)
                return changed
            }
        }
    }

    /// The longest answer but a picture's: a client reads 512 bytes.
    public static let maximumAnswerBytes = 400

    /// `refused REASON` on one line (control characters as `Quote.clip` shows them) and at most
    /// `maximumAnswerBytes`: a longer reason cut, ending in `…`.
    static func refused(_ reason: String) -> String {
        let room = maximumAnswerBytes - "refused ".utf8.count
        // Characters of up to 4 bytes, escapes of 2: as many as fit, found by halving.
        var fits = 0, over = room + 1
        while over - fits > 1 {
            let middle = (fits + over) / 2
            if Quote.clip(reason, middle).utf8.count <= room { fits = middle } else { over = middle }
        }
        return "refused " + Quote.clip(reason, max(1, fits))
    }

    /// `picture W H` and the pixels in a memory file.
    static func send(_ frame: PixelBuffer, to client: PacketSocket) throws(SystemError) {
        let rowBytes = frame.width * 4
        var packed = [UInt8](repeating: 0, count: rowBytes * frame.height)
        packed.withUnsafeMutableBytes { raw in
            for y in 0..<frame.height {
                (raw.baseAddress! + y * rowBytes).copyMemory(from: frame.row32(y), byteCount: rowBytes)
            }
        }
        let made = packed.withUnsafeBytes { raw in
            Result { () throws(SystemError) in try MemoryFile.make("glance-screenshot", bytes: raw) }
        }
        let file = try made.get()
        defer { file.close() }
        try client.send(Array("picture \(frame.width) \(frame.height)".utf8), fd: file, nonblocking: true)
    }
}

/// Why the app has no picture to give.
public struct PictureRefusal: Error, Sendable, Equatable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
}
