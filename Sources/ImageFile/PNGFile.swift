import CPNG
import Platform
import Raster

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A PNG file could not be written or read; the message names the file and what went wrong.
public struct PNGError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    /// The file could not be made at all (exit 73), rather than written whole (74).
    public var cannotCreate = true
    /// The system said permission denied (exit 77).
    public var denied = false
    public var description: String { "\(path): \(reason)" }
}

/// Writes and reads PNG files through libpng's simplified API (no longjmp into Swift).
public enum PNGFile {
    /// Writes the buffer as an 8-bit RGB PNG, as the panel would show it (RGB565 widened).
    ///
    /// The file appears whole or not at all, and never through a link planted beside it: see
    /// Platform's `OutputFile` (a device or FIFO is written in place, `-` is standard output).
    public static func write(_ buffer: PixelBuffer, to path: String) throws(PNGError) {
        let bytes = try encode(buffer, name: path)
        do {
            try OutputFile.write(bytes, to: path)
        } catch {
            throw PNGError(path: path, reason: error.reason, cannotCreate: error.cannotCreate, denied: error.denied)
        }
    }

    /// The buffer as the bytes of an 8-bit RGB PNG file.
    public static func encode(_ buffer: PixelBuffer, name: String = "PNG") throws(PNGError) -> [UInt8] {
        let w = buffer.width, h = buffer.height
        var rgb = [UInt8](repeating: 0, count: w * h * 3)
        rgb.withUnsafeMutableBufferPointer { out in
            var i = 0
            for y in 0..<h {
                for x in 0..<w {
                    let c = buffer.color(x: x, y: y)
                    out[i] = c.red
                    out[i + 1] = c.green
                    out[i + 2] = c.blue
                    i += 3
                }
            }
        }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(w)
        image.height = UInt32(h)
        image.format = UInt32(PNG_FORMAT_RGB)
        // Once for the size, once to write.
        var size: png_alloc_size_t = 0
        var ok = rgb.withUnsafeBytes { bytes in
            png_image_write_to_memory(&image, nil, &size, 0, bytes.baseAddress, Int32(w * 3), nil)
        }
        var png = [UInt8](repeating: 0, count: ok != 0 ? Int(size) : 0)
        if ok != 0 {
            ok = rgb.withUnsafeBytes { bytes in
                png.withUnsafeMutableBytes { out in
                    png_image_write_to_memory(&image, out.baseAddress, &size, 0, bytes.baseAddress, Int32(w * 3), nil)
                }
            }
        }
        if ok == 0 {
            let message = withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            png_image_free(&image)
            throw PNGError(path: name, reason: message.isEmpty ? "libpng failed" : message)
        }
        return Array(png.prefix(Int(size)))
    }

    /// Reads a PNG into a new XRGB8888 buffer.
    public static func read(_ path: String) throws(PNGError) -> PixelBuffer {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&image, path) != 0 else {
            let message = withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            png_image_free(&image)
            throw PNGError(path: path, reason: describe(message: message, errno: errno))
        }
        image.format = UInt32(PNG_FORMAT_BGRA)
        let w = Int(image.width), h = Int(image.height)
        guard w > 0, h > 0 else {
            png_image_free(&image)
            throw PNGError(path: path, reason: "empty image")
        }
        let buffer = PixelBuffer(width: w, height: h)
        guard png_image_finish_read(&image, nil, buffer.base, Int32(buffer.stride), nil) != 0 else {
            let message = withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            png_image_free(&image)
            throw PNGError(path: path, reason: describe(message: message, errno: errno))
        }
        // BGRA → XRGB8888: clear the alpha byte so pixels compare as colours.
        for y in 0..<h {
            let row = buffer.row32(y)
            for x in 0..<w { row[x] &= 0x00FF_FFFF }
        }
        return buffer
    }

    private static func describe(message: String, errno: Int32) -> String {
        if message.contains("open") || message.contains("fopen") {
            return "cannot open: \(String(cString: strerror(errno)))"
        }
        return message.isEmpty ? "libpng failed" : message
    }
}
