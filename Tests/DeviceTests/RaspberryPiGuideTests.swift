import Foundation
import Testing

/// device/raspberry-pi/README.md, as a new Pi owner copies from it: the config.txt lines the
/// firmware reads as meant, and panel examples that choose their panel.
@Suite("the Raspberry Pi guide: config.txt lines, connectors")
struct RaspberryPiGuideTests {
    /// The lines of every fenced block of `language` in the guide.
    static func blocks(_ language: String) throws -> [[String]] {
        let text = try DeviceFiles.text("raspberry-pi/README.md")
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if current == nil, line == "```" + language {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!)
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks
    }

    /// What is wrong with config.txt lines, one message each.
    static func problems(_ lines: [String]) -> [String] {
        var found: [String] = []
        for line in lines where !line.isEmpty {
            if line.count > 98 { found.append("over the firmware's 98 characters (\(line.count)): \(line)") }
            if line.hasPrefix("#") { continue }
            if line.contains("#") { found.append("a comment after a setting: \(line)") }
            if line != line.trimmingCharacters(in: .whitespaces) { found.append("spaces around a setting: '\(line)'") }
            if !line.contains("=") { found.append("not a setting: \(line)") }
        }
        return found
    }

    @Test("config.txt lines: no comment after a setting (the firmware would read it), none over 98 characters")
    func configLines() throws {
        let lines = try Self.blocks("ini").flatMap { $0 }
        #expect(lines.count > 10, "the guide's ```ini blocks (config.txt) were not found")
        #expect(Self.problems(lines) == [])
    }

    @Test("every panel example names its connector (the first connected one may be HDMI)")
    func connectors() throws {
        let displays = try Self.blocks("json").flatMap { $0 }.filter { $0.contains("\"display\"") }
        #expect(displays.count >= 5, "the guide's panel examples were not found")
        for line in displays {
            #expect(line.contains("\"connector\": \""), "no connector: \(line)")
        }
    }

    @Test("the check catches a trailing comment and a long line")
    func theCheckCanFail() {
        let trailing = "dtoverlay=vc4-kms-dsi-7inch            # only when display_auto_detect=0"
        #expect(Self.problems([trailing]).count == 1)
        #expect(Self.problems(["dtparam=" + String(repeating: "x", count: 91)]).count == 1)
        #expect(Self.problems(["# a comment of its own", "dtparam=write-only"]) == [])
    }
}
