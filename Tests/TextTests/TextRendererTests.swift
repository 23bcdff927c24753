import ImageFile
import Raster
import Testing

@testable import Text

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Text: fonts, shaping, glyphs", .timeLimit(.minutes(10)))
struct TextRendererTests {
    @Test("fontconfig finds Inter at each weight and a Chinese face by language")
    func lookup() throws {
        let regular = try FontLocator.find(family: "Inter", weight: .regular)
        let bold = try FontLocator.find(family: "Inter", weight: .semibold)
        #expect(regular.path.hasSuffix(".otf") || regular.path.hasSuffix(".ttf"))
        #expect(regular != bold, "each weight has its own face")
        let chinese = try FontLocator.find(language: .simplifiedChinese)
        // (the installed files: under GLANCE_FONT_ROOT the renderer would open the pinned ones)
        let r = try FreeTypeTextRenderer(fonts: .init(languages: [.simplifiedChinese], packaged: .debian))
        #expect(r.files.contains(chinese))
        #expect(r.canRender("今天 活动 Today"))
    }

    @Test("a family fontconfig does not have is an error naming it")
    func missingFamily() {
        #expect {
            _ = try FontLocator.find(family: "No Such Family Glance", weight: .regular)
        } throws: { ($0 as? FontError)?.message.contains("No Such Family Glance") ?? false }
    }

    @Test("a font file can replace the family; a bad path names the file")
    func fileOverride() throws {
        let dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        if access(dejavu, R_OK) == 0 {
            let r = try FreeTypeTextRenderer(fonts: .init(file: dejavu))
            #expect(r.files.first?.path == dejavu)
        } else {
            print("skipped the DejaVu override check: \(dejavu) is not installed")
        }
        #expect {
            _ = try FreeTypeTextRenderer(fonts: .init(file: "/nonexistent/font.ttf"))
        } throws: { ($0 as? FontError)?.message.contains("/nonexistent/font.ttf") ?? false }
    }

    @Test("faces open when their first glyph is asked for; a file that is no font is refused at once, one broken later stood in for")
    func facesOpenedWhenUsed() throws {
        let r = try FreeTypeTextRenderer(fonts: .init(languages: [.simplifiedChinese]))
        let regular = try #require(r.files.first)
        #expect(r.openedFiles == [regular], "only the primary face is opened with the renderer")
        _ = r.measure("Move", TextStyle(size: 20, weight: .semibold))
        #expect(r.openedFiles.count == 2 && !r.openedFiles.contains(r.files[1]), "the semibold face, not the Chinese one")
        _ = r.measure("今天", TextStyle(size: 20, weight: .regular))
        #expect(r.openedFiles.contains(r.files[1]), "the Chinese face once a character needs it")
        // A file that is not a font is refused when the renderer is made, naming it.
        var template = Array("/tmp/glance-font-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        try #require(fd >= 0)
        let path = String(cString: template)
        defer { unlink(path) }
        _ = "not a font".withCString { write(fd, $0, 10) }
        close(fd)
        #expect {
            _ = try FreeTypeTextRenderer(fonts: .init(languages: [.simplifiedChinese], languageFiles: [.simplifiedChinese: path]))
        } throws: { ($0 as? FontError)?.message.contains(path) ?? false }
        // One that was a font when checked and is broken when first used: the primary face writes
        // its text (no crash, no empty line).
        let chinese = try #require(r.files.last)
        let copy = path + ".ttc"
        defer { unlink(copy) }
        try #require(copyFile(chinese.path, to: copy))
        let late = try FreeTypeTextRenderer(
            fonts: .init(languages: [.simplifiedChinese], languageFiles: [.simplifiedChinese: copy]))
        try #require(truncate(copy, 0) == 0)
        let told = Told()
        late.report = { told.lines.append($0) }
        let line = late.measure("今天", TextStyle(size: 20, weight: .regular))
        _ = late.measure("今日", TextStyle(size: 20, weight: .regular))
        #expect(told.lines.count == 1 && told.lines[0].contains(copy), "said once, naming the file: \(told.lines)")
        #expect(line.width > 0 && Set(late.openedFiles) == Set(late.files))
        #expect(line.width != r.measure("今天", TextStyle(size: 20, weight: .regular)).width, "not the Chinese face's glyphs")
    }

    /// What a renderer told (the tests run it on one thread).
    final class Told: @unchecked Sendable {
        var lines: [String] = []
    }

    /// Copies a file byte for byte; false when it cannot be.
    func copyFile(_ from: String, to: String) -> Bool {
        guard let source = fopen(from, "rb") else { return false }
        defer { fclose(source) }
        guard let target = fopen(to, "wb") else { return false }
        defer { fclose(target) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&chunk, 1, chunk.count, source)
            if n == 0 { return ferror(source) == 0 }
            guard fwrite(chunk, 1, n, target) == n else { return false }
        }
    }

    @Test("kerning: pairs the font kerns come out tighter than their letters apart")
    func kerning() throws {
        let r = try FreeTypeTextRenderer()
        let style = TextStyle(size: 40, weight: .semibold)
        for pair in ["AV", "To", "Ty", "VA"] {
            let a = r.measure(String(pair.first!), style).width, b = r.measure(String(pair.last!), style).width
            #expect(r.measure(pair, style).width < a + b - 0.5, "\(pair) is kerned")
        }
        // Tracking adds space between letters, not after the last.
        let plain = r.measure("MOVE", style).width
        let spaced = r.measure("MOVE", TextStyle(size: 40, weight: .semibold, tracking: 2)).width
        #expect(abs(spaced - plain - 6) < 0.05)
    }

    /// Issue 24, C1: a 3,000,000-character description crashed glance run and watch (exit 132):
    /// the pen position, in 1/64 px, overflowed an Int32. Whatever reaches the renderer, a line is
    /// laid out up to `longestLine` characters (far past any panel's edge) in 64-bit positions.
    @Test("a line of 3,000,000 characters is measured and drawn without overflowing, as its first longestLine characters")
    func hugeLine() throws {
        let r = try FreeTypeTextRenderer()
        let style = TextStyle(size: 30, weight: .bold)
        let huge = String(repeating: "W", count: 3_000_000)
        let width = r.measure(huge, style).width
        let prefix = r.measure(String(repeating: "W", count: FreeTypeTextRenderer.longestLine), style).width
        #expect(width == prefix && width > 1000, "\(width) \(prefix)")
        let b = PixelBuffer(width: 240, height: 60)
        r.draw(huge, style, color: .white, at: Point(x: -1e6, y: 40), into: b, clip: nil)
        r.draw(huge, TextStyle(size: 1e9, weight: .regular, tracking: 1e30), color: .white, at: Point(x: 0, y: 40), into: b, clip: nil)
        #expect(r.measure(huge, TextStyle(size: 1e9, tracking: 1e30)).width.isFinite)
    }

    @Test("drawing is anti-aliased, repeatable, and lands where measured")
    func drawing() throws {
        let r = try FreeTypeTextRenderer(fonts: .init(languages: [.simplifiedChinese]))
        let style = TextStyle(size: 28, weight: .medium)
        func draw() -> PixelBuffer {
            let b = PixelBuffer(width: 300, height: 60)
            r.draw("Today 今天 25", style, color: .white, at: Point(x: 10.25, y: 40), into: b, clip: nil)
            return b
        }
        let a = draw(), b = draw()
        var levels = Set<UInt8>()
        var minX = 300, maxX = 0
        for y in 0..<60 {
            for x in 0..<300 {
                let c = a.color(x: x, y: y)
                #expect(c == b.color(x: x, y: y))
                if c.red > 0 {
                    levels.insert(c.red)
                    minX = min(minX, x)
                    maxX = max(maxX, x)
                }
            }
        }
        #expect(levels.count > 20, "edges have intermediate coverage")
        let width = r.measure("Today 今天 25", style).width
        #expect(minX >= 10 && minX <= 13)
        #expect(abs(Float(maxX) - (10.25 + width)) < 4)
    }

    @Test("a clip keeps glyphs inside it")
    func clip() throws {
        let r = try FreeTypeTextRenderer()
        let b = PixelBuffer(width: 200, height: 50)
        r.draw("Clipped text", TextStyle(size: 30), color: .white, at: Point(x: 5, y: 35), into: b,
               clip: IntRect(x: 40, y: 0, width: 60, height: 50))
        for y in 0..<50 {
            for x in 0..<200 where x < 40 || x >= 100 { #expect(b.color(x: x, y: y) == .black) }
        }
    }
}
