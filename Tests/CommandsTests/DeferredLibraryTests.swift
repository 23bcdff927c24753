import Foundation
import TestSupport
import Testing

/// The libraries only some commands need are opened on their first call (Sources/CDeferred),
/// not by the dynamic loader at every start: with their own libraries (OpenSSL, GnuTLS, ICU's
/// neighbours) they were most of the loader's work before glance run's first frame.
@Suite("Libraries only some commands need, opened on first use")
struct DeferredLibraryTests {
    static let deferred = ["libarchive.so", "libmicrohttpd.so", "libmosquitto.so", "libqrencode.so", "libgnutls.so", "libssl.so"]

    /// glance with the dynamic loader telling every file it opens (LD_DEBUG=files, on stderr).
    static func traced(_ arguments: [String]) throws -> Executable.Result {
        var environment = ProcessInfo.processInfo.environment
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
}
