import Foundation
import Testing

/// docs/architecture.md's table of modules is the rule for imports: each module imports only what
/// its row lists, and no module imports Foundation (it brings ICU, tens of MB, onto a small board).
@Suite("docs/architecture.md matches the imports", .timeLimit(.minutes(10)))
struct ArchitectureTests {
    static let root: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path
    }()

    /// Module → what it may import, from the table's rows `| Module | owns | imports |`.
    static func documented() throws -> [String: Set<String>] {
        let text = try String(contentsOfFile: root + "/docs/architecture.md", encoding: .utf8)
        var table: [String: Set<String>] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 5, cells[1] != "module", !cells[1].hasPrefix("---") else { continue }
            let allowed = cells[3] == "—" ? [] : cells[3].split(separator: ",").map {
                $0.trimmingCharacters(in: CharacterSet(charactersIn: " ()"))
            }
            table[cells[1]] = Set(allowed)
        }
        return table
    }

    /// The modules a module's sources import (the C library modules of the libc aside, unless
    /// `libc`).
    static func imports(of module: String, libc: Bool = false) throws -> [String: Set<String>] {
        let folder = root + "/Sources/" + module
        var found: [String: Set<String>] = [:]
        let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ")
                guard let i = words.firstIndex(of: "import"), i == words.count - 2,
                    words[..<i].allSatisfy({ $0.hasPrefix("@") || ["internal", "public", "package", "private", "fileprivate"].contains($0) })
                else { continue }
                let name = String(words[i + 1])
                if (name == "Glibc" || name == "Musl") && !libc { continue }
                found[name, default: []].insert(file)
            }
        }
        return found
    }

    @Test("every Swift module has a row, and imports only what its row allows")
    func importsFollowTheTable() throws {
        let table = try Self.documented()
        let modules = try FileManager.default.contentsOfDirectory(atPath: Self.root + "/Sources").filter { name in
            let files = (try? FileManager.default.contentsOfDirectory(atPath: Self.root + "/Sources/" + name)) ?? []
            // C targets (system libraries, shims) have no Swift sources and no row of their own.
            return files.contains { $0.hasSuffix(".swift") }
        }
        #expect(modules.count > 10)
        for module in modules.sorted() {
            guard let allowed = table[module] else {
                Issue.record("docs/architecture.md has no row for Sources/\(module)")
                continue
            }
            for (name, files) in try Self.imports(of: module) where !allowed.contains(name) {
                Issue.record("Sources/\(module) imports \(name) (\(files.sorted().joined(separator: ", "))), which its row does not list")
            }
        }
        for module in table.keys where !modules.contains(module) {
            Issue.record("docs/architecture.md has a row for \(module), which is not a module")
        }
    }

    /// The pure modules: their rows list no C target (a name in parentheses), so they import no
    /// C library at all, the C library (Glibc, Musl) included: what they decide can be tested
    /// without the OS.
    static func pureModules() throws -> [String] {
        let text = try String(contentsOfFile: root + "/docs/architecture.md", encoding: .utf8)
        var pure: [String] = []
        for line in text.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 5, cells[1] != "module", !cells[1].hasPrefix("---") else { continue }
            if !cells[3].contains("(") { pure.append(cells[1]) }
        }
        return pure
    }

    @Test("the pure modules (rows without a C target) import no C library, not even Glibc")
    func pureModulesImportNoLibc() throws {
        let pure = try Self.pureModules()
        for module in ["Raster", "Activity", "Controls", "JSON", "Feeds", "CLI", "Screens", "Configuration", "DeviceLogic"] {
            #expect(pure.contains(module), "\(module) should be pure")
        }
        for module in pure {
            for name in ["Glibc", "Musl"] {
                if let files = try Self.imports(of: module, libc: true)[name] {
                    Issue.record("Sources/\(module) is pure but imports \(name) (\(files.sorted().joined(separator: ", ")))")
                }
            }
        }
        // The check finds the C library where it is imported.
        #expect(try Self.imports(of: "Platform", libc: true)["Glibc"] != nil)
        #expect(!pure.contains("Platform") && pure.contains("Runtime"), "Runtime imports no C library: its system calls are the edge modules'")
    }

    @Test("the helpers stand on none of the panel's modules, through anything they import")
    func helpersStandApart() throws {
        let table = try Self.documented()
        // Everything a module reaches by its row, and its rows' rows.
        func reached(from module: String) -> Set<String> {
            var seen: Set<String> = [], next = [module]
            while let m = next.popLast() {
                for name in table[m] ?? [] where seen.insert(name).inserted { next.append(name) }
            }
            return seen
        }
        let panel: Set<String> = ["Screens", "Display", "Input", "Text", "DeviceLogic", "Runtime", "Commands", "ImageFile", "Backlight"]
        // glance-mqtt's Screenshot image for Home Assistant is the panel's frame as a PNG: ImageFile
        // (libpng and zlib over a pixel buffer) and nothing that draws or holds a device.
        // glance-serve's web page (glance web) shows the same frame, as the same PNG glance screenshot writes.
        let allowed: [String: Set<String>] = ["glance-mqtt": ["ImageFile"], "glance-serve": ["ImageFile"]]
        for helper in ["glance-import", "glance-serve", "glance-mqtt"] {
            #expect(table[helper] != nil, "\(helper) has a row")
            let carried = reached(from: helper).intersection(panel).subtracting(allowed[helper] ?? [])
            #expect(carried.isEmpty, "\(helper) reaches \(carried.sorted())")
        }
        #expect(reached(from: "glance").contains("Screens"), "the check reaches through rows")
    }

    @Test("issue 37: nothing the panel's executable is made of looks users, groups or hosts up through NSS (its modules would load into the panel)")
    func noNameServiceInThePanel() throws {
        let table = try Self.documented()
        var seen: Set<String> = [], next = ["glance"]
        while let m = next.popLast() {
            for name in table[m] ?? [] where seen.insert(name).inserted { next.append(name) }
        }
        let lookups = ["getgrnam", "getgrgid", "getpwnam", "getpwuid", "getgrouplist", "initgroups", "getaddrinfo", "gethostbyname", "getservbyname"]
        var found: [String] = []
        for module in seen.sorted() + ["glance"] {
            let folder = Self.root + "/Sources/" + module
            let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
            for file in files where file.hasSuffix(".swift") || file.hasSuffix(".c") {
                let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
                for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    for name in lookups where line.contains(name + "(") { found.append("\(module)/\(file): \(name)") }
                }
            }
        }
        #expect(seen.contains("ControlSocket") && seen.contains("Platform"), "the walk reaches the panel's modules: \(seen.sorted())")
        #expect(found.isEmpty, "\(found)")
    }

    @Test("the table would catch an import it does not allow")
    func theCheckCanFail() throws {
        let table = try Self.documented()
        #expect(table["Raster"] == [], "Raster imports nothing")
        #expect(table["Screens"] == ["Raster", "Activity", "Faces"])
        #expect(!(table["Configuration"] ?? []).contains("Screens"), "the configuration declares settings without the drawing")
        #expect(!(table["Input"] ?? []).contains("Configuration"), "Input must not need the configuration")
        #expect(try Self.imports(of: "Screens")["Raster"] != nil, "imports are found")
    }
}
