import Activity
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
public final class ControlServer {
    public let path: String
    let listener: PacketListener
    /// Connected clients that have not asked yet, oldest first.
    private var clients: [PacketSocket] = []
    static let maximumClients = 4

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

    /// Where the app listens: `$RUNTIME_DIRECTORY` (systemd's RuntimeDirectory=, /run/glance for
    /// the service), else /run/glance for root, else `$XDG_RUNTIME_DIR/glance`; nil: nowhere.
    public static func defaultPath() -> String? {
        if let runtime = environment("RUNTIME_DIRECTORY"), let first = runtime.split(separator: ":").first {
            return String(first) + "/glance.sock"
        }
        if geteuid() == 0 { return systemPath }
        if let user = environment("XDG_RUNTIME_DIR") { return user + "/glance/glance.sock" }
        return nil
    }

    public static let systemPath = "/run/glance/glance.sock"

    /// Where `glance screenshot` looks: the user's own app's socket when there is one, else the
    /// service's.
    public static func clientPaths() -> [String] {
        var paths: [String] = []
        if let runtime = environment("RUNTIME_DIRECTORY"), let first = runtime.split(separator: ":").first {
            paths.append(String(first) + "/glance.sock")
        }
        if geteuid() != 0, let user = environment("XDG_RUNTIME_DIR") { paths.append(user + "/glance/glance.sock") }
        paths.append(systemPath)
        return paths
    }

    static func environment(_ name: String) -> String? {
        guard let value = getenv(name), value.pointee != 0 else { return nil }
        return String(cString: value)
    }

    /// The listening socket and the clients that have not asked yet.
    public var descriptors: [FileDescriptor] { [listener.descriptor] + clients.map(\.descriptor) }

    /// Accepts waiting connections and answers the requests that came; `picture` gives the frame
    /// on the panel (or why there is none). Problems are told through `log`, never thrown: a bad
    /// client must not stop the panel.
    public func handle(ready: [FileDescriptor], picture: () -> Result<PixelBuffer, PictureRefusal>, log: (String) -> Void) {
        if ready.contains(listener.descriptor) {
            while let client = try? listener.accept() {
                clients.append(client)
                if clients.count > Self.maximumClients { clients.removeFirst() }
            }
        }
        // Every client is asked (non-blocking): a request may have come with the connection. Each
        // is answered once, then let go; one that has not asked yet is kept.
        var waiting: [PacketSocket] = []
        for client in clients {
            let message: (bytes: [UInt8], fd: FileDescriptor?)
            do {
                guard let m = try client.receive(capacity: 64, nonblocking: true) else {
                    waiting.append(client)
                    continue
                }
                message = m
            } catch {
                continue
            }
            message.fd?.close()
            guard !message.bytes.isEmpty else { continue }  // it hung up
            answer(client, request: String(decoding: message.bytes.filter { $0 != 0x0A && $0 != 0x20 }, as: UTF8.self),
                   picture: picture, log: log)
        }
        clients = waiting
    }

    /// One request's answer: the picture, or why not.
    private func answer(
        _ client: PacketSocket, request: String, picture: () -> Result<PixelBuffer, PictureRefusal>, log: (String) -> Void
    ) {
        guard request == "screenshot" else {
            try? client.send(
                Array("refused unknown request '\(request.prefix(32))' (this glance knows: screenshot)".utf8), nonblocking: true)
            return
        }
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

/// `glance screenshot`: the running app's frame, upright, into a PNG.
public enum Screenshot {
    /// Asks the app at `socket` (else the usual places) and writes `output`. Exit statuses: 0
    /// written; 69 no app answers; 77 not allowed to ask; 75 the app has no picture now; 74 a bad
    /// answer; 73 the file cannot be written.
    public static func run(output: String, socket: String?, log: (String) -> Void, say: (String) -> Void) -> Outcome {
        let candidates = socket.map { [$0] } ?? ControlServer.clientPaths()
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
