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

    /// The member names of a JSON object, or of every object in an array, together.
    static func allKeys(_ json: JSON?) -> Set<String> {
        guard case .array(let items)? = json else { return keys(json) }
        return items.reduce(into: Set<String>()) { $0.formUnion(keys($1)) }
    }

    /// The value at a dotted path of the file (`display.mode`).
    static func value(_ json: JSON, at path: String) -> JSON? {
        path.split(separator: ".").reduce(Optional(json)) { $0?[String($1)] }
    }

    /// The same JSON, whatever order an object's members are written in.
    static func same(_ a: JSON, _ b: JSON) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { m in y.first { $0.key == m.key }.map { same(m.value, $0.value) } ?? false }
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        default: return a == b
        }
    }
}

@Suite("device/: configuration files, their documentation, the unit", .timeLimit(.minutes(10)))
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
        // Every setting, nested ones too, at its default as the declarations write it (the
        // default text of docs/settings.md is made from the same).
        for leaf in Configuration.leaves where leaf.inFile {
            guard case .json(let written)? = leaf.write(Configuration()) else { continue }
            let given = DeviceFiles.value(json, at: leaf.key!)
            #expect(given.map { DeviceFiles.same($0, written) } == true, "\(leaf.key!): \(given.map(\.kind) ?? "missing"), not \(written)")
        }
        for top in Configuration.settings where top.inFile && !top.members.isEmpty {
            #expect(DeviceFiles.keys(json[top.key!]).count == top.members.count, "\(top.key!) spells every member")
        }
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
        // The objects of settings (`display`, …) and the objects in a value (`cycle`, each gauge,
        // each window, the broker), each with every member its declarations have.
        for top in Configuration.settings where top.inFile && !top.members.isEmpty {
            let declared = Set(top.members.compactMap { $0.key.map { String($0.dropFirst(top.key!.count + 1)) } })
            #expect(DeviceFiles.keys(json[top.key!]) == declared, "\(top.key!)")
        }
        for object in Configuration.valueObjects {
            let name = object.path.hasSuffix("[]") ? String(object.path.dropLast(2)) : object.path
            #expect(DeviceFiles.allKeys(json[name]) == Set(object.keys), "\(object.path)")
        }
        // What a value's own form takes (not declarations of settings).
        #expect(DeviceFiles.keys(json["serve"]?["tls"]) == ["cert", "key"])
        guard case .array(let gauges)? = json["gauges"] else {
            Issue.record("the example has no gauges array")
            return
        }
        let sourceKeys = gauges.reduce(into: Set<String>()) { $0.formUnion(DeviceFiles.keys($1["source"])) }
        #expect(sourceKeys == [
            "metric", "file", "mqtt", "command", "field", "pattern", "scale", "offset", "interval", "timeout", "staleAfter",
        ])
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
        // Written as the settings are written now: no note of an older form (a brightness as a fraction).
        #expect(!output.contains("note"), "device/\(file): \(output)")
    }

    @Test("docs/settings.md is the settings' declarations written out (RECORD_GOLDENS=1 writes it again)")
    func settingsPage() throws {
        let path = DeviceFiles.root + "/docs/settings.md"
        let page = Configuration.settingsPage
        // Recording writes the page and fails, as the goldens do (compared with itself, it would
        // pass by not testing).
        if ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1" {
            try page.write(toFile: path, atomically: true, encoding: .utf8)
            Issue.record("wrote docs/settings.md; look at it, then run again without RECORD_GOLDENS")
            return
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

    @Test("device/README.md links the settings' page and writes no table of settings of its own")
    func documented() throws {
        let readme = try DeviceFiles.text("README.md")
        #expect(readme.contains("](../docs/settings.md)"), "device/README.md links docs/settings.md")
        // A second table of settings (a default column) drifts from the declarations:
        // docs/settings.md is made from them.
        let headers = readme.split(separator: "\n").filter { $0.hasPrefix("| ") && $0.contains("| default |") }
        #expect(headers.isEmpty, "hand-written tables of settings: \(headers)")
        // What the page does not spell out, a value's own members (a gauge's source, TLS files), the
        // README does.
        let formMembers = [
            "metric", "file", "mqtt", "command", "field", "pattern", "scale", "offset", "interval", "timeout", "staleAfter",
            "ca", "cert", "key",
        ]
        let missing = formMembers.filter { !readme.contains("`\($0)`") }
        #expect(missing.isEmpty, "device/README.md does not mention: \(missing)")
    }

    @Test("systemd-analyze security rates the app's unit, glance serve's, glance mqtt's and the watched folder's 2.0 or lower")
    func unitSecurity() throws {
        let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard let analyze else {
            print("device: systemd-analyze is not installed here (package systemd): unit security not rated")
            return
        }
        // The app's unit, glance serve's and glance mqtt's (which reach the network), and glance
        // import --watch's (files from outside): 2.0 or lower.
        let units = [
            ("glance.service", 2.0), ("glance-serve.service", 2.0), ("glance-mqtt.service", 2.0), ("glance-import-watch.service", 2.0), ("glance-web.service", 2.0),
        ]
        for (unit, target) in units {
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
