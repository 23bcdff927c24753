import JSON
import Controls
import Foundation
import TestSupport
import Testing

@testable import Configuration

/// The files in device/ that go onto a board: the default and example configuration, their
/// documentation, and the systemd unit's sandbox.
enum DeviceFiles {
    static let root = Repository.root
    static let device = root + "/device"

    static func text(_ name: String) throws -> String {
        try String(contentsOfFile: device + "/" + name, encoding: .utf8)
    }

    /// Runs a program to its end: exit status and combined output.
    static func run(_ path: String, _ arguments: [String]) throws -> (Int32, String) {
        let result = try runProcess(path, arguments, combined: true)
        return (result.status, result.stdout)
    }

    /// Runs glance (TestSupport's `GlanceExecutable`) to its end: exit status and combined output.
    static func glance(_ arguments: [String]) throws -> (Int32, String) {
        let result = try runGlance(arguments, combined: true)
        return (result.status, result.stdout)
    }

    /// The member names of a JSON object (empty for anything else).
    static func keys(_ json: JSON?) -> Set<String> {
        guard case .object(let members)? = json else { return [] }
        return Set(members.map(\.key))
    }
}

@Suite("device/: configuration files, their documentation, the unit")
struct DeviceFilesTests {
    @Test("device/config.json is exactly the built-in defaults")
    func defaultsFile() throws {
        let parsed = Configuration.parse(try DeviceFiles.text("config.json"))
        let config = try parsed.get()
        #expect(config == Configuration(), "device/config.json differs from the defaults in Configuration.swift")
        // It spells out every top-level setting, so it is also the list to edit.
        let json = try JSONParser.parse(try DeviceFiles.text("config.json"))
        #expect(
            DeviceFiles.keys(json) == Set(Configuration.fileKeys), "missing: \(Set(Configuration.fileKeys).subtracting(DeviceFiles.keys(json)))"
        )
    }

    @Test("device/config.example.json is valid and shows every setting, nested ones too")
    func exampleFile() throws {
        let text = try DeviceFiles.text("config.example.json")
        let config = try Configuration.parse(text).get()
        #expect(config != Configuration())
        let json = try JSONParser.parse(text)
        #expect(
            DeviceFiles.keys(json) == Set(Configuration.fileKeys), "missing: \(Set(Configuration.fileKeys).subtracting(DeviceFiles.keys(json)))"
        )
        #expect(
            DeviceFiles.keys(json["display"]) == ["card", "connector", "mode", "format", "rotate", "legacy", "shape", "brightness"])
        #expect(DeviceFiles.keys(json["idle"]) == ["dimAfter", "blankAfter", "dimLevel"])
        #expect(DeviceFiles.keys(json["clock"]) == ["format", "tiny"])
        #expect(DeviceFiles.keys(json["cycle"]) == ["every", "screens", "pauseOnInput"])
        guard case .array(let windows)? = json["schedule"] else {
            Issue.record("the example has no schedule")
            return
        }
        let windowKeys = windows.reduce(into: Set<String>()) { $0.formUnion(DeviceFiles.keys($1)) }
        #expect(windowKeys == ["from", "to", "days", "brightness", "screens", "cycle"])
        #expect(DeviceFiles.keys(json["touch"]) == ["swapXY", "invertX", "invertY"])
        #expect(DeviceFiles.keys(json["fonts"]) == ["file", "cjkFile"])
        #expect(DeviceFiles.keys(json["serve"]) == ["listen", "tokenFile", "maxBody", "perSecond", "timeout", "tls"])
        #expect(DeviceFiles.keys(json["serve"]?["tls"]) == ["cert", "key"])
        #expect(DeviceFiles.keys(json["goals"]) == ["move", "exercise", "stand"])
        guard case .array(let gauges)? = json["gauges"] else {
            Issue.record("the example has no gauges array")
            return
        }
        let gaugeKeys = gauges.reduce(into: Set<String>()) { $0.formUnion(DeviceFiles.keys($1)) }
        #expect(gaugeKeys == ["style", "title", "unit", "min", "max", "tint", "source"])
        let sourceKeys = gauges.reduce(into: Set<String>()) { $0.formUnion(DeviceFiles.keys($1["source"])) }
        #expect(sourceKeys == [
            "metric", "file", "mqtt", "command", "field", "pattern", "scale", "offset", "interval", "timeout", "staleAfter",
        ])
        #expect(DeviceFiles.keys(json["mqtt"]) == ["broker", "username", "passwordFile", "tls", "clientId", "keepAlive"])
        #expect(DeviceFiles.keys(json["mqtt"]?["tls"]) == ["ca", "cert", "key"])
        // Every action appears (as a key's action or in longPress), so the example names them all.
        let absent = Action.allCases.filter { !text.contains("\"\($0.rawValue)\"") }
        #expect(absent.isEmpty, "actions not in the example: \(absent)")
    }

    @Test(
        "glance config check accepts every shipped configuration",
        arguments: ["config.json", "config.example.json", "raspberry-pi/buttons.json"])
    func configCheck(file: String) throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: GlanceExecutable.path),
            "\(GlanceExecutable.path) is missing: run swift build first (make test does)")
        let (status, output) = try DeviceFiles.glance(["config", "check", "--config", DeviceFiles.device + "/" + file])
        #expect(status == 0, "glance config check device/\(file): \(output)")
        #expect(output.contains("valid"))
    }

    @Test("docs/settings.md is the settings' declarations written out (RECORD_GOLDENS=1 writes it again)")
    func settingsPage() throws {
        let path = DeviceFiles.root + "/docs/settings.md"
        let page = Configuration.settingsPage
        if ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1" {
            try page.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written == page, "docs/settings.md differs from the declarations: run the tests with RECORD_GOLDENS=1")
        for leaf in Configuration.leaves where leaf.inFile {
            #expect(written.contains("`\(leaf.key!.split(separator: ".").last!)`"), "\(leaf.name) is not on the page")
        }
        // The manual lists the same settings.
        let (status, manual) = try DeviceFiles.glance(["help", "--man"])
        #expect(status == 0 && manual.contains(".SH CONFIGURATION") && manual.contains("display.mode (\\-\\-mode)"), "\(manual.suffix(400))")
    }

    @Test("device/README.md documents every setting")
    func documented() throws {
        let readme = try DeviceFiles.text("README.md")
        let nested = [
            "card", "connector", "mode", "format", "rotate", "legacy", "shape", "dimAfter", "blankAfter", "dimLevel",
            "swapXY", "invertX", "invertY", "cjkFile", "metric", "scale", "offset", "interval", "style", "tint",
            "listen", "tokenFile", "maxBody", "perSecond", "timeout", "tls", "move", "mqtt", "command", "field",
            "pattern", "staleAfter", "broker", "username", "passwordFile", "clientId", "keepAlive", "ca", "cert", "key", "exercise", "stand",
            "tiny",
            "every", "pauseOnInput",
            "from", "to", "days",
            "brightness",
            "enabled", "discoveryPrefix", "baseTopic",
        ]
        let missing = (Configuration.fileKeys + nested).filter { !readme.contains("`\($0)`") }
        #expect(missing.isEmpty, "device/README.md does not mention these settings: \(missing)")
    }

    @Test("systemd-analyze security rates the app's unit, glance serve's and glance mqtt's 2.0 or lower")
    func unitSecurity() throws {
        let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard let analyze else {
            print("device: systemd-analyze is not installed here (package systemd): unit security not rated")
            return
        }
        // The app's unit, glance serve's and glance mqtt's (which reach the network): 2.0 or lower.
        for (unit, target) in [("glance.service", 2.0), ("glance-serve.service", 2.0), ("glance-mqtt.service", 2.0)] {
            let file = unit.hasPrefix("/") ? unit : DeviceFiles.device + "/" + unit
            let (status, output) = try DeviceFiles.run(analyze, ["security", "--offline=yes", "--no-pager", file])
            let line = output.split(separator: "\n").first { $0.contains("Overall exposure level") }
            let figure = line.flatMap { l in l.split(separator: " ").compactMap { Double($0) }.last }
            #expect(figure != nil, "no exposure level in systemd-analyze's output (status \(status)):\n\(output)")
            if let line { print("device: systemd-analyze security --offline=yes device/\(unit): \(line)") }
            #expect((figure ?? 10) <= target, "\(unit)'s exposure level is \(figure ?? -1), above the \(target) target")
        }
    }
}
