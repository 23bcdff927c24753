import Foundation
import ImageFile
import Raster
import TestSupport
import Testing

/// `glance render --message`: the picture of a message as the panel draws it (what the VM test
/// compares the panel with), and what it says of it; a text the panel would refuse refused here.
@Suite("glance render --message", .timeLimit(.minutes(10)))
struct MessageCommandTests {
    @Test("drawn in place of the screen, its lines figures (20′) with --explain; a control character refused (64)")
    func render() throws {
        let folder = ScratchFolder("render-message")
        let plain = try Executable.run(["render", "--size", "240x240", "--move", "300/500", "--output", folder.path + "/rings.png"])
        let shown = try Executable.run([
            "render", "--size", "240x240", "--move", "300/500", "--message", "Dinner is ready", "--output", folder.path + "/message.png",
        ])
        #expect(plain.status == 0 && shown.status == 0, "\(shown.stderr)")
        let rings = try PNGFile.read(folder.path + "/rings.png"), message = try PNGFile.read(folder.path + "/message.png")
        #expect(rings.size == message.size && (0..<240).contains { y in (0..<240).contains { rings.color(x: $0, y: y) != message.color(x: $0, y: y) } })
        let r = try Executable.run(["render", "--size", "240x240", "--message", "Dinner is ready", "--explain"])
        #expect(r.status == 0, "\(r.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let texts = try #require(document?["texts"] as? [[String: Any]], "\(r.stdout)")
        #expect(texts.map { $0["element"] as? String } == ["message.line.1", "message.line.2"], "\(texts)")
        #expect(texts.allSatisfy { $0["figure"] as? Bool == true })
        #expect(texts.compactMap { $0["text"] as? String }.joined(separator: " ") == "Dinner is ready")
        let bad = try Executable.run(["render", "--size", "240x240", "--message", "tab\there", "--explain"])
        #expect(bad.status == 64 && bad.stderr.contains("--message: a control character (U+0009)"), "\(bad.stderr)")
    }
}
