import Foundation
import ImageFile
import Raster
import Testing

/// Input on a real kernel: keys and the tablet from the host over QMP, a keyboard unplugged and
/// plugged back, a uinput multi-touch screen made in the guest, dimming and waking, and the CPU
/// an idle app uses. Every screen the app shows is compared with `glance render` of the state
/// it should be in, pixel for pixel.
@Suite("VM: input, navigation, idle", .serialized, .enabled(if: VMAvailability.available, Comment(rawValue: VMAvailability.skipped)), .timeLimit(.minutes(30)))
struct VMInputTests {
    static let size = "480x480"
    static let today = "2026-11-29"
    /// What both `glance run` and `glance render` are given.
    static let common = ["--today", today, "--locale", "en", "--name", "Ann", "--time", "10:09", "--clock", "24h"]

    /// The store both sides read: three days, a metric for the gauge, a running task.
    static func makeStore(_ path: String) throws {
        try? FileManager.default.removeItem(atPath: path)
        for (day, move, exercise, stand) in [("2026-11-27", 610, 40, 12), ("2026-11-28", 420, 25, 9), ("2026-11-29", 180, 5, 4)] {
            let (status, out) = try runTool(VMPaths.glance, [
                "log", "--db", path, "--date", day, "--move", "\(move)", "--move-goal", "500", "--exercise", "\(exercise)",
                "--exercise-goal", "30", "--stand", "\(stand)", "--stand-goal", "12",
            ])
            guard status == 0 else { throw VMTestError("glance log: \(out)") }
        }
        for args in [
            ["metric", "set", "cpu", "47", "--db", path],
            ["task", "start", "sync", "--total", "100", "--description", "Syncing", "--cancellable", "--db", path],
            ["task", "update", "sync", "--done", "25", "--db", path],
        ] {
            let (status, out) = try runTool(VMPaths.glance, args)
            guard status == 0 else { throw VMTestError("glance \(args[0]): \(out)") }
        }
    }

    static let config = """
        {"gauges": [{"style": "circular", "title": "CPU", "unit": "°C", "min": 20, "max": 90, "source": {"metric": "cpu"}}]}
        """

    /// `glance render` of a state, as the PPM the host's screendump-until compares with.
    static func expected(_ name: String, _ arguments: [String], folder: String, size: String = size) throws -> String {
        let png = folder + "/expected-\(name).png"
        let (status, out) = try runTool(VMPaths.glance, ["render", "--size", size, "--output", png] + common + arguments)
        guard status == 0 else { throw VMTestError("glance render \(arguments): \(out)") }
        try writePPM(try PNGFile.read(png), to: folder + "/expected-\(name).ppm")
        return folder + "/expected-\(name)"
    }

