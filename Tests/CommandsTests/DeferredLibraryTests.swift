import Foundation
import TestSupport
import Testing

/// The libraries only some commands need are opened on their first call (Sources/CDeferred),
/// not by the dynamic loader at every start: with their own libraries (OpenSSL, GnuTLS, ICU,
/// expat) they were most of the loader's work before glance run's first frame.
@Suite("Libraries only some commands need, opened on first use")
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

    @Test("glance import of a .zip opens libarchive when it reads the archive, and reads it through the stubs")
    func importOpensArchive() throws {
        let folder = Executable.scratch("deferred-import")
        let zip = folder + "/export.zip"
        let made = try runProcess(
            "/usr/bin/python3", ["-c", "import sys, zipfile; zipfile.ZipFile(sys.argv[1], 'w').writestr('hello.txt', 'hi')", zip])
        #expect(made.status == 0, "\(made.stderr)")
        let r = try Self.traced(["import", zip, "--db", folder + "/glance.db"])
        #expect(r.stderr.contains("file=libarchive.so.13 [0];  dynamically loaded by"), "\(r.stderr.suffix(3000))")
        // Read to the end: the archive has no export.xml.
        #expect(r.status != 0)
        #expect(r.stderr.contains("export.xml"), "\(r.stderr.suffix(1500))")
        #expect(!r.stderr.contains("libmosquitto.so"))
    }

    @Test("glance import of an export.xml opens libxml2 when it parses, and parses through the stubs")
    func importOpensXML() throws {
        let folder = Executable.scratch("deferred-xml")
        let xml = folder + "/export.xml"
        try #"""
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ActivitySummary dateComponents="2024-03-05" activeEnergyBurned="420" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="kcal" appleExerciseTime="25" appleExerciseTimeGoal="30" appleStandHours="9" appleStandHoursGoal="12"/>
        </HealthData>
        """#.write(toFile: xml, atomically: true, encoding: .utf8)
        let r = try Self.traced(["import", xml, "--db", folder + "/glance.db"])
        #expect(r.status == 0, "\(r.stderr.suffix(2000))")
        #expect(r.stderr.contains("file=libxml2.so.2 [0];  dynamically loaded by"), "\(r.stderr.suffix(3000))")
        #expect(r.stdout.contains("imported 1 day (2024-03-05)"), "\(r.stdout)")
        // libxml2's own errors come through the stubs too: a document cut short.
        try "<HealthData>\n<ActivitySummary dateComponents=\"2024-03-05\"/>\n<Record".write(
            toFile: xml, atomically: true, encoding: .utf8)
        let cut = try Self.traced(["import", xml, "--db", folder + "/glance.db"])
        #expect(cut.status != 0)
        #expect(cut.stderr.contains("export.xml:3:"), "\(cut.stderr.suffix(1500))")
        #expect(cut.stderr.contains("the file looks cut short"), "\(cut.stderr.suffix(1500))")
    }

    @Test("fonts through fontconfig (FONTCONFIG_FILE set) open it on first use, and draw what the packaged paths draw")
    func fontconfigOnFirstUse() throws {
        let folder = Executable.scratch("deferred-fontconfig")
        let arguments = ["render", "--size", "96x96", "--move", "1/2", "--locale", "zh-Hans"]
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
