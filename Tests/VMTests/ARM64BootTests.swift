import Foundation
import ImageFile
import Raster
import TestSupport
import Testing

/// The arm64 package as a Raspberry Pi OS (64-bit) board gets it: the .deb made by
/// `tools/build-deb.sh --arch arm64` installed by dpkg into a minimal Debian 13 arm64 root
/// (tools/vm/device-image.sh, which checks install, removal and purge as for the x86 package),
/// booted under qemu-system-aarch64 (virt, TCG, Cortex-A72, virtio-gpu-pci, virtio keyboard and
/// tablet) with Debian 13's own arm64 kernel. glance.service brings the app up as user glance;
/// its first frame must equal what the x86-64 `glance render` draws of the same day, pixel for
/// pixel; the Left key shows yesterday (equal to its render too); SIGTERM (systemctl stop) ends
/// it with status 0 and the console comes back.
///
/// Part of VMEndToEndTests (an extension), so its boot never runs beside another VM.
extension VMEndToEndTests {
    @Test(
        "arm64: the package on Debian 13 arm64, booted on its kernel, shows the x86 render's pixels and takes keys",
        .disabled(if: ARM64Boot.problem != nil, Comment(rawValue: ARM64Boot.skipped))
    )
    func arm64DeviceBoot() throws {
        let deb = try #require(ARM64Boot.package(), Comment(rawValue: ARM64Boot.noPackage))
        print("arm64: package \(deb)")
        let folder = VMPaths.scratch + "/arm64-boot"
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let e2e = VMPaths.root + "/tools/vm/device-e2e"

        // The store the service finds in /var/lib/glance, made by the x86 glance (SQLite's file is
        // the same on both architectures); today, as the guest's clock says.
        let today = DeviceBoot.today()
        let store = folder + "/glance.db"
        let (status, out) = try runTool(
            VMPaths.glance,
            [
                "log", "--db", store, "--date", today, "--move", "420", "--move-goal", "500", "--exercise", "25",
                "--exercise-goal", "30", "--stand", "9", "--stand-goal", "12",
            ])
        try #require(status == 0, "glance log: \(out)")
        _ = try runTool(
            VMPaths.glance,
            [
                "log", "--db", store, "--date", DeviceBoot.dayBefore(today), "--move", "610", "--move-goal", "500",
                "--exercise", "41", "--exercise-goal", "30", "--stand", "7", "--stand-goal", "12",
            ])
        let mode = folder + "/mode"
        try "short\n".write(toFile: mode, atomically: true, encoding: .utf8)
        // The defaults but for the time in the ring screen's header, which would make the guest's
        // picture depend on the minute it is drawn in (glance render draws no time).
        let config = folder + "/config.json"
        try #"{"clock": {"format": "off"}}"#.write(toFile: config, atomically: true, encoding: .utf8)

        // The image: the package through dpkg, the driver, and the font files the host's render
        // draws with in place of trixie's (the pinned Debian 12 Inter; trixie's 4.1 has other glyphs).
        var arguments = [
            "--deb", deb, "--image", folder + "/root.img",
            "--add", e2e + "/driver.sh:/usr/local/lib/glance-vmtest/driver.sh",
            "--add", e2e + "/glance-vmtest.service:/etc/systemd/system/glance-vmtest.service",
            "--add", e2e + "/glance-vmtest-banner.service:/etc/systemd/system/glance-vmtest-banner.service",
            "--add", mode + ":/etc/glance-vmtest/mode",
            "--add", store + ":/var/lib/glance/glance.db", "--add", config + ":/etc/glance/config.json",
            "--enable", "glance-vmtest.service", "--enable", "glance-vmtest-banner.service",
        ]
        arguments += imageFontAdditions()
        // The harness's lines are virtio consoles here: no login prompt may take hvc0 over (systemd
        // starts one on hvc0 by itself), and fontconfig's cache for the fonts put in.
        arguments += ["--run", "systemctl mask serial-getty@hvc0.service serial-getty@hvc1.service", "--run", "fc-cache -f"]
        let imageStarted = Date()
        let (imageStatus, imageOutput) = try runTool(VMPaths.root + "/tools/vm/device-image.sh", arguments)
        for line in imageOutput.split(separator: "\n") where line.hasPrefix("PACKAGE") { print("arm64: \(line)") }
        try #require(imageStatus == 0, "device-image.sh failed (\(imageStatus)):\n\(imageOutput)")
        print("arm64: image made in \(Int(Date().timeIntervalSince(imageStarted))) s")
        for check in [
            "dpkg -i", "user glance", "groups: glance video input", "enabled", "dpkg -P: nothing", "aarch64",
            "glance-serve.service installed, not enabled", "manual page",
        ] {
            #expect(imageOutput.contains(check), "no '\(check)' check in device-image.sh's output")
        }

        // Yesterday as the x86 glance render draws it, for the screendump after Left to be polled
        // against (the emulated machine's speed varies: no fixed wait; the checks below decide).
        let expectedYesterday = try DeviceBoot.render(
            store: store, date: today, name: "arm64-expected-yesterday", folder: folder,
            extra: ["--date", DeviceBoot.dayBefore(today)])
        try writePPM(expectedYesterday, to: folder + "/expected-yesterday.ppm")
        // The boot: a screendump at each stage the guest waits at; Left in between, polled until
        // yesterday shows; after SIGTERM, polled until the console (text) shows.
        let host = [
            "wait-console STEP first waiting 300", "screendump first", "send go",
            "wait-console STEP input waiting 60", "key left", "screendump-until yesterday \(folder)/expected-yesterday 20",
            "send go",
            "wait-console STEP stopped waiting 90", "screendump-until-console stopped yesterday 500 20", "send go",
            "wait-exit 60",
        ]
        let qmp = folder + "/host.qmp"
        try (host.joined(separator: "\n") + "\n").write(toFile: qmp, atomically: true, encoding: .utf8)
        let started = Date()
        let (vmStatus, output) = try runTool(
            VMPaths.harness,
            [
                "--arch", "arm64", "--root-image", folder + "/root.img", "--gpu", "virtio", "--res", "480x480",
                "--smp", "2", "--mem", "768", "--qmp-script", qmp, "--out", folder + "/vm", "--timeout", "500",
            ])
        let seconds = Int(Date().timeIntervalSince(started))
        // (a virtio console may end lines with CR LF, which Swift takes for one character)
        let log = ((try? String(contentsOfFile: folder + "/vm/console.log", encoding: .utf8)) ?? "")
            .replacingOccurrences(of: "\r", with: "")
        let context =
            "results in \(folder)/vm; harness status \(vmStatus):\n"
            + output.split(separator: "\n").suffix(6).joined(separator: "\n") + "\nsteps:\n"
            + log.split(separator: "\n").filter { $0.hasPrefix("STEP") }.joined(separator: "\n")
        try? FileManager.default.removeItem(atPath: folder + "/root.img")
        #expect(vmStatus == 0, "\(context)")
        let boot = DeviceBoot(log: log, folder: folder + "/vm")

        // An arm64 guest, running the package's version, started by systemd as user glance.
        let booted = try #require(boot.step("boot"), "the guest never reported; \(context)")
        #expect(booted.contains("arch=aarch64"), "\(booted)")
        let version = ((try? runTool("/usr/bin/dpkg-deb", ["-f", deb, "Version"]).1) ?? "").filter { !$0.isNewline }
        #expect(
            boot.step("version") == "glance " + version,
            "glance --version in the guest: \(boot.step("version") ?? "none")")
        let ready = try #require(boot.step("ready"), "glance.service never became active; \(context)")
        #expect(ready.contains("user=glance"), "\(ready)")
        #expect(ready.contains("video") && ready.contains("input"), "\(ready)")
        let startup = log.split(separator: "\n").first { $0.contains("startup: first frame on screen") }
        let afterKernel = startup.flatMap { DeviceBoot.number(before: " ms after kernel start", in: String($0)) }
        #expect(afterKernel != nil, "no startup line with the time after kernel start in the journal; \(context)")
        print(
            "arm64: boot to first frame: \(afterKernel.map { "\($0) ms" } ?? "?") after kernel start "
                + "(qemu-system-aarch64, TCG, Cortex-A72, 2 CPUs); \(ready)")
        if let line = log.split(separator: "\n").first(where: { $0.hasPrefix("[systemd-analyze]") }) {
            print("arm64: \(line)")
        }
        // (the app waits up to 5 s for udev to give /dev/dri/card0 to group video, Card's
        // udevWait; this line would mean udev took longer and systemd's restart found it)
        let early = log.split(separator: "\n").first { $0.contains("Permission denied (add the user to group video") }
        if let early { print("arm64: the first start was too early for udev: \(early)") }

