import ImageFile
import Raster
import Platform

/// Frames as PNG files: each presented frame replaces one file (`.latest`), or goes to a file of
/// its own, numbered (`.numbered`: FILE-0001.png, FILE-0002.png …). What `glance watch` draws.
public final class PNGSink: FrameSink {
    public enum Naming: Sendable, Equatable {
        /// Every frame replaces the file: it always holds the last one presented.
        case latest(String)
        /// FILE-0001.png, FILE-0002.png … for `FILE.png`.
        case numbered(String)
    }

    public let size: Size
    public let format: PixelFormat
    public let frameInterval: Duration
    public let naming: Naming
    public let drawingBuffer: PixelBuffer
    /// Frames written.
    public private(set) var written = 0
    /// Called with the file's path after each frame is written.
    public var onWrite: ((String) -> Void)?

    /// `frameInterval` paces animation (a spinner) to at most that many files a second.
    public init(size: Size, format: PixelFormat = .xrgb8888, naming: Naming, frameInterval: Duration = .milliseconds(500)) {
        self.size = size
        self.format = format
        self.naming = naming
        self.frameInterval = frameInterval
        drawingBuffer = PixelBuffer(width: size.width, height: size.height, format: format)
    }

    public func present(damage: IntRect) throws(OutputFailure) {
        let path: String
        switch naming {
        case .latest(let file): path = file
        case .numbered(let file): path = Self.numbered(file, written + 1)
        }
        do {
            try PNGFile.write(drawingBuffer, to: path)
        } catch {
            throw OutputFailure(error.reason, status: error.outcome)
        }
        written += 1
        onWrite?(path)
    }

    public var presentedBuffer: PixelBuffer? { written > 0 ? drawingBuffer : nil }

    /// `out.png` → `out-0001.png`.
    public static func numbered(_ path: String, _ n: Int) -> String {
        let digits = String(n)
        let number = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        if let dot = path.lastIndex(of: "."), !path[dot...].contains("/") {
            return String(path[..<dot]) + "-" + number + String(path[dot...])
        }
        return path + "-" + number
    }
}
