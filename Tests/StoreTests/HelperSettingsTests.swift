import Foundation
import TestSupport
import Testing

/// glance serve and glance mqtt run executables of their own that know no key names (those are
/// libevdev's, the panel's side, which the helpers do not link): glance checks their settings as
/// glance run would before it runs them, so a configuration glance run refuses stops them too.
@Suite("glance serve and mqtt: their settings checked as glance run checks them", .timeLimit(.minutes(10)))
struct HelperSettingsTests {
    @Test(
        "a key name libevdev does not know stops glance serve and glance mqtt with 78, said with its JSON path",
        .enabled(
            if: GlanceExecutable.emulator.isEmpty,
            "glance runs under an emulator, where the tests start glance-serve and glance-mqtt themselves: the check is glance's, before it runs them"))
    func unknownKeyName() throws {
        let scratch = Scratch()
        let keys = "\"keys\": {\"KEY_NOSUCHKEY\": \"nextScreen\"}"
        // Unchecked, each would end otherwise: serve on its missing token (66), mqtt on a store
        // that cannot be made (73).
        let serve = scratch.write("serve.json", "{\(keys), \"serve\": {\"tokenFile\": \"\(scratch.file("no-token"))\"}}")
        let mqtt = scratch.write("mqtt.json", "{\(keys), \"mqtt\": {\"broker\": \"mqtt://127.0.0.1:1\"}}")
        let underAFile = scratch.write("in-the-way", "a file, not a folder\n") + "/sub/glance.db"
        let commands = [
            ["serve", "--config", serve, "--db", scratch.db, "--listen", "127.0.0.1:0"],
            ["mqtt", "--config", mqtt, "--db", underAFile],
        ]
        for arguments in commands {
            let r = try GlanceCLI.run(arguments, in: scratch, killAfter: 30)
            #expect(r.status == 78, "\(arguments[0]): \(r)")
            #expect(r.err.contains("$.keys.KEY_NOSUCHKEY: no such key name"), "\(arguments[0]): \(r.err)")
        }
    }
}
