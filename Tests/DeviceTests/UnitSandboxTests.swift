import Foundation
import Testing

/// What the units' sandboxes let each service reach (issue 37): the network side's glance serve
/// never reaches the panel's control socket; glance mqtt, which commands the panel, does.
@Suite("device/: what each unit's sandbox reaches", .timeLimit(.minutes(10)))
struct UnitSandboxTests {
    /// The `[Service]` settings of a unit file, each key's values in order.
    static func settings(_ unit: String) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for line in try DeviceFiles.text(unit).split(separator: "\n") where !line.hasPrefix("#") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            result[String(line[..<equals]), default: []].append(String(line[line.index(after: equals)...]))
        }
        return result
    }

    /// The paths a setting names (`-` and `+` prefixes and `:options` left off; a bind's source
    /// and destination both).
    static func paths(_ values: [String]?) -> [String] {
        (values ?? []).flatMap { $0.split(separator: " ") }.flatMap { word -> [String] in
            let plain = word.drop { $0 == "-" || $0 == "+" }
            return plain.split(separator: ":").prefix(2).map(String.init).filter { $0.hasPrefix("/") }
        }
    }

    static func within(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// Whether a service of `unit` can reach `path`: not under a path it hides
    /// (`InaccessiblePaths=`, `TemporaryFileSystem=`) unless bound back in.
    static func reaches(_ unit: String, _ path: String) throws -> Bool {
        let s = try settings(unit)
        let hidden = paths(s["InaccessiblePaths"]) + paths(s["TemporaryFileSystem"])
        let bound = paths(s["BindPaths"]) + paths(s["BindReadOnlyPaths"])
        guard hidden.contains(where: { within(path, $0) }) else { return true }
        return bound.contains { within(path, $0) }
    }

    /// The panel's control socket, in the runtime folder glance.service makes.
    static func socket() throws -> String {
        let folder = try #require(try settings("glance.service")["RuntimeDirectory"]?.first, "glance.service has a RuntimeDirectory=")
        return "/run/\(folder)/glance.sock"
    }

    @Test("glance-serve.service cannot reach the panel's control socket (or its folder); glance-mqtt.service can")
    func serveKeptOffTheSocket() throws {
        let socket = try Self.socket()
        #expect(socket == "/run/glance/glance.sock")
        for path in [socket, "/run/glance", "/run/glance/other.sock"] {
            #expect(!(try Self.reaches("glance-serve.service", path)), "glance serve reaches \(path)")
        }
        #expect(try Self.reaches("glance-mqtt.service", socket), "glance mqtt commands the panel through it")
        // What serve does need in /run: systemd's notify socket (Type=notify, READY=1).
        let serve = try Self.settings("glance-serve.service")
        #expect(serve["Type"] == ["notify"])
        #expect(try Self.reaches("glance-serve.service", "/run/systemd/notify"), "READY=1 cannot reach systemd")
    }

    @Test("glance-import-watch.service runs glance import --watch as glance-net: no network, no control socket, the store writable, shipped and off")
    func watchedFolderUnit() throws {
        let unit = "glance-import-watch.service"
        let s = try Self.settings(unit)
        #expect(s["ExecStart"] == ["/usr/bin/glance import --watch"])
        // The same user and group as glance serve's and glance mqtt's.
        let serve = try Self.settings("glance-serve.service")
        #expect(s["User"] == serve["User"] && s["Group"] == serve["Group"], "\(s["User"] ?? []) \(s["Group"] ?? [])")
        #expect(s["PrivateNetwork"] == ["yes"] && s["IPAddressDeny"] == ["any"])
        for path in [try Self.socket(), "/run/glance"] {
            #expect(!(try Self.reaches(unit, path)), "the watcher reaches \(path)")
        }
        // The store's folder writable; the rest (the watched folder wherever it is) readable only.
        #expect(s["StateDirectory"] == ["glance"] && s["ProtectSystem"] == ["strict"])
        #expect(s["ProtectHome"] == ["read-only"], "a folder under /home must stay readable")
        // import.watch null ends with 0: not restarted; a crash is.
        #expect(s["Restart"] == ["on-failure"])
        // Shipped by the package, enabled by nobody but the administrator.
        let build = try String(contentsOfFile: DeviceFiles.root + "/tools/build-deb.sh", encoding: .utf8)
        #expect(build.contains("device/\(unit)"), "tools/build-deb.sh does not install \(unit)")
        let postinst = try String(contentsOfFile: DeviceFiles.root + "/tools/deb/postinst", encoding: .utf8)
        #expect(!postinst.contains("enable \(unit)") && postinst.contains(unit))
    }

    @Test("glance-web.service runs glance web as glance-web: the panel's socket reached, the configuration and the store writable, no device, shipped and off")
    func webPageUnit() throws {
        let unit = "glance-web.service"
        let s = try Self.settings(unit)
        #expect(s["ExecStart"] == ["/usr/bin/glance web"])
        // Its own user, not the panel's nor glance serve's; group glance for the socket and the store.
        #expect(s["User"] == ["glance-web"] && s["Group"] == ["glance-web"], "\(s["User"] ?? []) \(s["Group"] ?? [])")
        #expect(s["User"] != (try Self.settings("glance-serve.service"))["User"])
        #expect(s["SupplementaryGroups"]?.first?.split(separator: " ").contains("glance") == true)
        #expect(try Self.reaches(unit, try Self.socket()), "the page asks the panel through its socket")
        // A save is written beside the file and renamed over it; goals go to the store; nothing else.
        #expect(s["ProtectSystem"] == ["strict"] && s["PrivateDevices"] == ["yes"])
        let writable = Self.paths(s["ReadWritePaths"])
        #expect(writable.contains("/etc/glance") && writable.contains("/var/lib/glance"), "\(writable)")
        // The one-time link's folder is the unit's own, for its user alone.
        #expect(s["StateDirectory"] == ["glance-web"] && s["StateDirectoryMode"] == ["0700"])
        let build = try String(contentsOfFile: DeviceFiles.root + "/tools/build-deb.sh", encoding: .utf8)
        #expect(build.contains("device/\(unit)"), "tools/build-deb.sh does not install \(unit)")
        let postinst = try String(contentsOfFile: DeviceFiles.root + "/tools/deb/postinst", encoding: .utf8)
        #expect(!postinst.contains("enable \(unit)") && postinst.contains(unit) && postinst.contains("useradd --system --user-group"))
    }
}
