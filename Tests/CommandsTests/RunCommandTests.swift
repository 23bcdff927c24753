import Testing

/// `glance run` and `glance devices` on the command line. Only what stops before the display is
/// touched runs here (the tests must never take over a developer's screen); the display itself
/// is tested in a VM (Tests/VMTests).
@Suite("glance run / devices, arguments")
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
            (["run", "--mode", "480by480"], "--mode '480by480': expected WxH or WxH@HZ"),
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
}