    @Test("keys, tablet, hot-plug and multi-touch browse days and screens exactly; idle costs nothing; dim, blank, wake")
    func navigation() throws {
        let folder = VMPaths.scratch + "/input-expected"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = folder + "/glance.db"
        try Self.makeStore(store)
        let configFile = folder + "/config.json"
        try Self.config.write(toFile: configFile, atomically: true, encoding: .utf8)
        let uinput = folder + "/uinput-device"
        let (cc, ccOut) = try runTool("/usr/bin/gcc", ["-O2", "-o", uinput, VMPaths.root + "/tools/vm/e2e/uinput-device.c"])
        try #require(cc == 0, "building tools/vm/e2e/uinput-device.c: \(ccOut)")

        let db = ["--db", store]
        let today = try Self.expected("today", db, folder: folder)
        let day28 = try Self.expected("28", db + ["--date", "2026-11-28"], folder: folder)
        let day27 = try Self.expected("27", db + ["--date", "2026-11-27"], folder: folder)
        let tomorrow = try Self.expected("30", db + ["--date", "2026-11-30"], folder: folder)
        let gauge = try Self.expected("gauge", [
            "--screen", "gauge", "--style", "circular", "--value", "47", "--min", "20", "--max", "90", "--title", "CPU",
            "--unit", "°C",
        ], folder: folder)
        let progress = try Self.expected(
            "progress", ["--screen", "progress", "--style", "circular", "--fraction", "0.25", "--label", "Syncing", "--cancellable"],
            folder: folder)
        // The same store after a `glance log` changed today's Move.
        let changedStore = folder + "/changed.db"
        try? FileManager.default.removeItem(atPath: changedStore)
        try FileManager.default.copyItem(atPath: store, toPath: changedStore)
        _ = try runTool(VMPaths.glance, ["log", "--db", changedStore, "--date", Self.today, "--move", "300"])
        let logged = try Self.expected("logged", ["--db", changedStore], folder: folder)
        let backup = try Self.expected(
            "backup", ["--screen", "progress", "--style", "circular", "--fraction", "0.25", "--label", "Backup"], folder: folder)
        // After the clock is set a day on: today is the 30th (the 29th as `glance log` left it).
        let newDay = try Self.expected("newday", ["--db", changedStore, "--today", "2026-11-30"], folder: folder)
        let newDay29 = try Self.expected(
            "newday-29", ["--db", changedStore, "--today", "2026-11-30", "--date", Self.today], folder: folder)
        let cancelled = try Self.expected(
            "cancelled", ["--screen", "progress", "--style", "circular", "--fraction", "0.25", "--label", "Syncing", "--cancelling"],
            folder: folder)

        var boot = VMBoot("input-480x480", gpu: "virtio", width: 480, height: 480)
        boot.harnessExtras = [
            "--add", store + ":/app/glance.db", "--add", configFile + ":/app/config.json", "--add", uinput + ":/app/uinput-device",
            "--modules", "uinput button",
        ]
        let run = (["--db", "/tmp/glance.db", "--config", "/app/config.json"] + Self.common).joined(separator: " ")
        boot.guestLine("cp /app/glance.db /tmp/glance.db")
        boot.guestLine("interact nav \(run)")
        // The idle run starts from the original store, its task finished (it starts on the rings).
        boot.guestLine("cp /app/glance.db /tmp/glance.db")
        boot.guestLine("$G task finish sync --db /tmp/glance.db")
        // The idle run follows the system's clock (no --today), set to the test's day.
        boot.guestLine("date -s '\(Self.today) 12:00:00' >/dev/null")
        let clockRun = (["--db", "/tmp/glance.db", "--config", "/app/config.json"] + Self.common.dropFirst(2)).joined(
            separator: " ")
        // Blank 8 s after the dim: the dimmed screendump is taken well inside it on a loaded host
        // (with 2 s it was once taken after the blank, under make test's load).
        boot.guestLine("interact idle \(clockRun) --dim-after 2 --blank-after 10")
        // The VT-switch run: the original store again, its task finished, today fixed.
        boot.guestLine("cp /app/glance.db /tmp/glance.db")
        boot.guestLine("$G task finish sync --db /tmp/glance.db")
        boot.guestLine("interact away \(run) --dim-after 6 --blank-after 7")
        var steps: [String] = [
            "wait-console STEP nav ready 60",
            // A task was running when the app started: its progress first; Home shows today.
            "screendump-until nav-start \(progress) 8",
            "key home", "screendump-until nav-today \(today) 8",
            // Keys from the host: days, today, the screens, Cancel.
            "key left", "screendump-until nav-28 \(day28) 8",
            "key left", "screendump-until nav-27 \(day27) 8",
            "key home", "screendump-until nav-home \(today) 8",
            "key down", "screendump-until nav-gauge \(gauge) 8",
            "key down", "screendump-until nav-progress \(progress) 8",
            "key esc", "screendump-until nav-cancelled \(cancelled) 8",
            "key up", "key up", "screendump-until nav-back \(today) 8",
            // The tablet: a drag to the left is a swipe (the next day), a click a tap (next screen).
            "drag 400 240 60 240 8", "screendump-until tablet-swipe \(tomorrow) 8",
            "key home", "screendump-until tablet-home \(today) 8",
            "touch 240 240", "screendump-until tablet-tap \(gauge) 8",
            "key up", "screendump-until tablet-up \(today) 8",
            // The keyboard unplugged and another plugged in: it works at once.
            // Plugged in once the guest gave the slot up (an add while it powers it down is not
            // seen); the request repeated when the guest has not acted on it (lost under load).
            "unplug kbd0 90 15",
            "wait-console \\[nav\\] glance: input: .*(went away|removed) 15",
            #"qmp {"execute": "device_add", "arguments": {"driver": "virtio-keyboard-pci", "id": "kbd1", "bus": "inputport"}}"#,
            "wait-console \\[nav\\] glance: input: .*[Kk]eyboard.*keys 15",
            "key left", "screendump-until hotplug-28 \(day28) 8",
            // A multi-touch screen made in the guest with uinput, swiping right: the day before.
            "send sh /app/uinput-device swipe right",
            "wait-console STEP nav sh done rc=0 30",
            "screendump-until mt-27 \(day27) 8",
            // A keyboard flooding faster than the app reads: the kernel drops events, libevdev
            // resynchronises, and the one Right at the end moves exactly one day.
            "send sh /app/uinput-device flood 6000",
            "wait-console STEP nav sh done rc=0 60",
            "screendump-until flood-28 \(day28) 8",
            // The store changed by another process: the screen follows by itself.
            "key home",
            "send sh /app/glance log --db /tmp/glance.db --date \(Self.today) --move 300 >/dev/null",
            "wait-console STEP nav sh done rc=0 20", "screendump-until live-log \(logged) 8",
            // A task starts: its progress appears; it ends: back to the rings.
            "send sh /app/glance task finish sync --db /tmp/glance.db",
            "wait-console STEP nav sh done rc=0 20",
            "send sh /app/glance task start backup --total 4 --description Backup --db /tmp/glance.db && /app/glance task update backup --done 1 --db /tmp/glance.db",
            "wait-console STEP nav sh done rc=0 20", "screendump-until task-started \(backup) 8",
            "send sh /app/glance task finish backup --db /tmp/glance.db",
            "wait-console STEP nav sh done rc=0 20", "screendump-until task-ended \(logged) 8",
            // Nothing moves: ten seconds of sleep, counted once what the last step set off has
            // settled (under make test's load the task's end was once still being drawn when the
            // count began: 40-60 ms, 0 on a quiet machine).
            "sleep 3000",
            "send idle 10",
            "wait-console STEP nav idle cpu_ms=\\d+ 30",
            "send stop", "wait-console STEP nav exited rc=\\d+ 20",
            // Idle: dimmed after 2 s, blank after 10 s; the first key only wakes.
            "wait-console STEP idle ready 60",
            "screendump-until idle-awake \(today) 8",
            // Each picture waited for (dimmed to 30 %, then dark: at most 3 % lit), then compared.
            "wait-console \\[idle\\] glance: idle: dimmed 10", "screendump-until-dimmed idle-dimmed idle-awake 0.3 0.03 5",
            "wait-console \\[idle\\] glance: idle: blank 20", "screendump-until-dark idle-blank \(480 * 480 * 3 / 100) 5",
            // While blank (the CRTC off), the store changes: nothing is drawn, nothing fails.
            "send sh /app/glance log --db /tmp/glance.db --date \(Self.today) --move 300 >/dev/null",
            "wait-console STEP idle sh done rc=0 20", "sleep 1000",
            // The clock is set a day on (NTP on a board without a real-time clock): a new day at once.
            "send sh date -s '2026-11-30 12:00:00' >/dev/null",
            "wait-console \\[idle\\] glance: a new day: 2026-11-30 10",
            "key left", "screendump-until idle-woken \(newDay) 8",
            "key left", "screendump-until idle-left \(newDay29) 8",
            "send stop", "wait-console STEP idle exited rc=\\d+ 20",
            // Switched to tty2: the devices are let go of (another program can grab them), keys
            // there do not move the app, and nothing dims or blanks meanwhile (8 s, past
            // --blank-after 7; 6 s to dim leave room for a slow host after the switch back). Back on tty1: today, awake, the devices grabbed again.
            "wait-console STEP away ready 60",
            "screendump-until away-start \(today) 8",
            "send sh chvt 2", "wait-console STEP away sh done rc=0 20",
            "wait-console \\[away\\] glance: switched to another console 10",
            "send sh /app/uinput-device grabs", "wait-console STEP away sh done rc=0 20",
            "key left", "key left", "sleep 8000",
            "send sh chvt 1", "wait-console STEP away sh done rc=0 20",
            "screendump-until away-back \(today) 8",
            "send sh /app/uinput-device grabs", "wait-console STEP away sh done rc=0 20",
            "send stop", "wait-console STEP away exited rc=\\d+ 20",
        ]
        for s in steps { boot.hostLine(s) }
        steps.removeAll()
        let result = try boot.run(timeout: 240)
        print("vm input: boot and steps took \(Int(result.seconds)) s")
        #expect(result.status == 0, "\(result.context)")
        // Each of the three runs ended by SIGTERM (stop) with status 0: a crash on SIGTERM (134,
        // 139, …) or a run that never said how it ended fails.
        for run in ["nav", "idle", "away"] {
            #expect(result.exitRC(run) == 0, "glance run (\(run)) after SIGTERM: \(result.exitRC(run).map { "status \($0)" } ?? "no exit status"): \(result.output(run).suffix(800))")
        }

        // Every screendump equals its expected render.
        for (shot, ref) in [
("nav-start", "progress"), ("nav-today", "today"), ("nav-28", "28"), ("nav-27", "27"), ("nav-home", "today"), ("nav-gauge", "gauge"),
            ("nav-progress", "progress"), ("nav-cancelled", "cancelled"), ("nav-back", "today"),
            ("tablet-swipe", "30"), ("tablet-home", "today"), ("tablet-tap", "gauge"), ("tablet-up", "today"),
            ("hotplug-28", "28"), ("mt-27", "27"), ("flood-28", "28"), ("live-log", "logged"),
            ("task-started", "backup"), ("task-ended", "logged"), ("idle-awake", "today"), ("idle-woken", "newday"), ("idle-left", "newday-29"),
            ("away-start", "today"), ("away-back", "today"),
        ] {
            let shown = try #require(result.screendump(shot), "screendump \(shot) missing: \(result.context)")
            let want = try PNGFile.read(folder + "/expected-\(ref).png")
            #expect(difference(shown, want, name: shot, folder: result.folder) == nil, "\(shot) should be \(ref)")
        }
        // On tty2 no device was held by the app; back on tty1 the keyboards were again.
        let grabs = result.log.split(separator: "\n").filter { $0.hasPrefix("grabs:") }
        #expect(grabs.count == 2, "\(grabs)")
        if grabs.count == 2 {
            #expect(grabs[0].contains("=free") && !grabs[0].contains("=grabbed"), "on tty2: \(grabs[0])")
            #expect(grabs[1].contains("=grabbed"), "back on tty1: \(grabs[1])")
        }
        #expect(result.output("away").contains("back on the console: display taken again"))
        #expect(!result.output("away").contains("idle: blank"), "blanked while on another console")
        // The flood overflowed the kernel's buffer and the app resynchronised.
        #expect(result.log.contains("glance test flooding keyboard: events were dropped; state resynchronised"))
        // The ACPI power button is left to the system (logind), not grabbed.
        #expect(result.log.contains(#/\[nav\] glance: input: Power Button \(/dev/input/event\d+\): no keys glance uses/#))
        // Cancel reached the store.
        #expect(result.log.contains("cancel asked for the running task"))
        // Idle: near zero CPU over ten seconds without input.
        let idle = try #require(result.firstMatch(#"STEP nav idle cpu_ms=(\d+)"#).flatMap { Int($0) })
        print("vm input: glance run used \(idle) ms of CPU in 10 idle seconds")
        #expect(idle <= 50, "an idle app sleeps: \(idle) ms of CPU in 10 s")
        // Dimmed: the picture at 30 % of its brightness; blank: black.
        let base = try PNGFile.read(folder + "/expected-today.png")
        let dimmed = try #require(result.screendump("idle-dimmed"))
        let blank = try #require(result.screendump("idle-blank"))
        func brightness(_ p: PixelBuffer) -> Double {
            var sum = 0.0
            for y in 0..<p.height { for x in 0..<p.width { let c = p.color(x: x, y: y); sum += Double(c.red) + Double(c.green) + Double(c.blue) } }
            return sum / Double(p.width * p.height)
        }
        let ratio = brightness(dimmed) / brightness(base)
        var dark = 0
        for y in 0..<blank.height { for x in 0..<blank.width where blank.color(x: x, y: y) == .black { dark += 1 } }
        let darkShare = Double(dark) / Double(blank.width * blank.height)
        print("vm input: dimmed to \(ratio) of the brightness; blank: \(Int(darkShare * 100)) % black pixels")
        #expect(abs(ratio - 0.3) < 0.03, "dimmed to \(ratio)")
        // Powered down, qemu shows at most a small note on black.
        #expect(darkShare > 0.97, "blank is black")
    }

