import Foundation
import Raster
import Testing

/// `glance run` and `glance devices` on Debian's kernel under qemu, with the real virtio-gpu and
/// bochs DRM drivers, checked from the host by screendumps of the virtual monitor.
///
/// Builds nothing: it boots tools/vm/run-in-vm.sh with the already built .build/debug/glance
/// (`make test` builds first). Each test is one boot that runs several steps, to stay well under
/// five minutes on two cores without KVM. Results stay in $TMPDIR/glance-vmtests/BOOT/vm.
@Suite(
    .serialized,
    .timeLimit(.minutes(30)),
    .disabled(
        if: !VMAvailability.available, Comment(rawValue: VMAvailability.skipped)))
struct VMEndToEndTests {
    init() throws {
        guard FileManager.default.isExecutableFile(atPath: VMPaths.glance) else {
            throw VMTestError("\(VMPaths.glance) is missing: run `swift build` first (make test does)")
        }
    }

    /// How each `show` step is expected to end.
    enum Ending {
        /// Stopped by a signal the app handles: exit 0, console back.
        case handled
        /// A fatal signal: the crash handler restores, then the signal kills the app.
        case crashed(Int)
        /// SIGKILL: nothing can restore; the check proves the restore check can fail.
        case killed
    }

    /// The screendumps of every `show` step: the frame equals `glance render` of the same day at
    /// the same size and rotation, pixel for pixel; afterwards the console is back, exactly.
    func checkShows(_ result: VMResult, endings: [String: Ending] = [:]) throws {
        let console = try #require(result.screendump("console"), "no console screendump; \(result.context)")
        #expect(litPixels(console) > 500, "the console screendump shows no text; \(result.context)")
        for (step, animates, picture) in result.boot.shows {
            let ending = endings[step] ?? .handled
            if animates {
                // The animation drew several frames, then stopped drawing until the signal; its
                // last frame is the one compared below.
                let frames = result.firstMatch(#"\[\#(step)\] glance: idle after (\d+) frames"#).flatMap { Int($0) }
                #expect((frames ?? 0) > 1, "\(step): no animation frames: \(result.output(step))")
                #expect(result.output(step).contains("display restored after \(frames ?? -1) frames"))
            }
            let shown = try #require(result.screendump(step), "no screendump of \(step); \(result.context)")
            let render = try result.reference(step)
            #expect(
                difference(shown, render, name: step, folder: result.folder) == nil,
                "\(step): the display differs from glance render --size \(result.boot.size) \(picture.joined(separator: " "))")
            let after = try #require(result.screendump(step + "-after"), "no screendump after \(step)")
            let rc = result.exitRC(step)
            switch ending {
            case .handled:
                #expect(rc == 0, "\(step): exit status \(String(describing: rc)) after its signal, expected 0")
                #expect(result.output(step).contains("display restored"), "\(step): no 'display restored' line")
            case .crashed(let signal):
                #expect(rc == 128 + signal, "\(step): exit status \(String(describing: rc)), expected \(128 + signal)")
                #expect(result.output(step).contains("fatal signal: display restored"))
            case .killed:
                #expect(rc == 137, "\(step): exit status \(String(describing: rc)), expected 137")
            }
            let restored = difference(after, console, name: step + "-after", folder: result.folder)
            if case .killed = ending {
                #expect(
                    restored != nil, "\(step): after SIGKILL the console came back; the restore check proves nothing")
            } else {
                #expect(
                    restored == nil, "\(step): after the app the monitor does not show the console: \(restored ?? "")")
            }
            if let line = result.startup(step) { print("vm \(result.boot.name) \(step): \(line)") }
        }
        print(
            "vm \(result.boot.name): \(result.boot.gpu) \(result.boot.size), boot and steps took \(Int(result.seconds)) s"
        )
    }

    /// The `animate` steps: at every stop the monitor shows one of the last two frames the app
    /// reported, pixel for pixel as `glance render --time T` draws it; the frames were drawn and
    /// presented in parts (the damage path ran); the monitor moved between stops; the console
    /// came back at the end.
    func checkAnimations(_ result: VMResult) throws {
        let console = try #require(result.screendump("console"))
        for (step, picture, stops) in result.boot.animations {
            let log = result.output(step)
            let frames = log.split(separator: "\n").filter { $0.hasPrefix("frame ") }
            // Frames after the first two (one per buffer) drawn in parts, presented in parts.
            let inParts = frames.filter { !$0.contains("drawn whole") && !$0.contains("presented none") }
            #expect(frames.count > 2 * stops, "\(step): \(frames.count) frames reported: \(log)")
            #expect(
                inParts.count >= frames.count - 2, "\(step): frames drawn whole in the animation: \(frames.prefix(6))")
            var shown: [PixelBuffer] = []
            for i in 1...stops {
                let stop = "\(step)-stop-\(i)"
                let dump = try #require(result.screendump(stop), "no screendump \(stop); \(result.context)")
                let times = result.output(stop).split(separator: "\n").compactMap { line -> String? in
                    // "frame N at T s: ..."
                    let words = line.split(separator: " ")
                    return words.count > 4 && words[2] == "at" ? String(words[3]) : nil
                }
                #expect(times.count == 2, "\(stop): the frames reported before the stop: \(result.output(stop))")
                if picture.contains("--intro") {
                    // Stopped while the rings were filling (0.9 s, RingIntroScene's length), not
                    // after (which the show steps' check of the end covers): the earlier of the two
                    // frames is mid-intro. The later one may come past the end when the emulated
                    // machine took over a second for one frame (seen beside the arm64 suites).
                    #expect(
                        (Double(times.first ?? "") ?? 1) < 0.9,
                        "\(stop): the stop came after the intro had ended (frames at \(times) s)")
                    if !times.allSatisfy({ (Double($0) ?? 1) < 0.9 }) {
                        print("\(stop): the frame after \(times.first ?? "") s came past the intro's end (\(times) s): the machine was slow; that monitor picture is the intro's end")
                    }
                }
                var differences: [String] = []
                for (n, time) in times.enumerated() {
                    let reference = try result.boot.render(
                        picture + ["--time", time], to: result.folder + "/ref-\(stop)-\(n).png")
                    if let d = difference(dump, reference, name: "\(stop)-\(n)", folder: result.folder) {
                        differences.append(d)
                    }
                }
                #expect(
                    differences.count < times.count,
                    "\(stop): the monitor shows neither of the last two frames (times \(times)): \(differences)")
                shown.append(dump)
            }
            for i in 1..<shown.count {
                #expect(
                    difference(shown[i], shown[i - 1], name: "\(step)-moved-\(i)", folder: result.folder) != nil,
                    "\(step): the monitor did not change between stops \(i) and \(i + 1)")
            }
            #expect(result.exitRC(step) == 0, "\(step): \(log)")
            #expect(log.contains("SIGTERM: display restored"), "\(step): \(log)")
            let after = try #require(result.screendump(step + "-after"), "no screendump after \(step)")
            #expect(difference(after, console, name: step + "-after", folder: result.folder) == nil)
            print("vm \(result.boot.name) \(step): \(frames.count) frames, \(inParts.count) in parts, \(stops) stops compared")
        }
    }

    /// A switch to tty2 and back while the app shows: the other console, then the app again.
    func checkVTSwitch(_ result: VMResult, step: String = "vt") throws {
        let away = try #require(result.screendump(step + "-away"), "no screendump on tty2; \(result.context)")
        let back = try #require(result.screendump(step + "-back"), "no screendump after the switch back")
        let console = try #require(result.screendump("console"))
        let render = try result.reference(step)
        #expect(litPixels(away) > 300, "tty2 shows nothing after the switch away")
        #expect(
            difference(away, render, name: step + "-away", folder: result.folder) != nil, "the app still shows on tty2")
        #expect(difference(away, console, name: step + "-away-console", folder: result.folder) != nil)
        #expect(
            difference(back, render, name: step + "-back", folder: result.folder) == nil, "the app did not come back")
        #expect(result.output(step).contains("switched to another console: display released"), "\(result.output(step))")
        #expect(result.output(step).contains("back on the console: display taken again"))
    }

    /// Started on tty1 while tty2 was in front: it brought tty1 to the front (checkShows then
    /// compares its picture, and the console after it).
    func checkConsoleBehind(_ result: VMResult, step: String) {
        #expect(result.output(step).contains("tty1 brought to the front (tty2 was)"), "\(result.output(step))")
    }

    /// Back on tty1 while another program (no part in VT switching) held the card: the app waited
    /// without drawing over it, and took the display once it had ended.
    func checkHeldVTSwitch(_ result: VMResult, step: String) throws {
        let other = try #require(result.screendump(step + "-other"), "no screendump of the other program")
        let waiting = try #require(result.screendump(step + "-waiting"), "no screendump after the switch back")
        let back = try #require(result.screendump(step + "-back"), "no screendump after the other program ended")
        let render = try result.reference(step)
        #expect(result.output(step + "-other").contains("first frame on screen"), "\(result.output(step + "-other"))")
        #expect(litPixels(other) > 300, "the other program showed nothing")
        #expect(
            difference(other, render, name: step + "-other", folder: result.folder) != nil,
            "the other program's picture is the app's")
        #expect(
            difference(waiting, other, name: step + "-waiting", folder: result.folder) == nil,
            "while waiting for the card the app changed the picture of the program holding it")
        #expect(
            difference(back, render, name: step + "-back", folder: result.folder) == nil,
            "the app did not take the display back once the other program had ended")
        let log = result.output(step)
        #expect(log.contains("back on the console, but another program holds the display: waiting for it"), "\(log)")
        #expect(log.contains("back on the console: display taken again"), "\(log)")
    }

    @Test(
        "virtio-gpu 480x480: devices, every error, atomic (the intro), legacy, single buffer + DirtyFB, a spinner and the intro stopped mid-animation (two buffers and one), SIGINT/SIGTERM/SIGSEGV/SIGKILL, VT switch, store replaced, libraries opened on first use missing"
    )
    func virtio480() throws {
        var boot = VMBoot("virtio-480x480", gpu: "virtio", width: 480, height: 480)
        boot.expect("devices", "devices")
        boot.expect("no-connector", "run --connector HDMI-A-9")
        boot.expect("no-mode", "run --mode 123x45")
        boot.expect("no-format", "run --format rgb565")
        boot.expect("bad-mode", "run --mode 480by480")
        boot.expect("denied", "run", asUser: 1000)
        boot.console()
        // The intro through the damage path: flips with damage clips, which virtio-gpu transfers.
        boot.show("atomic", "--intro", meanwhile: "expect second-master $G run")
        boot.show("legacy", "--legacy", signal: "INT")
        // Several frames drawn into the buffer on screen: only DirtyFB gets them to the host.
        // (SIGHUP reloads: VMKioskTests.)
        boot.show("single", "--single-buffer --intro", signal: "TERM")
        // A spinner stopped mid-animation (SIGSTOP) and dumped: two buffers flipped with damage
        // clips, and one buffer drawn on screen with its damage reported.
        let spinner = "--screen progress --indeterminate --style circular --label Syncing"
        boot.animate("spinner", spinner, stops: 3)
        boot.animate("spinner-single", spinner + " --single-buffer", stops: 3)
        // The intro stopped while the rings fill: its frames drawn in parts equal render --intro's.
        boot.animate("intro", "--intro", stops: 1, stopAt: "^frame 3 ")
        boot.animate("intro-single", "--intro --single-buffer", stops: 1, stopAt: "^frame 3 ")
        boot.show("crash", signal: "SEGV")
        boot.show("killed", signal: "KILL")
        boot.showAcrossVTSwitch("vt")
        boot.runUntilStoreReplaced("replaced")
        // The import's and the network's libraries are their executables' own (glance-import,
        // glance-mqtt, beside glance as a build folder has them): with them not installed, glance
        // run still shows its picture; the helpers cannot start (the loader says which library),
        // nothing is imported, and the console is back (last: the boot's other steps need them).
        let built = URL(fileURLWithPath: VMPaths.glance).deletingLastPathComponent().path
        boot.harnessExtras += ["--add", built + "/glance-import:/app/glance-import", "--add", built + "/glance-mqtt:/app/glance-mqtt"]
        let libraries = ["libxml2.so.2", "libmosquitto.so.1"].map { "/lib/*/\($0)* /usr/lib/*/\($0)*" }
        boot.guestLine("rm -f \(libraries.joined(separator: " "))")
        boot.guestLine(
            #"printf '<?xml version="1.0"?>\n<HealthData><ActivitySummary dateComponents="2026-11-28" activeEnergyBurned="100" activeEnergyBurnedGoal="500"/></HealthData>\n' >/tmp/export.xml"#)
        boot.show("no-libraries")
        boot.expect("no-libxml2", "import /tmp/export.xml --db /tmp/no-libxml2.db")
        boot.expect("no-libxml2-store", "export --csv --db /tmp/no-libxml2.db")
        boot.guestLine(
            #"printf '{"screens": ["gauges"], "gauges": [{"style": "circular", "title": "Hum", "source": {"mqtt": "home/hum"}}], "mqtt": {"broker": "mqtt://127.0.0.1:1883"}}\n' >/tmp/mqtt.json"#)
        // MQTT is glance mqtt's alone (glance run reads the gauge's metric from the store).
        boot.expect("no-libmosquitto", "mqtt --config /tmp/mqtt.json --db /tmp/no-libmosquitto.db")
        boot.guestLine("wait_host no-libmosquitto-after")
        boot.hostLine("wait-console STEP no-libmosquitto-after waiting 40")
        boot.hostLine("screendump-until no-libmosquitto-after console 3")
        boot.hostLine("send go")
        let result = try boot.run()
        #expect(result.status == 0, "\(result.context)")

        #expect(result.rc("devices") == 0)
        let devices = result.output("devices")
        #expect(devices.contains("card /dev/dri/card0: driver virtio_gpu, dumb buffers yes, atomic yes"), "\(devices)")
        #expect(devices.contains("connector Virtual-1: connected"), "\(devices)")
        #expect(devices.contains("modes: 480x480@60 (preferred)"), "\(devices)")
        #expect(devices.contains("primary, crtc index 0: XR24"), "\(devices)")
        #expect(devices.contains("\"QEMU Virtio Tablet\": absolute pointer x 0..32767 y 0..32767"), "\(devices)")
        #expect(devices.contains("try: glance run --card /dev/dri/card0 --connector Virtual-1 --mode 480x480@60"))

        #expect(result.rc("no-connector") == 78)
        #expect(
            result.output("no-connector").contains(
                "--connector 'HDMI-A-9': no such connector; available: Virtual-1 (connected)"))
        #expect(result.rc("no-mode") == 78)
        #expect(
            result.output("no-mode").contains(
                "--mode '123x45': Virtual-1 has no such mode; available: 480x480@60 (preferred), "))
        #expect(result.rc("no-format") == 78)
        #expect(
            result.output("no-format").contains("--format rgb565: the display plane does not take it; it takes XR24"))
        #expect(result.rc("bad-mode") == 64)
        #expect(result.rc("denied") == 77)
        #expect(result.output("denied").contains("open /dev/dri/card0: Permission denied (add the user to group video"))
        #expect(result.rc("second-master") == 75)
        #expect(result.output("second-master").contains("another program is DRM master"))

        #expect(result.output("atomic").contains("(virtio_gpu, atomic, rotate 0)"))
        #expect(result.output("legacy").contains("(virtio_gpu, legacy, rotate 0)"))
        #expect(result.output("single").contains("(virtio_gpu, atomic, single buffer, rotate 0)"))
        #expect(result.output("crash").contains("(virtio_gpu, atomic, rotate 0)"))
        #expect(result.output("legacy").contains("SIGINT: display restored"))
        #expect(result.output("single").contains("SIGTERM: display restored"))
        try checkShows(result, endings: ["crash": .crashed(11), "killed": .killed])
        try checkAnimations(result)
        #expect(result.output("spinner").contains("(virtio_gpu, atomic, rotate 0)"), "\(result.output("spinner"))")
        #expect(result.output("spinner-single").contains("(virtio_gpu, atomic, single buffer, rotate 0)"))
        try checkVTSwitch(result)
        // The store renamed over: the app ends by itself, 75, and gives the console back.
        #expect(result.exitRC("replaced") == 75, "\(result.output("replaced"))")
        #expect(result.output("replaced").contains("was replaced by another file while in use"))
        #expect(result.output("replaced").contains("display restored after"))
        let replacedAfter = try #require(result.screendump("replaced-after"), "no screendump after the store was replaced")
        let console = try #require(result.screendump("console"))
        #expect(difference(replacedAfter, console, name: "replaced-after", folder: result.folder) == nil)
        // The import's and the network's libraries missing: glance run is not touched (its
        // picture, checked with the other shows); glance-import and glance-mqtt are not started
        // by the loader, which names the library (127), and no store was made.
        #expect(result.output("no-libraries").contains("(virtio_gpu, atomic, rotate 0)"), "\(result.output("no-libraries"))")
        #expect(result.rc("no-libxml2") == 127, "\(result.output("no-libxml2"))")
        #expect(result.output("no-libxml2").contains("glance-import") && result.output("no-libxml2").contains("libxml2.so.2"), "\(result.output("no-libxml2"))")
        #expect(result.rc("no-libxml2-store") == 66, "nothing made: \(result.output("no-libxml2-store"))")
        #expect(result.rc("no-libmosquitto") == 127, "\(result.output("no-libmosquitto"))")
        #expect(result.output("no-libmosquitto").contains("libmosquitto.so.1"), "\(result.output("no-libmosquitto"))")
        let noLibraryAfter = try #require(result.screendump("no-libmosquitto-after"), "no screendump after the run")
        #expect(difference(noLibraryAfter, console, name: "no-libmosquitto-after", folder: result.folder) == nil)
    }

    @Test(
        "bochs (-device VGA) 480x480: devices, atomic, legacy, single buffer with DirtyFB (ENOSYS), VT switch (and a stale acquire), started on a console behind, card held on the switch back, console in front that never lets go"
    )
    func bochs480() throws {
        var boot = VMBoot("std-480x480", gpu: "std", width: 480, height: 480)
        boot.expect("devices", "devices")
        boot.console()
        boot.show("atomic")
        boot.show("legacy", "--legacy")
        // bochs answers DirtyFB with ENOSYS, which must be ignored.
        boot.show("single", "--legacy --single-buffer --intro")
        boot.showAcrossVTSwitch("vt")
        boot.showAcrossVTSwitch("stale", staleAcquire: true)
        boot.showFromConsoleBehind("behind")
        boot.showAcrossHeldVTSwitch(
            "held", other: (fixedDayAndLanguage + ["--screen", "gauge", "--value", "72", "--title", "Battery"]).joined(separator: " "))
        // Last: the held console leaves a switch to tty1 pending.
        let holder = VMPaths.scratch + "/vt-hold"
        let (cc, ccOut) = try runTool("/usr/bin/gcc", ["-O2", "-o", holder, VMPaths.root + "/tools/vm/e2e/vt-hold.c"])
        try #require(cc == 0, "building tools/vm/e2e/vt-hold.c: \(ccOut)")
        boot.harnessExtras += ["--add", holder + ":/app/vt-hold"]
        boot.runWhileConsoleHeld("stuck")
        let result = try boot.run()
        #expect(result.status == 0, "\(result.context)")
        let devices = result.output("devices")
        #expect(devices.contains("driver bochs-drm"), "\(devices)")
        // The monitor's size from qemu's EDID, which glance run sizes its text by (and the
        // references are drawn for: VMBoot.measuredDiagonal).
        let mm = boot.measuredMillimetres(480)
        #expect(devices.contains("connected, \(mm)x\(mm) mm"), "\(devices)")
        #expect(result.output("atomic").contains("viewing: ") && result.output("atomic").contains("(the display's)"),
                "\(result.output("atomic"))")
        #expect(devices.contains("connector Virtual-1: connected"), "\(devices)")
        #expect(devices.contains("480x480@") && devices.contains(" (preferred)"), "\(devices)")
        #expect(result.output("atomic").contains("atomic, rotate 0"))
        #expect(result.output("legacy").contains("legacy, rotate 0"))
        try checkShows(result)
        try checkVTSwitch(result)
        // An acquire signal while tty2 is in front (stale): the app stays away.
        try checkVTSwitch(result, step: "stale")
        #expect(
            result.output("stale").components(separatedBy: "display taken again").count == 2,
            "the display was taken more than once: \(result.output("stale"))")
        checkConsoleBehind(result, step: "behind")
        try checkHeldVTSwitch(result, step: "held")
        // tty2's owner never lets go: glance says so and exits 75 after its 5 s wait.
        #expect(result.rc("stuck") == 75, "\(result.output("stuck"))")
        #expect(
            result.output("stuck").contains(
                "tty1 is not the console in front and could not be brought there (tty2 stays: the switch did not happen within 5.0 seconds); switch to it with chvt 1"
            ), "\(result.output("stuck"))")
    }

    @Test(
        "800x480 and 720x1280 on both drivers, atomic and legacy, rotated; Chinese labels, gauge, progress",
        arguments: [
            (
                "virtio", 800, 480,
                [
                    ("atomic", "", 0), ("legacy-90", "--legacy", 90), ("intro-90", "--legacy --intro", 90),
                    ("zh-hans", "--locale zh-Hans", 0),
                ]
            ),
            (
                "std", 800, 480,
                [
                    ("atomic-90", "", 90), ("legacy", "--legacy", 0), ("intro", "--intro", 0),
                    ("gauge", "--screen gauge --value 72 --title Battery --unit %", 0),
                ]
            ),
            ("virtio", 720, 1280, [("atomic", "", 0), ("legacy-270", "--legacy", 270)]),
            (
                "std", 720, 1280,
                [
                    ("atomic-180", "", 180), ("legacy", "--legacy", 0),
                    ("progress", "--screen progress --fraction 0.4 --label Syncing", 0),
                ]
            ),
        ])
    func sizes(gpu: String, width: Int, height: Int, shows: [(String, String, Int)]) throws {
        var boot = VMBoot("\(gpu)-\(width)x\(height)", gpu: gpu, width: width, height: height)
        boot.console()
        for (step, arguments, rotation) in shows { boot.show(step, arguments, rotation: rotation) }
        let result = try boot.run()
        #expect(result.status == 0, "\(result.context)")
        for (step, arguments, rotation) in shows {
            #expect(result.output(step).contains("\(width)x\(height)@"), "\(step): \(result.output(step))")
            let path = arguments.contains("--legacy") ? "legacy" : "atomic"
            #expect(result.output(step).contains("\(path), rotate \(rotation))"), "\(step): \(result.output(step))")
        }
        try checkShows(result)
    }

    @Test("cirrus 640x480: RGB565 chosen with --format, atomic and legacy, rotated; XRGB8888 by default")
    func cirrusRGB565() throws {
        var boot = VMBoot("cirrus-640x480", gpu: "cirrus", width: 640, height: 480)
        boot.expect("devices", "devices")
        boot.console()
        boot.show("rgb565", "--mode 640x480 --format rgb565")
        boot.show("rgb565-legacy-90", "--mode 640x480 --format rgb565 --legacy", rotation: 90)
        boot.show("default", "--mode 640x480")
        let result = try boot.run()
        #expect(result.status == 0, "\(result.context)")
        let devices = result.output("devices")
        #expect(devices.contains("driver cirrus"), "\(devices)")
        #expect(devices.contains("primary, crtc index 0: RG16"), "\(devices)")
        #expect(result.output("rgb565").contains("VGA-1 640x480@60 RG16"), "\(result.output("rgb565"))")
        #expect(result.output("rgb565-legacy-90").contains("RG16 on /dev/dri/card0 (cirrus, legacy, rotate 90)"))
        #expect(result.output("default").contains("VGA-1 640x480@60 XR24"), "\(result.output("default"))")
        try checkShows(result)
    }

    @Test(
        "two cards (bochs and virtio-gpu): the card is the one with the connector asked for, never the first by number; the other card's monitor keeps the console"
    )
    func twoCards() throws {
        var boot = VMBoot("two-cards", gpu: "std", width: 480, height: 480)
        // A second display card after bochs (card0): virtio-gpu, card1, its monitor qemu's "second".
        boot.harnessExtras += [
            "--modules", "virtio_pci virtio-gpu", "--qemu-opt", "-device", "--qemu-opt", "virtio-gpu-pci,id=second,xres=480,yres=480",
        ]
        boot.expect("devices", "devices")
        boot.expect("no-connector", "run --connector Virtual-9")
        boot.console()
        boot.show("second", "--connector Virtual-2")
        // The show's picture is dumped from the second monitor; then the first one, which must
        // still show the console.
        boot.retarget("second", screen: "second", alsoDumping: "second-primary")
        let result = try boot.run()
        #expect(result.status == 0, "\(result.context)")
        let devices = result.output("devices")
        #expect(devices.contains("card /dev/dri/card0: driver bochs-drm"), "\(devices)")
        #expect(devices.contains("card /dev/dri/card1: driver virtio_gpu"), "\(devices)")
        #expect(devices.contains("connector Virtual-1: connected") && devices.contains("connector Virtual-2: connected"))
        // A name no card has: every card's connectors, with the card.
        #expect(result.rc("no-connector") == 78)
        #expect(
            result.output("no-connector").contains(
                "--connector 'Virtual-9': no such connector; available: Virtual-1 on /dev/dri/card0 (connected), Virtual-2 on /dev/dri/card1 (connected)"
            ), "\(result.output("no-connector"))")
        // Virtual-2 asked for: card1, though card0 has a connected display too.
        #expect(result.output("second").contains("Virtual-2 480x480@"), "\(result.output("second"))")
        #expect(result.output("second").contains("on /dev/dri/card1 (virtio_gpu, atomic"), "\(result.output("second"))")
        let shown = try #require(result.screendump("second"), "no screendump of the second monitor; \(result.context)")
        #expect(
            difference(shown, try result.reference("second"), name: "second", folder: result.folder) == nil,
            "the second monitor differs from glance render")
        let console = try #require(result.screendump("console"))
        let primary = try #require(result.screendump("second-primary"), "no screendump of the first monitor")
        #expect(
            difference(primary, console, name: "second-primary", folder: result.folder) == nil,
            "the first card's monitor changed while the app showed on the second")
        #expect(result.exitRC("second") == 0 && result.output("second").contains("display restored"))
        print("vm \(result.boot.name): boot and steps took \(Int(result.seconds)) s")
    }

    @Test("no display device: run says so and points to glance render; devices still lists input")
    func noDisplay() throws {
        var boot = VMBoot("no-display", gpu: "none", width: 640, height: 480)
        boot.expect("run", "run")
        boot.expect("devices", "devices")
        let result = try boot.run(timeout: 90)
        #expect(result.status == 0, "\(result.context)")
        #expect(result.rc("run") == 69)
        #expect(result.output("run").contains("no display: /dev/dri has no DRM card"))
        #expect(result.output("run").contains("glance render"))
        #expect(result.rc("devices") == 69)
        #expect(result.output("devices").contains("cards: none"))
        #expect(result.output("devices").contains("QEMU Virtio Keyboard"))
        print("vm \(result.boot.name): boot and steps took \(Int(result.seconds)) s")
    }
}
