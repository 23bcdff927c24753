import Platform
import Raster

/// The answer to `screenshot` on the panel's control socket: `picture W H` with a memory file of
/// W × H pixels (4 bytes each, rows packed), or `refused WHY`. Read by `glance screenshot` and by
/// the bridge's Screenshot image for Home Assistant.
public enum PanelPicture {
    /// Why an answer gave no picture.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The panel has none to give now (its reason).
        case refused(String)
        /// The connection closed without an answer.
        case closed
        /// An answer that is not one (its first 80 characters).
        case malformed(String)
        /// Its memory file could not be read (why).
        case unreadable(String)

        /// As a log line says it.
        public var description: String {
            switch self {
            case .refused(let why): "the panel has no picture to give: \(why)"
            case .closed: "the panel closed the connection without an answer"
            case .malformed(let text): "the panel answered '\(text)'"
            case .unreadable(let why): why
            }
        }
    }

    /// The picture an answer holds (its descriptor is the caller's to close).
    public static func decode(_ bytes: [UInt8], fd: FileDescriptor?) -> Result<PixelBuffer, Failure> {
        let text = String(decoding: bytes.prefix(512), as: UTF8.self)
        let words = text.split(separator: " ", maxSplits: 2)
        if words.first == "refused" { return .failure(.refused(words.dropFirst().joined(separator: " "))) }
        guard words.count == 3, words[0] == "picture", let w = Int(words[1]), let h = Int(words[2]), (1...8192).contains(w),
            (1...8192).contains(h), let fd
        else {
            return .failure(bytes.isEmpty ? .closed : .malformed(String(text.prefix(80))))
        }
        let pixels: [UInt8]
        do throws(SystemError) {
            pixels = try MemoryFile.read(fd, count: w * h * 4)
        } catch {
            return .failure(.unreadable("\(error)"))
        }
        let picture = PixelBuffer(width: w, height: h)
        pixels.withUnsafeBytes { raw in
            for y in 0..<h {
                picture.row32(y).withMemoryRebound(to: UInt8.self, capacity: w * 4) {
                    $0.update(from: raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * w * 4, count: w * 4)
                }
            }
        }
        return .success(picture)
    }
}
