import ImageFile
import Raster
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Golden images: PNGs beside the tests, compared pixel for pixel.
///
/// A mismatch reports the first differing pixel and writes `NAME-actual.png` and `NAME-diff.png`
/// to `.build/golden-failures/` (not the source tree). `RECORD_GOLDENS=1` rewrites the goldens
/// and fails, so a recording run can never pass by accident.
enum GoldenImage {
    static let folder: String = {
        let file = #filePath
        return String(file[..<file.lastIndex(of: "/")!]) + "/Goldens"
    }()

    static let failures: String = {
        var root = folder
        for _ in 0..<3 { root = String(root[..<root.lastIndex(of: "/")!]) }
        return root + "/.build/golden-failures"
    }()

    static var recording: Bool { getenv("RECORD_GOLDENS").map { String(cString: $0) == "1" } ?? false }

    static func expectMatches(_ image: PixelBuffer, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let path = "\(folder)/\(name).png"
        if recording {
            do {
                try PNGFile.write(image, to: path)
                Issue.record("recorded golden \(name).png; look at it, then run again without RECORD_GOLDENS",
                             sourceLocation: sourceLocation)
            } catch {
                Issue.record("cannot record \(path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        let golden: PixelBuffer
        do {
            golden = try PNGFile.read(path)
        } catch {
            Issue.record("no golden \(name).png (\(error)); record it with RECORD_GOLDENS=1 and look at it",
                         sourceLocation: sourceLocation)
            return
        }
        guard golden.size == image.size else {
            Issue.record("\(name): size \(image.size), golden \(golden.size)", sourceLocation: sourceLocation)
            return
        }
        var first: (Int, Int, Color, Color)? = nil
        var count = 0
        let diff = PixelBuffer(width: image.width, height: image.height)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let a = image.color(x: x, y: y), g = golden.color(x: x, y: y)
                guard a != g else {
                    // Faint picture so the differences stand out.
                    diff.row32(y)[x] = Color.mix(.black, a, 0.25).xrgb
                    continue
                }
                count += 1
                if first == nil { first = (x, y, a, g) }
                diff.row32(y)[x] = 0xFF00FF
            }
        }
        guard let (x, y, a, g) = first else { return }
        mkdir(String(failures[..<failures.lastIndex(of: "/")!]), 0o755)
        mkdir(failures, 0o755)
        try? PNGFile.write(image, to: "\(failures)/\(name)-actual.png")
        try? PNGFile.write(diff, to: "\(failures)/\(name)-diff.png")
        Issue.record(
            "\(name): \(count) pixels differ, first at (\(x), \(y)): \(a), golden \(g); see \(failures)/\(name)-actual.png and -diff.png",
            sourceLocation: sourceLocation)
    }
}
