import Activity
import ControlSocket
import Controls
import DeviceLogic
import ImageFile
import Platform
import Raster

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

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
/// `PanelState` line. A client that sends `watch` stays connected (at most two): it gets the
/// state at once and again whenever it changes, and may send commands on that connection. Every
/// request is one datagram of at most 64 bytes, parsed strictly (`PanelRequest.parse`).
public final class ControlServer {
    public let path: String
    let listener: PacketListener
    /// Connected clients that have not asked yet, oldest first.
    private var clients: [PacketSocket] = []
    static let maximumClients = 4
    /// The home's commands on the device, and its state (nil: only screenshots).
    public var remote: PanelRemote?
    /// Clients that asked to `watch` the state, and the state they were told last.
    private var watchers: [PacketSocket] = []
    private var told: String?
    static let maximumWatchers = 2
    /// Messages taken from one client in one turn: a client that floods waits for the next.
    static let messagesPerTurn = 8

    /// Listens at `path`, making its folder (0750) when missing.
    public init(path: String) throws(SystemError) {
        self.path = path
        let group = Self.glanceGroup()
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            let folder = String(path[..<slash])
            // Its parents as usual (a /run not there yet), the folder itself for root and the group.
            var parent = ""
            for part in folder.split(separator: "/").dropLast() {
                parent += "/" + part
                mkdir(parent, 0o755)
            }
            if mkdir(folder, 0o750) == 0 {
                // Its mode whatever the umask is (another thread may be binding a socket under a
                // narrower one for the moment).
                _ = chmod(folder, 0o750)
                if let group { _ = chown(folder, uid_t.max, group) }
            }
        }
        listener = try PacketListener(path: path, mode: 0o660, group: group)
    }

    /// Group glance's id, when there is such a group.
    static func glanceGroup() -> gid_t? {
        guard let entry = getgrnam("glance") else { return nil }
        return entry.pointee.gr_gid
    }

    /// The listening socket and the clients that have not asked yet.
    public var descriptors: [FileDescriptor] { [listener.descriptor] + clients.map(\.descriptor) + watchers.map(\.descriptor) }

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
        var staying: [PacketSocket] = []
        for watcher in watchers {
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
            if open { staying.append(watcher) }
        }
        watchers = staying
        return changed
    }

    private enum Received { case none, gone, request([UInt8]) }

    /// One message from `client`, without waiting.
    private func receive(_ client: PacketSocket) -> Received {
        guard let message = try? client.receive(capacity: PanelRequest.maximumBytes + 2, nonblocking: true) else {
            // Nothing yet, or a failed read (it hung up badly): the next poll tells.
            return .none
        }
        message.fd?.close()
        return message.bytes.isEmpty ? .gone : .request(message.bytes)
    }

    private func watch(_ client: PacketSocket) {
        watchers.append(client)
        if watchers.count > Self.maximumWatchers { watchers.removeFirst() }
        told = nil
    }

    /// The state to every watcher when it changed since it was told (and to a new watcher): called
    /// at the end of every turn of the loop.
    public func notify(now: Duration, wallNow: Double = wallClockNow()) {
        guard !watchers.isEmpty, let remote else { return }
        let text = remote.state(now: now, wallNow: wallNow).text
        guard text != told else { return }
        told = text
        // A watcher that cannot take it now (its queue full: it stopped reading) is let go.
        watchers.removeAll { (try? $0.send(Array(text.utf8), nonblocking: true)) == nil }
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
            switch picture() {
            case .failure(let refusal):
                try? client.send(Array("refused \(refusal.reason)".utf8), nonblocking: true)
            case .success(let frame):
                do {
                    try Self.send(frame, to: client)
                } catch {
                    log("glance screenshot: \(error)")
                }
            }
            return false
        case .state, .watch:
            let text = remote.map { $0.state(now: now, wallNow: wallClockNow()).text } ?? "refused this glance takes no commands"
            try? client.send(Array(text.utf8), nonblocking: true)
            return false
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
                log("control socket: \(request.text)")
                try? client.send(Array("ok".utf8), nonblocking: true)
                return changed
            }
        }
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

/// The wall clock, seconds since 1970.
public func wallClockNow() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_REALTIME, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// Why the app has no picture to give.
public struct PictureRefusal: Error, Sendable, Equatable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
}

/// `glance screenshot`: the running app's frame, upright, into a PNG.
public enum Screenshot {
    /// How it ends, and why (its help's exit statuses: Commands maps each to its number).
    public static let outcomes: [(outcome: Outcome, meaning: String)] = [
        (.ok, "written"),
        (.unavailable, "no running glance answers (start it, or give --socket)"),
        (.cannotCreate, "FILE.png cannot be written"),
        (.ioError, "the app's answer could not be read"),
        (.temporaryFailure, "the app has no picture to give now (another console is in front, or it has drawn nothing yet)"),
        (.noPermission, "not allowed to ask (join group glance)"),
    ]

