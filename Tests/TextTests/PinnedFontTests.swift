import Foundation
import Raster
import TestSupport
import Testing

@testable import Text

/// The goldens were drawn with Debian 12's fonts-inter and fonts-wqy-microhei; Debian 13's Inter
/// 4.1 draws other pixels. So the tests draw with those packages' files, pinned by SHA-256 in
/// tools/test-fonts.txt and unpacked by tools/test-fonts.sh into a folder that GLANCE_FONT_ROOT
/// names (make test sets it); on Debian 12 the installed files are the same ones.
@Suite("Text: the tests draw with the fonts the goldens were drawn with", .timeLimit(.minutes(10)))
struct PinnedFontTests {
    static let repository: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The "file PATH SHA-256" lines of tools/test-fonts.txt.
    static func pinnedFiles() throws -> [String: String] {
        let text = try String(contentsOfFile: repository + "/tools/test-fonts.txt", encoding: .utf8)
        var files: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("file ") {
            let words = line.split(separator: " ")
            if words.count == 3 { files[String(words[1])] = String(words[2]) }
        }
        return files
    }

    static func sha256(_ path: String) throws -> String {
        let result = try runProcess("/usr/bin/sha256sum", [path], seconds: 60)
        return result.stdout.split(separator: " ").first.map(String.init) ?? ""
    }

    @Test("under GLANCE_FONT_ROOT the known files are looked up in that folder; fontconfig's variables still win")
    func root() {
        let rooted = PackagedFonts.forEnvironment { $0 == "GLANCE_FONT_ROOT" ? "/cache/fonts" : nil }
        #expect(rooted == PackagedFonts.debian.rooted(at: "/cache/fonts"))
        let all: (String) -> Bool = { _ in true }
        #expect(
            rooted.file(family: "Inter", weight: .semibold, exists: all)
                == FontFile(path: "/cache/fonts/usr/share/fonts/opentype/inter/Inter-SemiBold.otf"))
        #expect(
            rooted.file(language: .simplifiedChinese, exists: all)
                == FontFile(path: "/cache/fonts/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", index: 0))
        #expect(PackagedFonts.forEnvironment { $0 == "GLANCE_FONT_ROOT" ? "" : nil } == .debian)
        let both = PackagedFonts.forEnvironment { ["GLANCE_FONT_ROOT", "FONTCONFIG_FILE"].contains($0) ? "/x" : nil }
        #expect(both == .none)
    }

    @Test("every file the screens draw with is the pinned one (else: GLANCE_FONT_ROOT=$(tools/test-fonts.sh))")
    func pinned() throws {
        let pins = try Self.pinnedFiles()
        #expect(pins.count == FontWeight.allCases.count + 1, "tools/test-fonts.txt pins the four weights and the Chinese face")
        let root = ProcessInfo.processInfo.environment["GLANCE_FONT_ROOT"] ?? ""
        let known = PackagedFonts.current
        let renderer = try FreeTypeTextRenderer(fonts: .init(languages: [.simplifiedChinese]))
        var used = FontWeight.allCases.compactMap { known.file(family: "Inter", weight: $0, exists: PackagedFonts.readable) }
        used += [known.file(language: .simplifiedChinese, exists: PackagedFonts.readable)].compactMap { $0 }
        #expect(used.count == pins.count, "the fonts are not at their Debian paths\(root.isEmpty ? "" : " under \(root)")")
        #expect(renderer.files == [used[0], used[used.count - 1]], "the renderer opens the known files")
        let hint: String = root.isEmpty
            ? "the installed font packages are not the ones the goldens were drawn with: run the tests with "
                + "GLANCE_FONT_ROOT=\"$(tools/test-fonts.sh)\" (make test does)"
            : "GLANCE_FONT_ROOT=\(root) does not hold the pinned fonts: run tools/test-fonts.sh"
        for file in used {
            let path = String(file.path.dropFirst(root.count))
            let pinned = try #require(pins[path], "\(path) is not pinned in tools/test-fonts.txt")
            let sum = try Self.sha256(file.path)
            #expect(sum == pinned, "\(file.path): \(hint)")
        }
    }
}