        // The first frame and yesterday's, as the x86 glance render draws them.
        let date = boot.value("date", in: booted) ?? ""
        #expect(date == today, "the guest's day \(date) is not the host's \(today)")
        let first = try #require(boot.screendump("first"), "no first screendump; \(context)")
        let render = try DeviceBoot.render(store: store, date: date, name: "arm64-first", folder: folder)
        #expect(
            difference(first, render, name: "first", folder: folder) == nil,
            "the arm64 app's first frame is not the x86 render of today")
        let left = try #require(boot.screendump("yesterday"), "no screendump after the Left key; \(context)")
        let yesterday = try DeviceBoot.render(
            store: store, date: date, name: "arm64-yesterday", folder: folder,
            extra: ["--date", DeviceBoot.dayBefore(date)])
        #expect(
            difference(left, yesterday, name: "yesterday", folder: folder) == nil,
            "after Left the arm64 app does not show the x86 render of yesterday")

        // SIGTERM: exit status 0, the console back (its text, not the app's last frame).
        let stopped = try #require(boot.step("stopped"), "\(context)")
        #expect(stopped.contains("status=0") && stopped.contains("glance=inactive"), "\(stopped)")
        let console = try #require(boot.screendump("stopped"), "no screendump after SIGTERM; \(context)")
        #expect(difference(console, yesterday, name: "stopped-app", folder: folder) != nil, "the app's frame stayed")
        #expect(litPixels(console) > 500, "after SIGTERM the panel shows no console text")
        print("arm64: boot test took \(seconds) s; \(stopped)")
    }
}

