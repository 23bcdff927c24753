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
    /// The outcome: permission denied, the file cannot be made, or it could not be written whole.
    public var outcome: Outcome { OutputFile.Failure.outcome(denied: denied, cannotCreate: cannotCreate) }
}

/// Writes PNG files with zlib's deflate and reads them through libpng's simplified API (no longjmp
/// into Swift).
public enum PNGFile {
    /// zlib's level for the image data. Measured on the ring screen (x86-64, callgrind, one encode;
    /// docs/speed.md): level 3 costs what level 1 and 2 cost (33.8 M instructions at 800x480, 5.8 M
    /// at 240x240) for a file 5 % smaller than level 1's; level 4 doubles the instructions for 8 %
    /// less, level 6 (libpng's and zlib's default) 2.4 times for 16 % less.
    static let level: Int32 = 3

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

    /// The buffer as the bytes of an 8-bit RGB PNG file: the rows, each behind filter type 0 (none:
    /// on these pictures, black around anti-aliased shapes, every other filter made the file larger
    /// and the encoding slower), deflated once into the file's one IDAT chunk.
    public static func encode(_ buffer: PixelBuffer, name: String = "PNG") throws(PNGError) -> [UInt8] {
        let w = buffer.width, h = buffer.height
        let rowBytes = 1 + 3 * w
        var stream = z_stream()
        guard deflateInit2_(&stream, level, Z_DEFLATED, MAX_WBITS, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                            Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { throw PNGError(path: name, reason: "zlib could not start (out of memory)") }
        defer { deflateEnd(&stream) }
        // Signature, IHDR, IDAT's length and type, the data, IDAT's CRC, IEND.
        let bound = Int(deflateBound(&stream, UInt(rowBytes * h)))
        let head = 8 + 25 + 8
        let capacity = head + bound + 4 + 12
        var failure: Int32 = Z_OK
        let png = [UInt8](unsafeUninitializedCapacity: capacity) { out, count in
            let base = out.baseAddress!
            func be32(_ value: UInt32, at offset: Int) {
                UnsafeMutableRawPointer(base + offset).storeBytes(of: value.bigEndian, as: UInt32.self)
            }
            func crc(from offset: Int, count: Int) -> UInt32 {
                UInt32(truncatingIfNeeded: crc32(0, base + offset, UInt32(count)))
            }
            let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            for (i, b) in signature.enumerated() { base[i] = b }
            be32(13, at: 8)
            be32(0x4948_4452, at: 12)  // IHDR
            be32(UInt32(w), at: 16)
            be32(UInt32(h), at: 20)
            base[24] = 8  // bits per channel
            base[25] = 2  // RGB
            base[26] = 0  // deflate
            base[27] = 0  // adaptive filtering (each row says its filter)
            base[28] = 0  // not interlaced
            be32(crc(from: 12, count: 17), at: 29)
            be32(0x4944_4154, at: 37)  // IDAT
            // The rows through one row buffer, each converted over its span and deflated.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: rowBytes + 1) { row in
                let line = row.baseAddress!
                line[0] = 0  // filter type 0
                stream.next_out = base + head
                stream.avail_out = UInt32(bound)
                for y in 0..<h {
                    switch buffer.format {
                    case .xrgb8888: rgb(from: buffer.row32(y), count: w, into: line + 1)
                    case .rgb565: rgb(from565: buffer.row16(y), count: w, into: line + 1)
                    }
                    stream.next_in = line
                    stream.avail_in = UInt32(rowBytes)
                    let status = deflate(&stream, y == h - 1 ? Z_FINISH : Z_NO_FLUSH)
                    if status != (y == h - 1 ? Z_STREAM_END : Z_OK) || stream.avail_in != 0 {
                        failure = status
                        break
                    }
                }
            }
            let data = Int(stream.total_out)
            be32(UInt32(data), at: 33)
            be32(crc(from: 37, count: 4 + data), at: head + data)
            let end = head + data + 4
            be32(0, at: end)
            be32(0x4945_4E44, at: end + 4)  // IEND
            be32(crc(from: end + 4, count: 4), at: end + 8)
            count = end + 12
        }
        guard failure == Z_OK else { throw PNGError(path: name, reason: "zlib failed (\(failure))") }
        return png
    }

    /// XRGB8888 pixels as R, G, B bytes: each pixel byte-swapped (B G R X into X R G B), shifted
    /// to R G B 0 and stored as four bytes three bytes apart, the next pixel's store overwriting
    /// the zero (`out` has room for `3 × count` bytes and one more).
    @inline(__always)
    static func rgb(from row: UnsafeMutablePointer<UInt32>, count: Int, into out: UnsafeMutablePointer<UInt8>) {
        let raw = UnsafeMutableRawPointer(out)
        var i = 0
        while i &+ 4 <= count {
            raw.storeBytes(of: row[i].byteSwapped >> 8, toByteOffset: 3 &* i, as: UInt32.self)
            raw.storeBytes(of: row[i &+ 1].byteSwapped >> 8, toByteOffset: 3 &* i &+ 3, as: UInt32.self)
            raw.storeBytes(of: row[i &+ 2].byteSwapped >> 8, toByteOffset: 3 &* i &+ 6, as: UInt32.self)
            raw.storeBytes(of: row[i &+ 3].byteSwapped >> 8, toByteOffset: 3 &* i &+ 9, as: UInt32.self)
            i &+= 4
        }
        while i < count {
            raw.storeBytes(of: row[i].byteSwapped >> 8, toByteOffset: 3 &* i, as: UInt32.self)
            i &+= 1
        }
    }

    /// RGB565 pixels widened by bit replication (as `PixelBuffer.color` widens them).
    static func rgb(from565 row: UnsafeMutablePointer<UInt16>, count: Int, into out: UnsafeMutablePointer<UInt8>) {
        for i in 0..<count {
            let c = PixelBuffer.widen565(row[i])
            out[3 &* i] = c.red
            out[3 &* i &+ 1] = c.green
            out[3 &* i &+ 2] = c.blue
        }
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
