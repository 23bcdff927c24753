import Foundation
import Store
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A store the user may not open or write is exit 77 (permission), with what to do; never 66
/// ("no such file") or 74.
@Suite("Permission problems are 77", .timeLimit(.minutes(10)))
struct PermissionTests {
    @Test(.enabled(if: Privilege.canActAsOthers, "needs root and setpriv (util-linux) to run glance as another user; CI runs as root"))
    func aStoreTheUserMayNotOpenOrWriteIs77() throws {
        let scratch = Scratch()
        let folder = scratch.file("private")
        #expect(try GlanceCLI.run(["log", "--db", folder + "/glance.db", "--move", "5"], in: scratch).status == 0)
        chmod(scratch.path, 0o755)
        let before = try snapshot(folder + "/glance.db")
        /// `glance ARGS` as user nobody.
        func asNobody(_ arguments: [String]) throws -> GlanceCLI.Result {
            let glance = GlanceExecutable.command(arguments)  // (through its emulator in the arm64 run)
            return try GlanceCLI.run(
                ["--reuid=65534", "--regid=65534", "--clear-groups", glance.program] + glance.arguments, in: scratch,
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

/// Group glance feeds the panel: a store made in a setgid folder is group-writable (with its
/// -wal and -shm), and a member of the group writes it; a user's default is the system store when
/// they may write it.
@Suite("The system store is group glance's too", .timeLimit(.minutes(10)))
struct SharedStoreTests {
    @Test func theDefaultStoreOfAUserWhoMayWriteTheSystemStoreIsTheSystemStore() {
        let env: (String) -> String? = { $0 == "HOME" ? "/home/pi" : nil }
        #expect(StoreLocation.defaultPath(isRoot: false, systemStoreWritable: true, environment: env) == StoreLocation.systemPath)
        #expect(StoreLocation.defaultPath(isRoot: false, systemStoreWritable: false, environment: env) == "/home/pi/.local/share/glance/glance.db")
        #expect(StoreLocation.defaultPath(isRoot: true, environment: env) == StoreLocation.systemPath)
    }

    @Test(.enabled(if: Privilege.canActAsOthers, "needs root and setpriv (util-linux) to run glance as a group member; CI runs as root"))
    func aStoreMadeInASetgidFolderIsWritableByItsGroupAndAMemberWritesIt() throws {
        let scratch = Scratch()
        chmod(scratch.path, 0o755)
        let folder = scratch.file("lib")
        mkdir(folder, 0o2770)
        chmod(folder, 0o2770)  // the umask may have taken bits away
        chown(folder, 0, 4242)
        let db = folder + "/glance.db"
        #expect(try GlanceCLI.run(["log", "--db", db, "--move", "5"], in: scratch).status == 0)
        var st = stat()
        #expect(stat(db, &st) == 0 && st.st_mode & 0o777 == 0o660, "mode \(String(st.st_mode & 0o777, radix: 8))")
        #expect(st.st_gid == 4242, "the folder's group")
        if stat(db + "-wal", &st) == 0 { #expect(st.st_mode & 0o777 == 0o660, "-wal too") }
        // A member of the group (and no one else) writes it.
        func run(_ groups: String) throws -> GlanceCLI.Result {
            let glance = GlanceExecutable.command(["metric", "set", "cpu", "47", "--db", db])  // (through its emulator in the arm64 run)
            return try GlanceCLI.run(
                ["--reuid=65534", "--regid=65534", "--groups=\(groups)", glance.program] + glance.arguments,
                in: scratch, program: "/usr/bin/setpriv")
        }
        let member = try run("4242")
        #expect(member.status == 0, "\(member.err)")
        #expect(try Store(path: db, access: .read).metric(named: "cpu")?.value == 47)
        let stranger = try run("4243")
        #expect(stranger.status == 77, "\(stranger.err)")
        #expect(stranger.err.contains("adduser"), "names the group to join: \(stranger.err)")
    }
}
