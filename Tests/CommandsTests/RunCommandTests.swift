import Foundation
import TestSupport
import Testing

/// `glance run` and `glance devices` on the command line. Only what stops before the display is
/// touched runs here (the tests must never take over a developer's screen); the display itself
/// is tested in a VM (Tests/VMTests).
@Suite("glance run / devices, arguments", .timeLimit(.minutes(10)))
struct RunCommandTests {
    @Test("run --help documents every option and exit status")
    func help() throws {
        let run = try Executable.run(["run", "--help"])
        #expect(run.status == 0)
        for word in [
            "--card", "--connector", "--mode", "--rotate", "--format", "--legacy", "--single-buffer", "--intro",
            "--report-startup", "SIGTERM", "69", "74", "75", "77", "78", "group video",
        ] {
            #expect(run.stdout.contains(word), "run --help mentions \(word)")
        }
        let devices = try Executable.run(["devices", "--help"])
        #expect(devices.status == 0)
        #expect(devices.stdout.contains("connector"))
        let top = try Executable.run(["--help"])
        #expect(top.stdout.contains("run ") && top.stdout.contains("devices "))
    }

    @Test(
        "bad arguments: one line naming the argument, exit 64, before any device is opened",
        arguments: [
            (["run", "--mode", "480by480"], "--mode '480by480': expected WxH or WxH@Hz"),
            (["run", "--mode", "480x480@0"], "--mode '480x480@0'"),
            (["run", "--size", "480x480"], "run: --size is for glance render; the display's mode sets the size"),
            (["run", "--output", "x.png"], "run: --output is for glance render"),
            (["run", "--rotate", "45"], "--rotate '45': expected 0, 90, 180 or 270"),
            (["run", "--format", "rgb888"], "--format 'rgb888': expected xrgb8888 or rgb565"),
            (["run", "--card"], "--card needs a value"),
            (["run", "--move", "-5/500"], "is negative"),
            (["run", "--no-summary", "--move", "1/2"], "--no-summary draws a day without data"),
            (["run", "--frobnicate"], "run: unknown option '--frobnicate'"),
            (["run", "--dim-after", "400", "--blank-after", "300"], "blank after 300 s comes before dim after 400 s"),
            (["devices", "--all"], "devices: unknown option '--all'"),
        ])
    func badArguments(_ arguments: [String], _ message: String) throws {
        let result = try Executable.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
    }

    @Test(
        "a card node as the kernel made it (root's, 0600) is waited for until udev gives it its group; one set up for others is refused",
        .enabled(if: Privilege.canActAsOthers && GlanceExecutable.emulator.isEmpty, "needs root, setpriv and a native glance to run it as user nobody"))
    func cardBeforeUdev() throws {
        let folder = ScratchFolder("udev")
        chmod(folder.path, 0o755)
        let node = folder.path + "/card0"
        #expect(FileManager.default.createFile(atPath: node, contents: nil), "a file for the test")
        let arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", GlanceExecutable.path, "run", "--card", node, "--rings-only"]
        func run() throws -> ProcessResult { try runProcess("/usr/bin/setpriv", arguments) }
        // Not yet set up: udev (here, this test) makes it the group's only once glance has been
        // seen waiting for a second (it would have ended with 77 at once without the wait); it
        // opens it then (and finds a plain file, not a card: 69).
        chmod(node, 0o600)
        let waiting = OwnedProcess()
        waiting.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        waiting.arguments = arguments
        let err = folder.path + "/err"
        #expect(FileManager.default.createFile(atPath: err, contents: nil), "a file for the test")
        waiting.standardError = FileHandle(forWritingAtPath: err)
        waiting.standardOutput = FileHandle.nullDevice
        try waiting.run()
        usleep(1_000_000)
        let stillWaiting = waiting.isRunning
        chmod(node, 0o666)
        waiting.waitUntilExit(seconds: 60)
        let said = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        #expect(stillWaiting, "glance waited for udev: it was still running a second later (\(said))")
        #expect(waiting.terminationStatus == 69 && said.contains("dumb buffers"), "\(waiting.terminationStatus): \(said)")
        // Set up by udev for group video (root:video 0660): this user is not in it, refused (77).
        chown(node, 0, 44)
        chmod(node, 0o660)
        let refused = try run()
        #expect(refused.status == 77 && refused.stderr.contains("group video"), "\(refused.status): \(refused.stderr)")
    }
}
