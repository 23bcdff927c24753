import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A store the user may not open or write is exit 77 (permission), with what to do; never 66
/// ("no such file") or 74.
@Suite("Permission problems are 77")
struct PermissionTests {
    @Test func aStoreTheUserMayNotOpenOrWriteIs77() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            print("skipped: needs root and setpriv (util-linux) to run glance as another user; CI runs as root")
            return
        }
        let scratch = Scratch()
        let folder = scratch.file("private")
        #expect(try GlanceCLI.run(["log", "--db", folder + "/glance.db", "--move", "5"], in: scratch).status == 0)
        chmod(scratch.path, 0o755)
        let before = try snapshot(folder + "/glance.db")
        /// `glance ARGS` as user nobody.
        func asNobody(_ arguments: [String]) throws -> GlanceCLI.Result {
            try GlanceCLI.run(
                ["--reuid=65534", "--regid=65534", "--clear-groups", GlanceCLI.executable] + arguments, in: scratch,
                program: "/usr/bin/setpriv")
        }
        // A folder it may not enter: reading, writing, creating.
        chmod(folder, 0o700)
        for arguments in [
            ["export", "--csv", "--db", folder + "/glance.db"], ["log", "--db", folder + "/glance.db", "--move", "6"],
            ["log", "--db", folder + "/new/glance.db", "--move", "6"],
        ] {
            let result = try asNobody(arguments)
            #expect(result.status == 77, "\(arguments): \(result.status) \(result.err)")
            #expect(result.err.contains("permission denied") || result.err.contains("Permission denied"), "\(result.err)")
            #expect(result.err.contains("sudo"), "says what to do: \(result.err)")
        }
        // A file it may read but not write.
        chmod(folder, 0o755)
        let write = try asNobody(["log", "--db", folder + "/glance.db", "--move", "6"])
        #expect(write.status == 77, "\(write.status) \(write.err)")
        #expect(try snapshot(folder + "/glance.db") == before, "the store is unchanged")
    }
}