/// What the arm64 boot test needs.
enum ARM64Boot {
    /// Why it cannot run here, if it cannot.
    static let problem: String? = {
        #if !(os(Linux) && arch(x86_64))
            return "the arm64 boot test cross-builds on x86-64 Linux"
        #else
            if let root = DeviceBoot.rootProblem { return root }
            if RunSwitch.on("GLANCE_SKIP_ARM64") { return "GLANCE_SKIP_ARM64=\(ProcessInfo.processInfo.environment["GLANCE_SKIP_ARM64"] ?? "") is set" }
            return nil
        #endif
    }()

    /// The skip reason (a plain value: Swift 6.0 crashes on string interpolation in a trait).
    static let skipped = "arm64 boot test skipped: " + (problem ?? "")

    static let noPackage =
        "no arm64 package (GLANCE_ARM64_DEB, else \(DeviceBoot.packageFolder)/glance-panel_*_arm64.deb): "
        + "run tools/build-deb.sh --arch arm64 (make test does)"

    /// $GLANCE_ARM64_DEB (what `make test` just built), else the newest arm64 package in .build/deb.
    static func package() -> String? {
        if let given = ProcessInfo.processInfo.environment["GLANCE_ARM64_DEB"], !given.isEmpty {
            return FileManager.default.fileExists(atPath: given) ? given : nil
        }
        let folder = DeviceBoot.packageFolder
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix("_arm64.deb") }.map { folder + "/" + $0 }.max {
            let a = (try? FileManager.default.attributesOfItem(atPath: $0)[.modificationDate] as? Date) ?? .distantPast
            let b = (try? FileManager.default.attributesOfItem(atPath: $1)[.modificationDate] as? Date) ?? .distantPast
            return a < b
        }
    }
}
