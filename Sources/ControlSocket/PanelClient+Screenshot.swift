import Platform
import Raster

extension PanelClient {
    /// The frame on the panel now: `screenshot` asked on `connection`, its answer waited for at
    /// most `timeout`. For glance screenshot and glance web's live view (the same frame, the same
    /// PNG). Fails `temporaryFailure` (refused, said why, or no answer in time) or `ioError`.
    public static func screenshot(_ connection: PacketSocket, timeout: Duration = .seconds(5)) throws(OutputFailure) -> PixelBuffer {
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
        switch PanelPicture.decode(bytes, fd: fd) {
        case .success(let picture): return picture
        case .failure(.refused(let why)):
            throw OutputFailure("the running glance has no picture to give: \(why)", status: Outcome.temporaryFailure)
        case .failure(.closed):
            throw OutputFailure("the running glance closed the connection without an answer", status: Outcome.ioError)
        case .failure(.malformed(let text)):
            throw OutputFailure("the running glance answered '\(text)'", status: Outcome.ioError)
        case .failure(.unreadable(let why)):
            throw OutputFailure("glance screenshot: \(why)", status: Outcome.ioError)
        }
    }
}
