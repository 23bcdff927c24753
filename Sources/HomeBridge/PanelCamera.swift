import ControlSocket
import ImageFile
import Platform
import Raster

/// The panel's frame for Home Assistant's Screenshot image, asked on a connection of its own to
/// the control socket (the watch connection carries no descriptors), never waited for: the
/// answer is read when the socket is readable, or given up after `answerWithin`. Asked a second
/// after the panel's state changed (its new frame drawn by then) and every `every` while the
/// panel is there, at most once per `spacing`.
final class PanelCamera {
    let paths: [String]
    private var socket: PacketSocket?
    private var askedAt: Duration?
    private var lastAsked: Duration?
    /// When a picture is wanted (nil: none until the period or a change).
    private(set) var wantedAt: Duration?
    var every: Duration = .seconds(300)
    var spacing: Duration = .seconds(10)
    var settle: Duration = .seconds(1)
    var answerWithin: Duration = .seconds(5)
    /// The largest PNG published (a panel's frame is tens of kB; beyond this it is not sent).
    static let maximumBytes = 1 << 20

    init(paths: [String]) {
        self.paths = paths
    }

    var descriptor: FileDescriptor? { socket?.descriptor }

    /// The panel's state changed (or it came): a picture a moment later.
    func changed(now: Duration) {
        let at = now + settle
        wantedAt = min(wantedAt ?? at, at)
    }

    /// Asks for the picture when one is wanted and due (not more often than `spacing`); gives up
    /// on an answer that did not come.
    func turn(now: Duration, panelAlive: Bool) {
        if let asked = askedAt, now - asked >= answerWithin {
            socket = nil
            askedAt = nil
        }
        guard panelAlive else {
            wantedAt = nil
            return
        }
        if wantedAt == nil { wantedAt = (lastAsked ?? now) + (lastAsked == nil ? settle : every) }
        guard socket == nil, let wanted = wantedAt, now >= wanted else { return }
        if let last = lastAsked, now - last < spacing {
            wantedAt = last + spacing
            return
        }
        for path in paths {
            guard let s = try? PacketSocket.connect(to: path), (try? s.send(Array("screenshot".utf8))) != nil else { continue }
            socket = s
            askedAt = now
            lastAsked = now
            wantedAt = nil
            return
        }
        wantedAt = now + every
    }

    /// The answer, when the socket is readable: the frame as a PNG, or why there is none.
    func receive() -> Result<[UInt8], PanelPicture.Failure>? {
        guard let socket else { return nil }
        let message: (bytes: [UInt8], fd: FileDescriptor?)?
        do {
            message = try socket.receive(capacity: 512, nonblocking: true)
        } catch {
            message = ([], nil)
        }
        guard let message else { return nil }
        defer { message.fd?.close() }
        self.socket = nil
        askedAt = nil
        return PanelPicture.decode(message.bytes, fd: message.fd).flatMap { picture in
            guard let png = try? PNGFile.encode(picture, name: "the panel's frame"), png.count <= Self.maximumBytes else {
                return .failure(.unreadable("the frame could not be made a PNG of at most \(Self.maximumBytes) bytes"))
            }
            return .success(png)
        }
    }

    /// When it acts next.
    var deadline: Duration? {
        [wantedAt, askedAt.map { $0 + answerWithin }].compactMap { $0 }.min()
    }
}
