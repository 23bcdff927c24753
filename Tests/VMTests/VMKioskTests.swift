import Foundation
import ImageFile
import Raster
import TestSupport
import Testing

/// A wall panel's day on a real kernel: `glance screenshot` from the running app equals the
/// monitor's screendump (a rotated panel included), and SIGHUP reloads the configuration in
/// place: a new gauge appears with no other picture ever on the monitor between (screendumps taken
/// all through the reload), a new mode and rotation are set with nothing between but the output
/// off for the mode set itself (never the console), an invalid file keeps the old picture, and
/// SIGTERM still ends the app with the console back.
///
/// Part of VMEndToEndTests (an extension), so its boot never runs beside another VM.
extension VMEndToEndTests {
    /// The configurations the app is given, in turn.
    enum Kiosk {
        static let one = #"""
            {"screens": ["gauges", "rings"], "idle": {"dimAfter": null, "blankAfter": null},
             "gauges": [{"style": "circular", "title": "CPU", "unit": "°C", "source": {"metric": "cpu"}}]}
            """#
        static let two = #"""
            {"screens": ["gauges", "rings"], "idle": {"dimAfter": null, "blankAfter": null},
             "gauges": [{"style": "circular", "title": "CPU", "unit": "°C", "source": {"metric": "cpu"}},
                        {"style": "linearCapacity", "title": "Load", "source": {"metric": "load"}}]}
            """#
        static let bad = #"{"screens": ["gauges", "dials"], "gauges": 3}"#
        static let three = #"""
            {"screens": ["gauges", "rings"], "idle": {"dimAfter": null, "blankAfter": null},
             "gauges": [{"style": "circular", "title": "CPU", "unit": "°C", "source": {"metric": "cpu"}},
                        {"style": "linearCapacity", "title": "Load", "source": {"metric": "load"}}],
             "display": {"mode": "640x480", "rotate": 90}}
            """#
        /// Screendumps taken through each reload, 50 ms apart (2 s and more: the reload comes
        /// 0.3 s after the first).
        static let polls = 40

        /// What `glance run` with `config` shows at `size`: `glance watch`'s first picture of the
        /// same store and configuration (watch draws what run shows).
        static func reference(config: String, store: String, size: String, to png: String) throws -> PixelBuffer {
            try? FileManager.default.removeItem(atPath: png)
            let process = OwnedProcess()
            process.executableURL = URL(fileURLWithPath: VMPaths.glance)
            process.arguments = ["watch", "--render-to", png, "--size", size, "--config", config, "--db", store, "--locale", "en"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(20)
            while !FileManager.default.fileExists(atPath: png) && Date() < deadline && process.isRunning { usleep(50_000) }
            usleep(200_000)
            process.terminate()
            process.waitUntilExit()
            return try PNGFile.read(png)
        }
    }

    @Test("virtio-gpu 480x480: glance screenshot equals the screendump (rotated too); SIGHUP reloads in place, the console never between; an invalid file keeps the picture")
    func kioskScreenshotAndReload() throws {
        var boot = VMBoot("kiosk-480x480", gpu: "virtio", width: 480, height: 480)
        let folder = VMPaths.scratch + "/kiosk-files"
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // The store both sides read: a day and two metrics.
        let store = folder + "/kiosk.db"
        for arguments in [
            ["log", "--db", store, "--date", "2026-11-29", "--move", "375", "--move-goal", "500"],
            ["metric", "set", "cpu", "47", "--min", "20", "--max", "90", "--db", store],
            ["metric", "set", "load", "1.5", "--min", "0", "--max", "4", "--db", store],
        ] {
            let (status, out) = try runTool(VMPaths.glance, arguments)
            try #require(status == 0, "glance \(arguments[0]): \(out)")
        }
        var files: [String: String] = [:]
        for (name, text) in [("one", Kiosk.one), ("two", Kiosk.two), ("bad", Kiosk.bad), ("three", Kiosk.three)] {
            let path = folder + "/\(name).json"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            files[name] = path
            boot.harnessExtras += ["--add", path + ":/app/\(name).json"]
        }
        // The pictures the monitor must show, from a copy of the store (watch opens it for writing).
        let copy = folder + "/reference.db"
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: store, toPath: copy)
        var references: [String: PixelBuffer] = [:]
        for (name, size) in [("one", "480x480"), ("two", "480x480"), ("three", "640x480")] {
            let png = folder + "/ref-\(name).png"
            references[name] = try Kiosk.reference(config: files[name]!, store: copy, size: size, to: png)
            try writePPM(references[name]!, to: folder + "/ref-\(name).ppm")
        }
        boot.harnessExtras += ["--add", store + ":/app/kiosk.db"]

        boot.expect("devices-json", "devices --json")
        boot.console()
        let run = "$G run --report-startup --config /tmp/config.json --db /tmp/kiosk.db " + fixedDayAndLanguage.joined(separator: " ")
        /// Until the log has COUNT lines with TEXT (20 s at most).
        func waitCount(_ text: String, _ count: Int) -> String {
            "i=0; while [ $(grep -c \"\(text)\" /tmp/kiosk.log) -lt \(count) ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done"
        }
        /// `glance screenshot` into NAME.png, printed in base64 between BEGIN NAME and END NAME.
        func screenshot(_ name: String) -> String {
            "$G screenshot --output /tmp/\(name).png >/tmp/\(name).log 2>&1; rc=$?; sed \"s/^/[\(name)] /\" /tmp/\(name).log; "
                + "echo \"BEGIN \(name)\"; busybox base64 /tmp/\(name).png; echo \"END \(name)\"; step \"\(name) rc=$rc\""
        }
        boot.guestLine("cp /app/kiosk.db /tmp/kiosk.db; cp /app/one.json /tmp/config.json")
        boot.guestLine("\(run) </dev/null >/tmp/kiosk.log 2>&1 & pid=$!")
        boot.guestLine("wait_log /tmp/kiosk.log \"first frame on screen\"; sleep 0.3")
        boot.guestLine("wait_host one")
        boot.guestLine(screenshot("shot-one"))
        // A new gauge: SIGHUP while the host takes screendumps one after another.
        boot.guestLine("cp /app/two.json /tmp/config.json; wait_host reload-two; sleep 0.3; kill -HUP $pid")
        boot.guestLine(waitCount("configuration reloaded", 1) + "; sleep 0.5; wait_host two")
        // `make run` (tools/run.sh) while the app holds the card (75), and as a user who may not
        // open it (77): one line, and the demo screens in out/ instead.
        for (name, user) in [("make-held", false), ("make-denied", true)] {
            let tree = "/tmp/\(name)"
            let script = "mkdir -p \(tree); cp -r /app/tools \(tree)/; chmod -R a+rwX \(tree); "
            let command =
                user
                ? "start-stop-daemon -S -c 1000:1000 -x /bin/bash -- -c 'GLANCE=/app/glance exec /bin/bash \(tree)/tools/run.sh'"
                : "env GLANCE=/app/glance /bin/bash \(tree)/tools/run.sh"
            boot.guestLine(
                script + "\(command) </dev/null >/tmp/\(name).log 2>&1; rc=$?; sed \"s/^/[\(name)] /\" /tmp/\(name).log; "
                    + "ls \(tree)/out | sed \"s/^/[\(name)-out] /\"; step \"\(name) rc=$rc\"")
        }
        boot.harnessExtras += [
            "--add", VMPaths.root + "/tools/run.sh:/app/tools/run.sh", "--add", "/bin/bash:/bin/bash",
        ]
        // An invalid file: logged, the picture stays.
        boot.guestLine("cp /app/bad.json /tmp/config.json; kill -HUP $pid")
        boot.guestLine(waitCount("keeping the running configuration", 1) + "; sleep 0.5; wait_host bad")
        // Another mode and a rotation: a mode set over the last frame.
        boot.guestLine("cp /app/three.json /tmp/config.json; wait_host reload-three; sleep 0.3; kill -HUP $pid")
        boot.guestLine(waitCount("configuration reloaded", 2) + "; sleep 0.8; wait_host three")
        boot.guestLine(screenshot("shot-three"))
        boot.guestLine("kill -TERM $pid; wait $pid; rc=$?; sleep 0.3; sed \"s/^/[kiosk] /\" /tmp/kiosk.log")
        boot.guestLine("wait_host \"kiosk exited rc=$rc\"")

        let polls = (1...Kiosk.polls)
        boot.hostLine("wait-console STEP one waiting 60")
        boot.hostLine("screendump-until one \(folder)/ref-one 8")
        boot.hostLine("send go")
        boot.hostLine("wait-console STEP shot-one rc=\\d+ 30")
        boot.hostLine("wait-console STEP reload-two waiting 30")
        boot.hostLine("send go")
        for i in polls { boot.hostLine("screendump poll-two-\(i)\nsleep 50") }
        boot.hostLine("wait-console STEP two waiting 30")
        boot.hostLine("screendump-until two \(folder)/ref-two 8")
        boot.hostLine("send go")
        boot.hostLine("wait-console STEP make-denied rc=\\d+ 120")
        boot.hostLine("wait-console STEP bad waiting 30")
        boot.hostLine("screendump bad")
        boot.hostLine("send go")
        boot.hostLine("wait-console STEP reload-three waiting 30")
        boot.hostLine("send go")
        for i in polls { boot.hostLine("screendump poll-three-\(i)\nsleep 50") }
        boot.hostLine("wait-console STEP three waiting 30")
        boot.hostLine("screendump-until three \(folder)/ref-three 8")
        boot.hostLine("send go")
        boot.hostLine("wait-console STEP shot-three rc=\\d+ 30")
        boot.hostLine("wait-console STEP kiosk exited rc=\\d+ waiting 30")
        boot.hostLine("screendump-until kiosk-after console 3")
        boot.hostLine("send go")
        let result = try boot.run(timeout: 240)
        #expect(result.status == 0, "\(result.context)")
        let log = result.output("kiosk")
        let console = try #require(result.screendump("console"), "no console screendump; \(result.context)")

        /// Equal, without writing difference pictures (most screendumps of a reload are one of two).
        func equal(_ a: PixelBuffer, _ b: PixelBuffer) -> Bool {
            guard a.size == b.size else { return false }
            for y in 0..<a.height {
                let ra = a.row32(y), rb = b.row32(y)
                for x in 0..<a.width where ra[x] & 0xFF_FFFF != rb[x] & 0xFF_FFFF { return false }
            }
            return true
        }
        func same(_ a: PixelBuffer?, _ b: PixelBuffer?, _ name: String) -> String? {
            guard let a, let b else { return "\(name): missing" }
            return difference(a, b, name: name, folder: result.folder)
        }
        /// The screenshot NAME the guest printed in base64.
        func shot(_ name: String) throws -> PixelBuffer {
            let text = result.log.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "")
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let begin = try #require(lines.firstIndex(of: "BEGIN \(name)"), "no \(name) in the log: \(result.output(name))")
            let end = try #require(lines[begin...].firstIndex(of: "END \(name)"))
            let data = try #require(Data(base64Encoded: lines[(begin + 1)..<end].joined()), "\(name): not base64")
            let png = result.folder + "/\(name).png"
            try data.write(to: URL(fileURLWithPath: png))
            return try PNGFile.read(png)
        }

        // devices --json: the card and its connector, as a script reads them.
        #expect(result.rc("devices-json") == 0, "\(result.output("devices-json"))")
        let devices = try JSONSerialization.jsonObject(with: Data(result.output("devices-json").utf8)) as? [String: Any]
        let card = try #require((devices?["cards"] as? [[String: Any]])?.first, "\(result.output("devices-json"))")
        #expect(card["driver"] as? String == "virtio_gpu" && card["atomic"] as? Bool == true)
        let connector = try #require((card["connectors"] as? [[String: Any]])?.first)
        #expect(connector["name"] as? String == "Virtual-1" && connector["status"] as? String == "connected")
        let modes = try #require(connector["modes"] as? [[String: Any]])
        #expect(modes.contains { $0["width"] as? Double == 640 && $0["height"] as? Double == 480 }, "no 640x480 to change to: \(modes)")
        #expect((card["chosen"] as? [String: Any])?["mode"] as? String == "480x480@60")
        #expect((devices?["inputs"] as? [[String: Any]])?.contains { $0["name"] as? String == "QEMU Virtio Keyboard" } == true)

        // The first configuration on the monitor, and the app's own picture of it equal to it.
        #expect(same(result.screendump("one"), references["one"], "one") == nil, "one gauge: not the expected picture")
        #expect(result.rc("shot-one") == 0, "\(result.output("shot-one"))")
        let shotOne = try shot("shot-one")
        #expect(same(shotOne, result.screendump("one"), "shot-one") == nil, "glance screenshot differs from the screendump")

        // The reload: every screendump taken through it is the old picture or the new one.
        var sawOld = 0, sawNew = 0
        for i in polls {
            let dump = try #require(result.screendump("poll-two-\(i)"), "no poll-two-\(i); \(result.context)")
            if equal(dump, references["one"]!) {
                sawOld += 1
            } else if equal(dump, references["two"]!) {
                sawNew += 1
            } else {
                Issue.record("poll-two-\(i) during the reload is neither the old picture nor the new one (\(litPixels(dump)) lit pixels)")
            }
        }
        #expect(sawOld > 0 && sawNew > 0, "the host did not look all through the reload: \(sawOld) old, \(sawNew) new")
        print("vm kiosk: reload with a new gauge: \(sawOld) screendumps of the old picture, then \(sawNew) of the new")
        #expect(same(result.screendump("two"), references["two"], "two") == nil, "two gauges: not the expected picture")
        #expect(log.contains("SIGHUP: reading /tmp/config.json again"), "\(log)")
        #expect(log.contains("configuration reloaded: data"), "\(log)")

        // make run: the reason in one line, the demo screens instead, exit 0.
        for (name, status) in [("make-held", 75), ("make-denied", 77)] {
            let said = result.output(name)
            #expect(result.rc(name) == 0, "\(name): \(said)")
            let lines = said.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("run: glance run cannot have the display (exit \(status): "), "\(name): \(said)")
            #expect(said.contains("'make sim'"), "\(said)")
            let out = result.output(name + "-out")
            #expect(out.contains("rings-typical-800x480.png") && out.contains("clock-800x480.png"), "\(name): out/ has \(out)")
        }
        #expect(result.output("make-held").contains("another program"), "\(result.output("make-held"))")
        #expect(result.output("make-denied").contains("Permission denied"), "\(result.output("make-denied"))")

        // The invalid file: told, the picture kept.
        #expect(log.contains("$.screens[1]") && log.contains("$.gauges"), "\(log)")
        #expect(log.contains("keeping the running configuration"), "\(log)")
        #expect(same(result.screendump("bad"), references["two"], "bad") == nil, "an invalid file changed the picture")

        // Another mode, turned: polled likewise, then the app's upright picture equals the panel's turned back.
        // A mode set turns the CRTC off for a moment (the kernel's atomic helper: off, then the new
        // mode's scanout), which qemu shows as its "not active" line at the old size: that, and only
        // in order (old, off, new) and briefly, is the output itself, not another picture.
        var sawMode = 0, sawBefore = 0, sawOff = 0
        var order: [Character] = []
        for i in polls {
            let dump = try #require(result.screendump("poll-three-\(i)"), "no poll-three-\(i)")
            if equal(dump, references["two"]!) {
                sawBefore += 1
                order.append("o")
            } else if equal(dump, references["three"]!) {
                sawMode += 1
                order.append("n")
            } else if dump.size == references["two"]!.size && isQemuOutputOff(dump) {
                sawOff += 1
                order.append("-")
            } else {
                Issue.record("poll-three-\(i) during the mode set is neither the old picture, the output off for the mode set, nor the new one (\(dump.size), \(litPixels(dump)) lit pixels)")
            }
        }
        let sequence = String(order)
        #expect(sawBefore > 0 && sawMode > 0, "the host did not look all through the mode set: \(sawBefore) old, \(sawMode) new")
        #expect(!sequence.contains("no") && !sequence.contains("n-") && !sequence.contains("-o"),
                "the mode set went back (o: old, -: output off, n: new): \(sequence)")
        #expect(sawOff <= 4, "the output stayed off \(sawOff) screendumps (50 ms apart) through the mode set: \(sequence)")
        print("vm kiosk: reload with another mode: \(sawBefore) screendumps of the old picture, \(sawOff) of the output off, then \(sawMode) of the new")
        let three = try #require(result.screendump("three"))
        #expect(three.size == Size(width: 640, height: 480), "the mode did not change: \(three.size)")
        #expect(same(three, references["three"], "three") == nil, "640x480 turned 90°: not the expected picture")
        #expect(log.contains("display: Virtual-1 640x480"), "\(log)")
        #expect(result.rc("shot-three") == 0, "\(result.output("shot-three"))")
        let shotThree = try shot("shot-three")
        #expect(shotThree.size == Size(width: 480, height: 640), "the screenshot is not upright: \(shotThree.size)")
        #expect(same(shotThree, three.upright(rotation: .quarter), "shot-three") == nil, "glance screenshot differs from the screendump turned upright")

        // SIGTERM ends it: 0, the console as it was before the app, at its own mode.
        #expect(result.exitRC("kiosk") == 0, "\(log)")
        #expect(same(result.screendump("kiosk-after"), console, "kiosk-after") == nil, "the console did not come back")
    }
}