    /// `glance render` of a state on a 240x240 panel.
    static func expectedSmall(_ name: String, _ arguments: [String], folder: String) throws -> String {
        try expected(name, arguments, folder: folder, size: "240x240")
    }

    @Test("a 1.3\" 240x240 panel in pages: Enter and taps turn the rings' pages, then the gauges; Left on a figure's page is that figure the day before; Home goes back; a message from glance message is drawn as glance render draws it, and Left only dismisses it")
    func pages() throws {
        let folder = VMPaths.scratch + "/pages-expected"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = folder + "/glance.db"
        try Self.makeStore(store)
        _ = try runTool(VMPaths.glance, ["task", "finish", "sync", "--db", store])
        let configFile = folder + "/config.json"
        try Self.config.write(toFile: configFile, atomically: true, encoding: .utf8)
        let db = ["--db", store, "--config", configFile]
        let rings = try Self.expectedSmall("rings", db, folder: folder)
        let move = try Self.expectedSmall("move", db + ["--page", "2"], folder: folder)
        let move28 = try Self.expectedSmall("move-28", db + ["--page", "2", "--date", "2026-11-28"], folder: folder)
        let exercise28 = try Self.expectedSmall("exercise-28", db + ["--page", "3", "--date", "2026-11-28"], folder: folder)
        let stand28 = try Self.expectedSmall("stand-28", db + ["--page", "4", "--date", "2026-11-28"], folder: folder)
        let gauges = try Self.expectedSmall("gauges", db + ["--screen", "gauges"], folder: folder)
        // A message as glance render draws it (the rings under it as the panel has them).
        let text = "Dinner is ready, come down"
        let message = try Self.expectedSmall("message", db + ["--message", text], folder: folder)

        var boot = VMBoot("pages-240x240", gpu: "virtio", width: 240, height: 240)
        boot.harnessExtras = ["--add", store + ":/app/glance.db", "--add", configFile + ":/app/config.json"]
        boot.guestLine("cp /app/glance.db /tmp/glance.db")
        let run = (["--db", "/tmp/glance.db", "--config", "/app/config.json"] + Self.common).joined(separator: " ")
        boot.guestLine("interact pages \(run)")
        for step in [
            "wait-console STEP pages ready 60",
            "screendump-until pages-rings \(rings) 8",
            // Enter (the select button): the next page, Move on a page of its own.
            "key ret", "screendump-until pages-move \(move) 8",
            // Left on Move's page: Move the day before.
            "key left", "screendump-until pages-move-28 \(move28) 8",
            "key ret", "screendump-until pages-exercise-28 \(exercise28) 8",
            // A tap: the next page too.
            "touch 120 120", "screendump-until pages-stand-28 \(stand28) 8",
            // Past the rings' last page: the next screen.
            "touch 120 120", "screendump-until pages-gauges \(gauges) 8",
            "key home", "screendump-until pages-home \(rings) 8",
            // A message through the control socket (glance message, as Home Assistant's notify
            // sends one), in place of the rings; Left only dismisses it: today's rings again,
            // not the day before.
            "send sh /app/glance message '\(text)'", "wait-console STEP pages sh done rc=0 20",
            "screendump-until pages-message \(message) 8",
            "key left", "screendump-until pages-dismissed \(rings) 8",
            "send stop", "wait-console STEP pages exited rc=\\d+ 20",
        ] {
            boot.hostLine(step)
        }
        let result = try boot.run(timeout: 180)
        print("vm pages: boot and steps took \(Int(result.seconds)) s")
        #expect(result.status == 0, "\(result.context)")
        #expect(result.exitRC("pages") == 0, "glance run after SIGTERM: \(result.exitRC("pages").map { "status \($0)" } ?? "no exit status"): \(result.output("pages").suffix(800))")
        for (shot, ref) in [
            ("pages-rings", "rings"), ("pages-move", "move"), ("pages-move-28", "move-28"), ("pages-exercise-28", "exercise-28"),
            ("pages-stand-28", "stand-28"), ("pages-gauges", "gauges"), ("pages-home", "rings"), ("pages-message", "message"),
            ("pages-dismissed", "rings"),
        ] {
            let shown = try #require(result.screendump(shot), "screendump \(shot) missing: \(result.context)")
            let want = try PNGFile.read(folder + "/expected-\(ref).png")
            #expect(difference(shown, want, name: shot, folder: result.folder) == nil, "\(shot) should be \(ref)")
        }
        // Every page was a page of the rings (the log says which).
        #expect(result.output("pages").contains("select: rings page 2"), "\(result.output("pages"))")
        // The message came through the socket (its text not in the log), and the key dismissed it.
        #expect(result.output("pages").contains("control socket: message (26 characters, 60 s)"), "\(result.output("pages"))")
        #expect(result.output("pages").contains("message dismissed: pressed"), "\(result.output("pages"))")
        let lefts = result.output("pages").split(separator: "\n").filter { $0.contains("previousDay:") }
        #expect(lefts.count == 1, "the Left on Move's page alone; the one that dismissed the message moved nothing: \(lefts)")
        #expect(result.log.contains("shown on the panel for 60 s"), "glance message said so: \(result.log.suffix(2000))")
    }
}
