import Foundation
import TestSupport
import Testing

/// `make test` requires every part (GLANCE_REQUIRE_ALL_PARTS): any value but an explicit no turns
/// the requirement on, and then every way a part is switched off (a GLANCE_SKIP_… switch, no root,
/// Home Assistant's schemas not installable) is a failure naming why, in the scripts
/// (tools/switches.sh) and in the tests (`RunSwitch`) alike.
@Suite("the test run's switches: a skipped part fails while every part is required", .timeLimit(.minutes(10)))
struct TestRunSwitchesTests {
    static let yes = ["1", "true", "yes", "on", "TRUE", "On"]
    static let no = ["", "0", "false", "no", "off", "OFF"]

    @Test("GLANCE_REQUIRE_ALL_PARTS: any true value (or a misspelling) is on, only an explicit no is off; GLANCE_SKIP_…: only a true value")
    func values() {
        for value in Self.yes + ["tru", "2"] {
            #expect(RunSwitch.required(["GLANCE_REQUIRE_ALL_PARTS": value]), "\(value)")
        }
        for value in Self.no { #expect(!RunSwitch.required(["GLANCE_REQUIRE_ALL_PARTS": value]), "\(value)") }
        #expect(!RunSwitch.required([:]))
        for value in Self.yes { #expect(RunSwitch.on("GLANCE_SKIP_VM", ["GLANCE_SKIP_VM": value]), "\(value)") }
        for value in Self.no + ["tru"] { #expect(!RunSwitch.on("GLANCE_SKIP_VM", ["GLANCE_SKIP_VM": value]), "\(value)") }
    }

    static func environment(_ extra: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["GLANCE_REQUIRE_ALL_PARTS", "GLANCE_SKIP_INSTALL_CHECK", "GLANCE_SKIP_ARM64"] { environment[name] = nil }
        return environment.merging(extra) { $1 }
    }

    @Test("the install check's skip fails, said, while every part is required; passes, said, otherwise")
    func installCheckSkip() throws {
        let script = Repository.root + "/tools/install-check.sh"
        for required in Self.yes {
            let r = try runProcess(script, [], environment: Self.environment(
                ["GLANCE_SKIP_INSTALL_CHECK": "yes", "GLANCE_REQUIRE_ALL_PARTS": required]), seconds: 60)
            #expect(r.status == 1, "GLANCE_REQUIRE_ALL_PARTS=\(required): \(r.output)")
            #expect(r.stderr.contains("GLANCE_SKIP_INSTALL_CHECK=yes is set; every part is required"), "\(r.output)")
        }
        for required in ["0", "off"] {
            let r = try runProcess(script, [], environment: Self.environment(
                ["GLANCE_SKIP_INSTALL_CHECK": "1", "GLANCE_REQUIRE_ALL_PARTS": required]), seconds: 60)
            #expect(r.status == 0 && r.stderr.contains("skipped: GLANCE_SKIP_INSTALL_CHECK=1 is set"), "\(r.output)")
        }
    }

    @Test("the arm64 parts' skip fails, said, while every part is required")
    func arm64Skip() throws {
        let script = Repository.root + "/tools/arm64/make-test.sh"
        let required = try runProcess(script, ["package"], environment: Self.environment(
            ["GLANCE_SKIP_ARM64": "true", "GLANCE_REQUIRE_ALL_PARTS": "true"]), seconds: 60)
        #expect(required.status == 1 && required.stderr.contains("every part is required"), "\(required.output)")
        let optional = try runProcess(script, ["package"], environment: Self.environment(
            ["GLANCE_SKIP_ARM64": "on", "GLANCE_REQUIRE_ALL_PARTS": "0"]), seconds: 60)
        #expect(optional.status == 0 && optional.stderr.contains("skipped: GLANCE_SKIP_ARM64=on is set"), "\(optional.output)")
    }

    @Test("without Home Assistant's schemas (PyPI unreachable) the schema check fails while every part is required; 69 (the documented keys instead) otherwise")
    func schemasRequired() throws {
        let cache = ScratchFolder("ha-schemas-offline")
        let input = cache.write("discovery.txt", "homeassistant/button/glance/next/config {\"command_topic\": \"x\"}\n")
        // No index: pip finds nothing (at once), as with no network.
        let offline = ["XDG_CACHE_HOME": cache.path, "PIP_INDEX_URL": "http://127.0.0.1:9/simple", "PIP_RETRIES": "0", "PIP_TIMEOUT": "2"]
        let command = ["-c", "exec '\(Repository.root)/tools/ha-schemas.sh' < '\(input)'"]
        let required = try runProcess("/bin/sh", command, environment: Self.environment(offline.merging(["GLANCE_REQUIRE_ALL_PARTS": "yes"]) { $1 }), seconds: 240)
        #expect(required.status == 1, "\(required.output)")
        #expect(required.stdout.contains("unavailable: Home Assistant 2024.1.6 could not be installed") && required.stdout.contains("every part is required"), "\(required.output)")
        let optional = try runProcess("/bin/sh", command, environment: Self.environment(offline.merging(["GLANCE_REQUIRE_ALL_PARTS": "no"]) { $1 }), seconds: 240)
        #expect(optional.status == 69, "\(optional.output)")
    }

    @Test("make test's backstop (tools/bounded.sh): a command past its limit is ended with all it started, its own process groups too, said, 124")
    func backstop() throws {
        let marker = "glance-bounded-\(getpid())"
        let script = Repository.root + "/tools/bounded.sh"
        // A child in a process group of its own, as the test bundle is under swift test.
        let r = try runProcess(script, ["2", "/bin/sh", "-c", "/usr/bin/python3 -c 'import os, time; os.setpgid(0, 0); time.sleep(300)' \(marker) & exec sleep 301"], seconds: 60)
        #expect(r.status == 124, "\(r.output)")
        #expect(r.stderr.contains("ran past 2 s; still running, now killed"), "\(r.output)")
        // (The check can fail: the same tree under plain timeout(1) leaves the marked one running.)
        let left = try runProcess("/usr/bin/pgrep", ["-f", marker], seconds: 10)
        #expect(left.status == 1, "still running: \(left.stdout)")
        // Within its limit: the command's own status.
        #expect(try runProcess(script, ["20", "/bin/sh", "-c", "exit 3"], seconds: 60).status == 3)
    }
}
