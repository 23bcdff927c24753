import Foundation
import TestSupport
import Testing

/// The libraries only some commands need stay out of glance run's process: the import's and the
/// network's are linked by executables of their own (glance-import, glance-serve, glance-mqtt, run
/// git-style), fontconfig is opened on its first call (Sources/CDeferred). With their own
/// libraries (OpenSSL, GnuTLS, ICU, expat) they were most of the loader's work before glance
/// run's first frame.
@Suite("Libraries only some commands need: other executables, or opened on first use", .timeLimit(.minutes(10)))
struct DeferredLibraryTests {
    static let deferred = [
        "libarchive.so", "libmicrohttpd.so", "libmosquitto.so", "libqrencode.so", "libgnutls.so", "libssl.so", "libxml2.so",
        "libicuuc.so", "libfontconfig.so", "libexpat.so",
    ]

    /// glance with the dynamic loader telling every file it opens (LD_DEBUG=files, on stderr).
    static func traced(_ arguments: [String], _ extra: [String: String] = [:]) throws -> Executable.Result {
        var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        environment["LD_DEBUG"] = "files"
        return try Executable.run(arguments, environment: environment)
    }

    @Test("glance render with text loads none of them")
    func renderLoadsNone() throws {
        let output = Executable.scratch("deferred-render") + "/x.png"
        let r = try Self.traced(["render", "--size", "96x96", "--move", "1/2", "--output", output])
        #expect(r.status == 0, "\(r.stderr.suffix(2000))")
        #expect(r.stderr.contains("libfreetype.so"), "the loader's trace is there")
        for library in Self.deferred { #expect(!r.stderr.contains(library), "\(library) loaded by glance render") }
    }

    /// The libraries a binary asks the dynamic loader for (its NEEDED entries).
    static func needed(_ path: String) throws -> [String] {
        let r = try runProcess("/usr/bin/readelf", ["-d", path])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.split(separator: "\n").compactMap { line in
            guard line.contains("(NEEDED)"), let a = line.firstIndex(of: "["), let b = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: a)..<b])
        }
    }

    @Test("glance's own binary links none of the import's and the network's libraries; glance-import, glance-serve and glance-mqtt link theirs")
    func helpersLinkTheirOwn() throws {
        guard GlanceExecutable.emulator.isEmpty else {
            print("skipped: readelf of the arm64 binaries is the native run's (the same build rules)")
            return
        }
        let folder = URL(fileURLWithPath: GlanceExecutable.path).deletingLastPathComponent().path
        let glance = try Self.needed(GlanceExecutable.path)
        #expect(glance.contains { $0.hasPrefix("libfreetype.so") }, "the trace is there: \(glance)")
        for library in ["libarchive.so", "libxml2.so", "libmicrohttpd.so", "libqrencode.so", "libmosquitto.so", "libfontconfig.so"] {
            #expect(!glance.contains { $0.hasPrefix(library) }, "glance links \(library): \(glance)")
        }
        let own = [
            "glance-import": ["libarchive.so", "libxml2.so"], "glance-serve": ["libmicrohttpd.so", "libqrencode.so"],
            "glance-mqtt": ["libmosquitto.so"],
        ]
        for (helper, libraries) in own {
            let linked = try Self.needed(folder + "/" + helper)
            for library in libraries { #expect(linked.contains { $0.hasPrefix(library) }, "\(helper) does not link \(library): \(linked)") }
        }
    }

    @Test("glance import runs glance-import in its own place (the same process id): its libraries loaded then, not by glance")
    func importRunsItsExecutable() throws {
        let folder = Executable.scratch("helper-import")
        let xml = folder + "/export.xml"
        try #"""
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ActivitySummary dateComponents="2024-03-05" activeEnergyBurned="420" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="kcal" appleExerciseTime="25" appleExerciseTimeGoal="30" appleStandHours="9" appleStandHoursGoal="12"/>
        </HealthData>
        """#.write(toFile: xml, atomically: true, encoding: .utf8)
        let r = try Self.traced(["import", xml, "--db", folder + "/glance.db"])
        #expect(r.status == 0, "\(r.stderr.suffix(2000))")
        #expect(r.stdout.contains("imported 1 day (2024-03-05)"), "\(r.stdout)")
        if GlanceExecutable.emulator.isEmpty {
            // The loader's trace: glance first, then the same process running glance-import, which needs libxml2.
            #expect(r.stderr.contains("file=libxml2.so.2 [0];  needed by") && r.stderr.contains("glance-import"), "\(r.stderr.suffix(3000))")
            let pids = Set(r.stderr.split(separator: "\n").compactMap { $0.split(separator: ":").first?.trimmingCharacters(in: .whitespaces) })
            #expect(pids.count == 1, "one process: \(pids)")
        }
        // A folder without it: said, with what to do, 69.
        let missing = try Executable.run(["import", xml, "--db", folder + "/glance.db"], environment: ProcessInfo.processInfo.environment.merging(["GLANCE_EXEC_PATH": folder]) { $1 })
        if GlanceExecutable.emulator.isEmpty {
            #expect(missing.status == 69, "\(missing.stderr)")
            #expect(missing.stderr.contains("cannot run glance-import") && missing.stderr.contains("/usr/lib/glance"), "\(missing.stderr)")
        }
    }

    @Test("fonts through fontconfig (FONTCONFIG_FILE set) open it on first use, and draw what the packaged paths draw")
    func fontconfigOnFirstUse() throws {
        let folder = Executable.scratch("deferred-fontconfig")
        // A day and a time of their own: two pictures drawn a minute apart would differ by the clock.
        let arguments = ["render", "--size", "96x96", "--move", "1/2", "--locale", "zh-Hans", "--today", "2026-11-01", "--time", "10:09"]
        // The installed fonts both times (not the tests' pinned ones under GLANCE_FONT_ROOT, which
        // fontconfig's configuration does not list).
        let direct = try Self.traced(arguments + ["--output", folder + "/direct.png"], ["GLANCE_FONT_ROOT": ""])
        #expect(direct.status == 0, "\(direct.stderr.suffix(2000))")
        #expect(!direct.stderr.contains("libfontconfig.so"), "fontconfig loaded though the fonts are at their Debian paths")
        let found = try Self.traced(arguments + ["--output", folder + "/fontconfig.png"], ["FONTCONFIG_FILE": "/etc/fonts/fonts.conf", "GLANCE_FONT_ROOT": ""])
        #expect(found.status == 0, "\(found.stderr.suffix(2000))")
        #expect(found.stderr.contains("file=libfontconfig.so.1 [0];  dynamically loaded by"), "\(found.stderr.suffix(3000))")
        let a = FileManager.default.contents(atPath: folder + "/direct.png")
        let b = FileManager.default.contents(atPath: folder + "/fontconfig.png")
        #expect(a != nil && a == b, "the two pictures differ")
    }
}
