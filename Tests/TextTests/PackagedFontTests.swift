import Raster
import Testing

@testable import Text

@Suite("Text: packaged font files opened without fontconfig", .timeLimit(.minutes(10)))
struct PackagedFontTests {
    static let inter = "/usr/share/fonts/opentype/inter/Inter-"

    @Test("a known file is used only when it is there; any other family or a missing file goes to fontconfig")
    func choice() {
        let known = PackagedFonts.debian
        let all: (String) -> Bool = { _ in true }
        #expect(known.file(family: "Inter", weight: .regular, exists: all) == FontFile(path: Self.inter + "Regular.otf"))
        #expect(known.file(family: "inter", weight: .medium, exists: all) == FontFile(path: Self.inter + "Medium.otf"))
        #expect(known.file(family: "INTER", weight: .semibold, exists: all) == FontFile(path: Self.inter + "SemiBold.otf"))
        #expect(known.file(family: "Inter", weight: .bold, exists: all) == FontFile(path: Self.inter + "Bold.otf"))
        // Only the semibold file is there: the other weights are looked up.
        let semiboldOnly: (String) -> Bool = { $0 == Self.inter + "SemiBold.otf" }
        #expect(known.file(family: "Inter", weight: .semibold, exists: semiboldOnly) != nil)
        #expect(known.file(family: "Inter", weight: .regular, exists: semiboldOnly) == nil)
        #expect(known.file(family: "DejaVu Sans", weight: .regular, exists: all) == nil)
        #expect(PackagedFonts.none.file(family: "Inter", weight: .regular, exists: all) == nil)
        #expect(
            known.file(language: .simplifiedChinese, exists: all)
                == FontFile(path: "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", index: 0))
        #expect(known.file(language: .simplifiedChinese, exists: { _ in false }) == nil)
    }

    @Test("fontconfig pointed at a configuration of its own decides every font")
    func environment() {
        #expect(PackagedFonts.forEnvironment { _ in nil } == .debian)
        #expect(PackagedFonts.forEnvironment { _ in "" } == .debian)
        for name in ["FONTCONFIG_FILE", "FONTCONFIG_PATH", "FONTCONFIG_SYSROOT"] {
            #expect(PackagedFonts.forEnvironment { $0 == name ? "/somewhere" : nil } == .none, "\(name)")
        }
    }

    @Test("the packaged files are the ones fontconfig finds for them (so the pixels are the same)")
    func sameAsFontconfig() throws {
        for weight in FontWeight.allCases {
            let found = try FontLocator.find(family: "Inter", weight: weight)
            #expect(PackagedFonts.debian.file(family: "Inter", weight: weight, exists: PackagedFonts.readable) == found)
        }
        let chinese = try FontLocator.find(language: .simplifiedChinese)
        #expect(PackagedFonts.debian.file(language: .simplifiedChinese, exists: PackagedFonts.readable) == chinese)
    }

    /// Text at every weight, in Latin and Chinese, drawn by `r`.
    static func sample(_ r: FreeTypeTextRenderer) -> [UInt32] {
        let b = PixelBuffer(width: 420, height: 4 * 40)
        for (i, weight) in FontWeight.allCases.enumerated() {
            r.draw(
                "Move 25 kcal 今天", TextStyle(size: 26, weight: weight), color: .white,
                at: Point(x: 4.5, y: Float(32 + 40 * i)), into: b, clip: nil)
        }
        var pixels: [UInt32] = []
        for y in 0..<b.height {
            for x in 0..<b.width {
                let c = b.color(x: x, y: y)
                pixels.append(UInt32(c.red) << 16 | UInt32(c.green) << 8 | UInt32(c.blue))
            }
        }
        return pixels
    }

    @Test("a packaged file that is not there falls back to fontconfig: same files, same pixels")
    func fallback() throws {
        let moved = PackagedFonts(
            families: ["inter": Dictionary(uniqueKeysWithValues: FontWeight.allCases.map { ($0, FontFile(path: "/nonexistent/Inter.otf")) })],
            languages: [.simplifiedChinese: FontFile(path: "/nonexistent/wqy.ttc")])
        let fallback = try FreeTypeTextRenderer(fonts: .init(languages: [.simplifiedChinese], packaged: moved))
        let fontconfig = try FreeTypeTextRenderer(fonts: .init(languages: [.simplifiedChinese], packaged: .none))
        let packaged = try FreeTypeTextRenderer(fonts: .init(languages: [.simplifiedChinese], packaged: .debian))
        #expect(fallback.files == fontconfig.files)
        let regular = try FontLocator.find(family: "Inter", weight: .regular)
        #expect(fallback.files.first == regular)
        #expect(packaged.files == fontconfig.files)
        let expected = Self.sample(fontconfig)
        #expect(expected.contains { $0 != 0 }, "something was drawn")
        #expect(Self.sample(fallback) == expected)
        #expect(Self.sample(packaged) == expected)
    }
}