    /// `glance screenshot`'s description (its help), beside what it does.
    public static let about = """
        Asks the running glance (glance run, the service) for the frame it has on the panel and writes it \
        as a PNG, upright as a person sees it (a panel mounted turned is turned back; an RGB565 panel's \
        colours are as it shows them): for a bug report, or to look at a board from a distance (ssh \
        board glance screenshot -o /tmp/panel.png, then scp board:/tmp/panel.png .). The app answers on \
        a socket in its runtime directory, open to root and group glance; it never waits on the asker.
        """

    /// Asks the app at `socket` (else the usual places) and writes `output`; ends as `outcomes`
    /// says.
    public static func run(output: String, socket: String?, log: (String) -> Void, say: (String) -> Void) -> Outcome {
        let candidates = socket.map { [$0] } ?? ControlSocketLocation.clientPaths()
        var connection: PacketSocket?
        var problems: [(String, SystemError)] = []
        for path in candidates {
            do throws(SystemError) {
                connection = try PacketSocket.connect(to: path)
                break
            } catch {
                problems.append((path, error))
            }
        }
        guard let connection else {
            if let denied = problems.first(where: { $0.1.errno == .permissionDenied || $0.1.errno == .notPermitted }) {
                log(
                    "\(denied.0): permission denied: the running glance's socket is for root and group glance "
                        + "(sudo adduser $USER glance, then log in again)")
                return Outcome.noPermission
            }
            log(
                "no running glance answers (" + problems.map { "\($0.0): \($0.1.errno)" }.joined(separator: "; ")
                    + "); start it (glance run, or systemctl start glance), or give --socket PATH")
            return Outcome.unavailable
        }
        let picture: PixelBuffer
        do throws(OutputFailure) {
            picture = try ask(connection)
        } catch {
            log(error.message)
            return error.status
        }
        do throws(PNGError) {
            try PNGFile.write(picture, to: output)
        } catch {
            log("--output '\(output)': \(error)")
            return error.denied ? Outcome.noPermission : error.cannotCreate ? Outcome.cannotCreate : Outcome.ioError
        }
        say("\(output): \(picture.width)x\(picture.height), the frame on the panel")
        return Outcome.ok
    }

    /// The request and its answer, waiting at most `timeout` for it.
    static func ask(_ connection: PacketSocket, timeout: Duration = .seconds(5)) throws(OutputFailure) -> PixelBuffer {
        let answer: (bytes: [UInt8], fd: FileDescriptor?)?
        do throws(SystemError) {
            try connection.send(Array("screenshot".utf8))
            answer = try waitForReadable([connection.descriptor], timeout: timeout).isEmpty
                ? nil : try connection.receive(capacity: 512)
        } catch {
            throw OutputFailure("glance screenshot: \(error)", status: Outcome.ioError)
        }
        guard let (bytes, fd) = answer else {
            throw OutputFailure(
                "the running glance did not answer within \(Int(timeout.inSeconds)) s", status: Outcome.temporaryFailure)
        }
        defer { fd?.close() }
        let text = String(decoding: bytes, as: UTF8.self)
        let words = text.split(separator: " ", maxSplits: 2)
        if words.first == "refused" {
            throw OutputFailure(
                "the running glance has no picture to give: \(words.dropFirst().joined(separator: " "))",
                status: Outcome.temporaryFailure)
        }
        guard words.count == 3, words[0] == "picture", let w = Int(words[1]), let h = Int(words[2]), (1...8192).contains(w),
            (1...8192).contains(h), let fd
        else {
            throw OutputFailure(
                bytes.isEmpty
                    ? "the running glance closed the connection without an answer"
                    : "the running glance answered '\(text.prefix(80))'", status: Outcome.ioError)
        }
        let pixels: [UInt8]
        do throws(SystemError) {
            pixels = try MemoryFile.read(fd, count: w * h * 4)
        } catch {
            throw OutputFailure("glance screenshot: \(error)", status: Outcome.ioError)
        }
        let picture = PixelBuffer(width: w, height: h)
        pixels.withUnsafeBytes { raw in
            for y in 0..<h {
                picture.row32(y).withMemoryRebound(to: UInt8.self, capacity: w * 4) {
                    $0.update(from: raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * w * 4, count: w * 4)
                }
            }
        }
        return picture
    }
}
