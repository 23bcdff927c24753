import Foundation
import ImageFile
import Raster
import TestSupport
import Testing

/// The product as installed on a board: the real .deb (tools/build-deb.sh) installed by dpkg
/// into a minimal Debian with systemd (tools/vm/device-image.sh, which also checks that the
/// package installs, removes and purges cleanly), booted under qemu with Debian's kernel. The
/// app comes up by itself from glance.service, with no shell in between; a guest driver
/// (tools/vm/device-e2e/driver.sh) crashes and hangs it, the host feeds it through
/// glance-serve.service (a port qemu's user network forwards) and a user of group glance through
/// `glance metric set`; Home Assistant's screen select comes through the guest's mosquitto and
/// glance-mqtt.service; the guest's clock is set to just before a window of the schedule that
/// turns the panel off; the panel's process is checked for the libraries it must not map; and
/// the host checks every stage on the virtual monitor.
///
/// Part of VMEndToEndTests (an extension), so its boot never runs beside another VM: the suite
/// is serialized, and two emulated guests on two cores starve each other.
extension VMEndToEndTests {
    @Test(
        "the package installs, removes and purges cleanly; booted, the app comes up by itself and recovers from crashes",
        .disabled(
            if: DeviceBoot.rootProblem != nil,
            Comment(rawValue: DeviceBoot.skipped))
    )
    func deviceBootToApp() throws {
        let deb = try #require(
            DeviceBoot.package(),
            "no package (GLANCE_DEB, else \(DeviceBoot.packageFolder)): run tools/build-deb.sh (make test does)")
        print("device: package \(deb)")
        let folder = VMPaths.scratch + "/device-boot"
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let e2e = VMPaths.root + "/tools/vm/device-e2e"

        // The store the service finds in its state directory, made by root as `glance log` would
        // (today: the app shows the real date), and a copy changed as the guest will change it.
        let today = DeviceBoot.today()
        let store = folder + "/glance.db"
        let logged = folder + "/logged.db"
        for path in [store, logged] {
            let (status, out) = try runTool(
                VMPaths.glance,
                [
                    "log", "--db", path, "--date", today, "--move", "420", "--move-goal", "500", "--exercise", "25",
                    "--exercise-goal", "30", "--stand", "9", "--stand-goal", "12",
                ])
            try #require(status == 0, "glance log: \(out)")
        }
        let (changed, changedOut) = try runTool(
            VMPaths.glance, ["log", "--db", logged, "--date", today] + DeviceBoot.guestLog)
        try #require(changed == 0, "glance log: \(changedOut)")
        // The household: Ann added to the store the image gets by `glance people add` (her token
        // written beside a token file of the host's, then put in the image's /etc/glance/people).
        let annToken = try DeviceBoot.addAnn(store: store, folder: folder + "/people-image")

        // A store copied in by hand (0644, not as glance makes one in the setgid folder): the
        // unit's ExecStartPre makes it the group's, so member pi's glance metric set writes it.
        #expect(chmod(store, 0o644) == 0)

        // The configuration: the defaults but for the time in the ring screen's header, which
        // would make the guest's picture depend on the minute it is drawn in, and the idle
        // dimming; glance serve listening on the network; a gauge of the metric the guest's user
        // pi sets; glance mqtt's broker; a window of the schedule that has the panel off from a
        // boundary six hours away, which the guest's driver reads too.
        let config = folder + "/config.json"
        let boundary = DeviceBoot.boundary(from: DeviceBoot.minuteNow())
        try DeviceBoot.config(boundary: boundary).write(toFile: config, atomically: true, encoding: .utf8)
        let boundaryFile = folder + "/boundary"
        try (DeviceBoot.clockTime(boundary) + "\n").write(toFile: boundaryFile, atomically: true, encoding: .utf8)
        let (checked, checkedOut) = try runTool(VMPaths.glance, ["config", "check", "--config", config])
        try #require(checked == 0, "glance config check of the test's configuration: \(checkedOut)")

        // What the host posts to glance serve (today's figures), and the stores the app should
        // show afterwards: the guest's store after the post (as `glance log` writes the same
        // figures), then after pi's metric. Drawn now, as the PPMs the host's screendumps are
        // polled against (the guest's day is checked to be the host's below).
        let served = folder + "/served.db"
        try? FileManager.default.removeItem(atPath: served)
        try FileManager.default.copyItem(atPath: logged, toPath: served)
        let (postLogged, postLoggedOut) = try runTool(
            VMPaths.glance,
            ["log", "--db", served, "--date", today] + DeviceBoot.posted.flatMap { ["--" + $0.0, "\($0.1)"] })
        try #require(postLogged == 0, "glance log: \(postLoggedOut)")
        let body = folder + "/post.json"
        let fields = DeviceBoot.posted.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ")
        try #"{"days": [{"date": "\#(today)", \#(fields)}]}"#.write(toFile: body, atomically: true, encoding: .utf8)
        let servedRender = try DeviceBoot.render(store: served, date: today, name: "serve", folder: folder)
        let gaugeArguments = [
            "--screen", "gauge", "--style", "circular", "--min", "-10", "--max", "40", "--title", "Shed", "--unit",
            "°C",
        ]
        let noValue = try DeviceBoot.render(
            store: nil, date: today, name: "gauges", folder: folder, extra: gaugeArguments + ["--value", "-"])
        let metricRender = try DeviceBoot.render(
            store: nil, date: today, name: "metric", folder: folder,
            extra: gaugeArguments + ["--value", DeviceBoot.guestMetric])
        // And yesterday after Left, today again after Right on the new keyboard (the store after
        // root's glance log): polled for, not waited a fixed time for.
        let expectedYesterday = try DeviceBoot.render(
            store: logged, date: today, name: "expected-yesterday", folder: folder, extra: ["--date", DeviceBoot.dayBefore(today)])
        let expectedToday = try DeviceBoot.render(store: logged, date: today, name: "expected-hotplug", folder: folder)
        // An Android phone's Health Connect push (HC Webhook's payload) late in the boot: the day
        // as the served store with the push's figures over it (samples win, the goals are the
        // day's), drawn by glance render.
        let hcBody = folder + "/health-connect.json"
        try DeviceBoot.healthConnectBody(today).write(toFile: hcBody, atomically: true, encoding: .utf8)
        let pushed = folder + "/pushed.db"
        try? FileManager.default.removeItem(atPath: pushed)
        try FileManager.default.copyItem(atPath: served, toPath: pushed)
        // (as samples through Health Connect's feed, as the push keeps them: a glance-readings
        // file of the figures by hand, in the guest's zone)
        var utc = ProcessInfo.processInfo.environment
        utc["TZ"] = "UTC"
        let hcReadings = folder + "/health-connect-readings.json"
        try DeviceBoot.healthConnectReadings(today).write(toFile: hcReadings, atomically: true, encoding: .utf8)
        let hcImport = try TestSupport.runProcess(
            VMPaths.glance, ["import", hcReadings, "--db", pushed, "--quiet"], environment: utc, combined: true)
        try #require(hcImport.status == 0, "glance import of the push's figures: \(hcImport.stdout)")
        let pushedRender = try DeviceBoot.render(store: pushed, date: today, name: "health-connect", folder: folder)
        // Then a band's Gadgetbridge export, delivered into the watched folder as Syncthing does:
        // the day as the pushed store with the file imported over it (the host's glance import,
        // in the guest's zone), drawn by glance render.
        let gadgetbridge = folder + "/Gadgetbridge.db"
        try? FileManager.default.removeItem(atPath: gadgetbridge)
        try GadgetbridgeSchema.make(gadgetbridge, DeviceBoot.gadgetbridgeRows(today))
        let imported = folder + "/imported.db"
        try? FileManager.default.removeItem(atPath: imported)
        try FileManager.default.copyItem(atPath: pushed, toPath: imported)
        let gbImport = try TestSupport.runProcess(
            VMPaths.glance, ["import", gadgetbridge, "--db", imported, "--quiet"], environment: utc, combined: true)
        try #require(gbImport.status == 0, "glance import of the test's Gadgetbridge file: \(gbImport.stdout)")
        let importedRender = try DeviceBoot.render(store: imported, date: today, name: "gadgetbridge", folder: folder)
        // Then Ann's phone pushes (Health Auto Export, with her token), and the family screen is
        // chosen in Home Assistant: both people's rings as glance render draws the store with
        // the Gadgetbridge file imported, Ann added, and her push's figures as hers (a
        // glance-readings file by hand, through Health Auto Export's feed).
        let annBody = folder + "/ann-push.json"
        try DeviceBoot.annPush(today).write(toFile: annBody, atomically: true, encoding: .utf8)
        let annHeader = folder + "/authorization-ann"
        try "Authorization: Bearer \(annToken)\n".write(toFile: annHeader, atomically: true, encoding: .utf8)
        let household = folder + "/household.db"
        try? FileManager.default.removeItem(atPath: household)
        try FileManager.default.copyItem(atPath: imported, toPath: household)
        _ = try DeviceBoot.addAnn(store: household, folder: folder + "/people-expected")
        let annReadings = folder + "/ann-readings.json"
        try DeviceBoot.annReadings(today).write(toFile: annReadings, atomically: true, encoding: .utf8)
        let annImport = try TestSupport.runProcess(
            VMPaths.glance, ["import", annReadings, "--db", household, "--person", "Ann", "--quiet"], environment: utc, combined: true)
        try #require(annImport.status == 0, "glance import of Ann's push's figures: \(annImport.stdout)")
        let householdRender = try DeviceBoot.render(
            store: household, date: today, name: "household", folder: folder, extra: ["--screen", "family"])
        // The page's save of the name (the host's browser through the forwarded port), then its
        // Show of the ring screen: person 1's rings as the household's store has them, named.
        let webRender = try DeviceBoot.render(
            store: household, date: today, name: "web", folder: folder, extra: ["--name", DeviceBoot.webName])
        // Home Assistant's notify: the message as glance render draws it.
        let messageRender = try DeviceBoot.render(store: served, date: today, name: "message", folder: folder, extra: ["--message", "Washing done"])
        for (name, picture) in [
            ("serve", servedRender), ("gauges", noValue), ("metric", metricRender), ("yesterday", expectedYesterday),
            ("hotplug", expectedToday), ("message", messageRender), ("health-connect", pushedRender),
            ("gadgetbridge", importedRender), ("household", householdRender), ("web", webRender),
        ] {
            try writePPM(picture, to: folder + "/expected-\(name).ppm")
        }

        // The image: the package through dpkg (install, remove, purge, install), the test's driver,
        // glance serve enabled on a DHCP network (systemd-networkd), glance mqtt enabled with
        // Debian's mosquitto (local only, its default) as the broker and its clients for the
        // driver, user pi in group glance, and the fonts the host's render draws with in place of
        // the release's (Debian 13's Inter 4.1 draws other pixels than the pinned Debian 12 one).
        let image = folder + "/root.img"
        let (imageStatus, imageOutput) = try runTool(
            VMPaths.root + "/tools/vm/device-image.sh",
            imageFontAdditions() + [
                "--deb", deb, "--image", image,
                "--add", e2e + "/driver.sh:/usr/local/lib/glance-vmtest/driver.sh",
                "--add", e2e + "/glance-vmtest.service:/etc/systemd/system/glance-vmtest.service",
                "--add", e2e + "/glance-vmtest-banner.service:/etc/systemd/system/glance-vmtest-banner.service",
                "--add", store + ":/var/lib/glance/glance.db", "--add", config + ":/etc/glance/config.json",
                "--enable", "glance-vmtest.service", "--enable", "glance-vmtest-banner.service",
                "--add", e2e + "/vmtest.network:/etc/systemd/network/80-vmtest.network",
                "--enable", "systemd-networkd.service", "--enable", "glance-serve.service",
                "--package", "mosquitto", "--package", "mosquitto-clients", "--enable", "mosquitto.service",
                "--enable", "glance-mqtt.service", "--add", boundaryFile + ":/etc/glance-vmtest/boundary",
                "--run", "useradd --create-home --shell /bin/bash pi && adduser --quiet pi glance",
                // The watched folder a Syncthing of group glance fills, and the band's file to put there.
                "--run", "install -d -g glance -m 2750 /srv/gadgetbridge", "--enable", "glance-import-watch.service",
                "--add", gadgetbridge + ":/var/lib/glance-vmtest/Gadgetbridge.db",
                // Ann's token as glance people wrote it (0640 in a 0750 folder), the service's group's.
                "--add", folder + "/people-image/people:/etc/glance/people",
                "--run", "chgrp -R glance /etc/glance/people",
                // The panel's own page on the network (web.listen in the configuration).
                "--enable", "glance-web.service",
            ])
        for line in imageOutput.split(separator: "\n") where line.hasPrefix("PACKAGE") { print("device: \(line)") }
        try #require(imageStatus == 0, "device-image.sh failed (\(imageStatus)):\n\(imageOutput)")
        for check in [
            "dpkg -i", "user glance", "groups: glance video input", "enabled", "dpkg -r", "dpkg -P: nothing",
            "glance-serve.service installed, not enabled", "glance-mqtt.service installed, not enabled",
            "user glance-net in groups: glance", "glance:glance 2770", "manual page, bash/zsh/fish completions",
        ] {
            #expect(imageOutput.contains(check), "no '\(check)' check in device-image.sh's output")
        }

        // glance serve's token, as the package's postinst made it in the image, for the host's
        // requests (a header file: the token stays out of the script and the logs).
        let tokenRead = try TestSupport.runProcess("/usr/sbin/debugfs", ["-R", "cat /etc/glance/serve.token", image])
        let token = tokenRead.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(
            tokenRead.status == 0 && token.count >= 16, "no token in the image's /etc/glance/serve.token (debugfs)")
        let header = folder + "/authorization"
        try "Authorization: Bearer \(token)\n".write(toFile: header, atomically: true, encoding: .utf8)
        let port = try #require(DeviceBoot.freePort(), "no free port on 127.0.0.1 for qemu to forward")
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"),
            "no /usr/bin/curl (apt-get install curl): the host posts to glance serve with it")
        let url = "http://127.0.0.1:\(port)"
        let webPort = try #require(DeviceBoot.freePort(avoiding: port), "no second free port on 127.0.0.1 for the page")
        // The host's browser on the page (Debian's Chromium through chromedriver,
        // tools/vm/device-e2e/browser-save.py): signs in with the link the guest's root made (its
        // secret read from the guest's step), types the name into the settings' form and saves it,
        // then shows the ring screen with the page's control.
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver"),
            "no /usr/bin/chromedriver (make deps installs Debian's chromium and chromium-driver): the host's browser saves from the page")
        let webSave = "exec /usr/bin/python3 '\(e2e)/browser-save.py' http://127.0.0.1:\(webPort) '\(folder)/vm/console.log' \(DeviceBoot.webName)"

        // The boot: each guest stage that says "waiting" gets a screendump, then "go".
        let stages = [
            "first", "logged", "reloaded", "segv", "segv-back", "abrt", "abrt-back", "kill", "kill-back", "watchdog",
            "watchdog-back", "front",
            "fallback",
        ]
        // After a death the console, as the first one (segv) showed it; back, the app's picture
        // as it was before (hotplug: today after the log, which the checks below require to
        // equal the render): polled until equal, so a late flush is waited for (the checks
        // below still decide).
        func shot(_ stage: String) -> String {
            if ["abrt", "kill", "watchdog"].contains(stage) { return "screendump-until \(stage) segv 3" }
            if stage.hasSuffix("-back") || stage == "front" || stage == "reloaded" {
                return "screendump-until \(stage) hotplug 5"
            }
            return "screendump \(stage)"
        }
        var host: [String] = []
        for stage in stages {
            host += ["wait-console STEP \(stage) waiting \(stage == "first" ? 200 : 90)", shot(stage), "send go"]
        }
        // Once glance serve is up: the host posts today's figures with curl through the port qemu
        // forwards and polls the monitor until it shows them (the time from the answer to the
        // picture is measured: result.json). Then the gauge screen (Down), and pi's metric on it.
        let afterFront = host.firstIndex(of: shot("front"))! + 2
        let curl = "/usr/bin/curl -sS --max-time 20 -w '%{http_code}\\n'"
        host.insert(
            contentsOf: [
                "wait-console STEP serve waiting 120",
                "host serve-health 90 \(curl) --retry 30 --retry-delay 1 --retry-all-errors -o serve-health.json \(url)/v1/health",
                "host serve-post 30 \(curl) -o serve-post.json -X POST -H @'\(header)' -H 'Content-Type: application/json' "
                    + "--data-binary @'\(body)' \(url)/v1/days",
                "screendump-until serve \(folder)/expected-serve 15", "send go",
                "wait-console STEP gauges waiting 60", "key down",
                "screendump-until gauges \(folder)/expected-gauges 10",
                "send go",
                "wait-console STEP metric waiting 60", "screendump-until metric \(folder)/expected-metric 10",
                "send go",
            ], at: afterFront)
        // Input through the sandbox: Left goes to yesterday; the keyboard unplugged and another
        // plugged in (/dev/input is bound into the unit's private /dev: new nodes must show);
        // Right on the new one comes back to today.
        let afterLogged = host.firstIndex(of: "screendump logged")! + 2
        host.insert(
            contentsOf: [
                "wait-console STEP input waiting 60", "key left", "screendump-until yesterday \(folder)/expected-yesterday 15",
                // The new card only once the guest has given the slot up (its hotplug driver
                // would not see a card plugged in while it still powers the slot down): under
                // make test's load the add could come first and never show. The request is
                // repeated when the guest has not acted on it (one CI run: lost, 60 s of nothing).
                "unplug kbd0 90 15",
                "wait-console glance: input: .*(went away|removed) 30",
                #"qmp {"execute": "device_add", "arguments": {"driver": "virtio-keyboard-pci", "id": "kbd1", "bus": "inputport"}}"#,
                "wait-console glance: input: .*[Kk]eyboard.*keys 60", "key right",
                "screendump-until hotplug \(folder)/expected-hotplug 15",
                "send go",
            ], at: afterLogged)
        // Home Assistant's select through the guest's broker and glance mqtt: the rings again,
        // as served. Then the schedule: the panel still shows them 8 s before the boundary (the
        // clock set to 20 s before it), is dark after it, and lights again when the clock is set
        // back to the real time.
        let fallbackWait = host.firstIndex(of: "wait-console STEP fallback waiting 90")!
        host.insert(
            contentsOf: [
                "wait-console STEP mqtt waiting 240", "screendump-until mqtt \(folder)/expected-serve 10", "send go",
                // The notify's message, then Left: it only dismisses it (the schedule's step after
                // it finds today's rings, not yesterday's).
                "wait-console STEP notify waiting 120", "screendump-until notify \(folder)/expected-message 15", "key left",
                "send go", "wait-console STEP notify-dismissed waiting 150", "send go",
                "wait-console STEP schedule-before waiting 60",
                "screendump-until schedule-before \(folder)/expected-serve 3", "send go",
                "wait-console STEP schedule-dark waiting 60",
                "screendump-until-dark schedule-dark \(DeviceBoot.darkLit) 10", "send go",
                "wait-console STEP schedule-back waiting 60",
                "screendump-until schedule-back \(folder)/expected-serve 10", "send go",
                // Health Connect's push through the forwarded port: the rings as pushed.
                "wait-console STEP health-connect waiting 60",
                "host hc-post 30 \(curl) -o hc-post.json -X POST -H @'\(header)' -H 'Content-Type: application/json' "
                    + "--data-binary @'\(hcBody)' \(url)/v1/health-connect",
                "screendump-until health-connect \(folder)/expected-health-connect 15", "send go",
                // The band's export renamed into the watched folder: glance-import-watch imports it.
                "wait-console STEP gadgetbridge waiting 60",
                "screendump-until gadgetbridge \(folder)/expected-gadgetbridge 30", "send go",
                // Ann's phone: Health Auto Export's push with her own token; then the family screen.
                "wait-console STEP household waiting 60",
                "host ann-post 30 \(curl) -o ann-post.json -X POST -H @'\(annHeader)' -H 'Content-Type: application/json' "
                    + "--data-binary @'\(annBody)' \(url)/v1/health-auto-export",
                "send go",
                "wait-console STEP household-shown waiting 60",
                "screendump-until household \(folder)/expected-household 15", "send go",
                "wait-console STEP web waiting 90", "host web-browser 120 \(webSave)",
                "screendump-until web \(folder)/expected-web 20", "send go",
            ], at: fallbackWait)
        host.append("wait-exit 30")
        let qmp = folder + "/host.qmp"
        try (host.joined(separator: "\n") + "\n").write(toFile: qmp, atomically: true, encoding: .utf8)
        let started = Date()
        let (status, output) = try runTool(
            VMPaths.harness,
            [
                "--root-image", image, "--gpu", "virtio", "--res", "480x480", "--qmp-script", qmp,
                "--out", folder + "/vm", "--timeout", "600", "--modules", "virtio_net",
                "--qemu-opt", "-nic", "--qemu-opt", "user,model=virtio-net-pci,hostfwd=tcp:127.0.0.1:\(port)-:8127,hostfwd=tcp:127.0.0.1:\(webPort)-:8128",
            ])
        let seconds = Int(Date().timeIntervalSince(started))
        let log = (try? String(contentsOfFile: folder + "/vm/console.log", encoding: .utf8)) ?? ""
        let context =
            "results in \(folder)/vm; harness status \(status):\n"
            + output.split(separator: "\n").suffix(6).joined(separator: "\n") + "\nsteps:\n"
            + log.split(separator: "\n").filter { $0.hasPrefix("STEP") }.joined(separator: "\n")
        try? FileManager.default.removeItem(atPath: image)  // 800 MB sparse; the screendumps stay
        #expect(status == 0, "\(context)")
        let boot = DeviceBoot(log: log, folder: folder + "/vm")

        // Up by itself, as user glance in groups video and input, with the watchdog armed.
        let ready = try #require(boot.step("ready"), "glance.service never became active; \(context)")
        #expect(ready.contains("user=glance"), "\(ready)")
        #expect(ready.contains("video") && ready.contains("input"), "\(ready)")
        #expect(ready.contains("watchdog_us=10s") && ready.contains("restarts=0"), "\(ready)")
        let startup = log.split(separator: "\n").first { $0.contains("startup: first frame on screen") }
        let afterKernel = startup.flatMap { DeviceBoot.number(before: " ms after kernel start", in: String($0)) }
        #expect(afterKernel != nil, "no startup line with the time after kernel start in the journal; \(context)")
        let rss = DeviceBoot.number(before: " kB", in: ready.components(separatedBy: "VmRSS:").last ?? "")
        print(
            "device: boot to first frame: \(afterKernel.map { "\($0) ms" } ?? "?") after kernel start "
                + "(TCG, one emulated CPU); VmRSS \(rss.map { "\(Int($0 / 1024)) MB" } ?? "?") at 480x480")
        if let line = log.split(separator: "\n").first(where: { $0.hasPrefix("[systemd-analyze]") }) {
            print("device: \(line)")
        }

        // The first frame is today from the store in the state directory, exactly as glance render
        // draws it; root's `glance log` reaches the running app, which redraws by itself.
        let date = boot.value("date", in: boot.step("boot") ?? "") ?? ""
        #expect(date == today, "the guest's day \(date) is not the host's \(today)")
        let before = try DeviceBoot.render(store: store, date: date, name: "first", folder: folder)
        let first = try #require(boot.screendump("first"), "no first screendump; \(context)")
        #expect(
            difference(first, before, name: "first", folder: folder) == nil,
            "the first frame is not today's ring screen from /var/lib/glance/glance.db")
        let render = try DeviceBoot.render(store: logged, date: date, name: "logged", folder: folder)
        let shown = try #require(boot.screendump("logged"), "no screendump after glance log; \(context)")
        #expect(
            difference(shown, render, name: "logged", folder: folder) == nil,
            "root's glance log did not reach the app: \(boot.step("logged") ?? "")")
        let yesterday = try DeviceBoot.render(
            store: logged, date: date, name: "yesterday", folder: folder, extra: ["--date", DeviceBoot.dayBefore(date)])
        let left = try #require(boot.screendump("yesterday"), "no screendump after the Left key; \(context)")
        #expect(
            difference(left, yesterday, name: "yesterday", folder: folder) == nil,
            "the Left key did not reach the sandboxed app (yesterday not shown)")
        let plugged = try #require(boot.screendump("hotplug"), "no screendump after the keyboard came back; \(context)")
        #expect(
            difference(plugged, render, name: "hotplug", folder: folder) == nil,
            "a keyboard plugged in while the unit runs did not reach the app (today not shown again)")
        // systemctl reload: the same process reads the configuration again; glance screenshot
        // reaches it through the unit's runtime directory (root and group glance only).
        let reload = try #require(boot.step("reload"), "no reload step; \(context)")
        #expect(boot.value("rc", in: reload) == "0" && boot.value("active", in: reload) == "active", "\(reload)")
        // Both present and equal (two missing values are no same process).
        #expect(
            boot.value("pid", in: reload) != nil && boot.value("pid", in: reload) == boot.value("was", in: reload),
            "reload restarted the app: \(reload)")
        #expect(boot.value("restarts", in: reload) == "0" && boot.value("reloaded", in: reload) == "1", "\(reload)")
        let screenshot = try #require(boot.step("screenshot"), "no screenshot step; \(context)")
        #expect(boot.value("rc", in: screenshot) == "0" && screenshot.contains("480x480, the frame on the panel"), "\(screenshot)")
        #expect(boot.value("socket", in: screenshot) == "660:glance:glance", "\(screenshot)")
        let reloaded = try #require(boot.screendump("reloaded"), "no screendump after the reload; \(context)")
        #expect(
            difference(reloaded, render, name: "reloaded", folder: folder) == nil,
            "after systemctl reload the panel does not show the app's picture")
        // After a restart every file of the state directory is the glance user's again.
        let owners = boot.step("segv-restarted") ?? ""
        #expect(owners.contains("owners=glance "), "\(owners)")

        // Watchdog pings arrive: alive well past WatchdogSec, same process, no restart.
        let alive = try #require(boot.step("watchdog-alive"), "\(context)")
        #expect(alive.contains("restarts=0") && alive.contains("pings_advanced=yes"), "\(alive)")
        #expect(boot.value("pid", in: alive) != nil && boot.value("pid", in: alive) == boot.value("was", in: alive), "\(alive)")

        // After each death the panel shows the console (text, not the app's last frame), then
        // the restarted app shows the same picture again.
        let console = try #require(boot.screendump("segv"), "no screendump after SIGSEGV; \(context)")
        #expect(litPixels(console) > 500, "after SIGSEGV the panel shows no console text")
        for (stage, restarts) in [("segv", 1), ("abrt", 2), ("kill", 3), ("watchdog", 4)] {
            let after = try #require(boot.screendump(stage), "no screendump \(stage); \(context)")
            #expect(
                difference(after, render, name: stage, folder: folder) != nil,
                "\(stage): the panel froze on the app's frame")
            #expect(
                difference(after, console, name: stage + "-console", folder: folder) == nil,
                "\(stage): the panel does not show the console")
            let back = try #require(boot.screendump(stage + "-back"), "no screendump \(stage)-back; \(context)")
            #expect(
                difference(back, render, name: stage + "-back", folder: folder) == nil,
                "\(stage): the app did not come back")
            let restarted = boot.step("\(stage)-restarted") ?? ""
            #expect(restarted.contains("restarts=\(restarts)"), "\(stage): \(restarted)")
        }
        // SIGSEGV, SIGABRT and the watchdog's SIGABRT go through the crash handler; SIGKILL
        // cannot, and the kernel puts the console back when the app's last descriptor closes.
        let restores = log.components(separatedBy: "fatal signal: display restored").count - 1
        #expect(
            restores >= 3, "the crash handler restored the display \(restores) times, expected 3 (SEGV, ABRT, watchdog)"
        )
        #expect(boot.step("hang-ended")?.contains("result=watchdog") == true, "\(boot.step("hang-ended") ?? context)")
        #expect(log.contains("Watchdog timeout"), "systemd did not report the watchdog timeout")

        // Restarted while tty2 was in front: the app brought tty1 forward and shows there.
        #expect(boot.step("front-away")?.contains("front=tty2") == true, "tty2 did not come to the front")
        let front = try #require(boot.step("front-restarted"), "\(context)")
        #expect(front.contains("front=tty1"), "\(front)")
        #expect(log.contains("tty1 brought to the front (tty2 was)"), "no 'brought to the front' line in the journal")
        let frontShown = try #require(boot.screendump("front"), "no screendump front; \(context)")
        #expect(
            difference(frontShown, render, name: "front", folder: folder) == nil,
            "restarted while tty2 was in front, the app does not show on the panel")

        // glance serve as the package installs it, enabled: up as user glance-net on the DHCP
        // network; the host's POST answered 200 with the day changed, and the monitor shows
        // exactly today's rings from the store as the post left it.
        let results = DeviceBoot.results(folder + "/vm/result.json")
        let serve = try #require(boot.step("serve"), "no serve step; \(context)")
        let serveLog = boot.step("serve-log") ?? ""
        #expect(boot.value("active", in: serve) == "active" && boot.value("user", in: serve) == "glance-net", "\(serve)")
        // The units that reach the network, rated in the booted system as systemd loads them
        // (issue 26: 2.0 or lower, as the panel's own).
        let security = try #require(boot.step("security"), "no security step; \(context)")
        for unit in ["glance", "glance-serve", "glance-mqtt"] {
            let figure = boot.value(unit, in: security).flatMap(Double.init)
            #expect(figure != nil && figure! <= 2.0, "\(unit).service's exposure in the booted system: \(security)")
        }
        print("device: systemd-analyze security in the guest: \(security)")
        #expect(boot.value("addresses", in: serve)?.isEmpty == false, "no address from DHCP: \(serve)")
        let health = boot.file("serve-health.out")
        #expect(health.hasSuffix("200\n"), "GET /v1/health through the forwarded port: \(health); \(serve)")
        let posted = boot.file("serve-post.out")
        let reply = boot.file("serve-post.json")
        #expect(posted == "200\n", "POST /v1/days: \(posted) \(reply); \(serveLog)")
        #expect(
            reply.replacingOccurrences(of: " ", with: "").contains(#""days":{"new":0,"changed":1,"unchanged":0}"#),
            "POST /v1/days replied \(reply)")
        let servedShown = try #require(boot.screendump("serve"), "no screendump after the POST; \(context)")
        #expect(
            difference(servedShown, servedRender, name: "serve", folder: folder) == nil,
            "the POST to glance serve did not reach the app (today's rings as posted not shown); \(serveLog)")
        let answered = results.host("serve-post")?.end
        let onScreen = results.match("serve")?.t
        if let answered, let onScreen {
            print(
                "device: POST /v1/days answered to today's rings on the monitor: "
                    + String(format: "%.2f s", onScreen - answered)
                    + " (screendumps polled; the issue asks for 2 s; TCG, one emulated CPU)")
        } else {
            print(
                "device: POST to screen: not measured (answer \(answered.map { "\($0)" } ?? "none"), "
                    + "picture \(onScreen.map { "\($0)" } ?? "never equal"))")
        }

        // pi, a member of group glance and not root, sets a metric in the system store by
        // default; the gauge screen shows it, exactly as glance render draws that value.
        let metric = try #require(boot.step("metric"), "no metric step; \(context)")
        #expect(boot.value("rc", in: metric) == "0" && (boot.value("uid", in: metric) ?? "0") != "0", "\(metric)")
        #expect(boot.value("groups", in: metric)?.split(separator: ",").contains("glance") == true, "\(metric)")
        #expect(metric.contains("wrote to the system store /var/lib/glance/glance.db"), "\(metric)")
        #expect(boot.value("personal", in: metric) == "no", "pi's metric went to a personal store: \(metric)")
        let unset = try #require(boot.screendump("gauges"), "no screendump of the gauge screen; \(context)")
        #expect(
            difference(unset, noValue, name: "gauges", folder: folder) == nil,
            "Down did not bring the gauge screen without a value; \(boot.step("store") ?? "")")
        let gauge = try #require(boot.screendump("metric"), "no screendump after pi's metric; \(context)")
        #expect(
            difference(gauge, metricRender, name: "metric", folder: folder) == nil,
            "pi's glance metric set did not reach the app; \(metric); \(boot.step("store") ?? "")")
        #expect(difference(gauge, unset, name: "metric-before", folder: folder) != nil, "the metric changed nothing")

        // Home Assistant: glance mqtt announced the panel on the guest's broker; its screen
        // select's command topic, as the retained discovery message names it, switched the panel
        // from the gauge screen to the rings, exactly as glance render draws them.
        let mqtt = try #require(boot.step("mqtt"), "no mqtt step; \(context)")
        let bridgeLog = boot.step("mqtt-log") ?? ""
        print("device: glance mqtt in the guest: \(mqtt)")
        #expect(boot.value("broker", in: mqtt) == "active", "mosquitto in the guest: \(mqtt)")
        #expect(
            boot.value("bridge", in: mqtt) == "active" && boot.value("user", in: mqtt) == "glance-net",
            "glance-mqtt.service: \(mqtt); its journal: \(bridgeLog)")
        // Home Assistant's notify: the message on the panel, as glance render draws it; a press
        // dismissed it, and that came back as the Message dismissed event.
        let notify = try #require(boot.step("notify"), "no notify step; \(context)")
        print("device: Home Assistant's notify in the guest: \(notify)")
        #expect(boot.value("published", in: notify) == "0", "mosquitto_pub on the Message entity's topic: \(notify); \(bridgeLog)")
        let messageShown = try #require(boot.screendump("notify"), "no screendump of the message; \(context)")
        #expect(
            difference(messageShown, messageRender, name: "notify", folder: folder) == nil,
            "the notify's message is not on the panel as glance render --message draws it: \(notify); \(bridgeLog)")
        let dismissed = boot.step("notify-dismissed") ?? ""
        #expect(dismissed.contains("\"event_type\":\"pressed\""), "the dismissal by the press, as Home Assistant's event: '\(dismissed)'")
        let announced = boot.step("mqtt-discovery") ?? ""
        let discovery =
            (try? JSONSerialization.jsonObject(with: Data(announced.utf8))) as? [String: Any] ?? [:]
        let commandTopic = discovery["command_topic"] as? String
        #expect(
            commandTopic != nil && commandTopic == boot.value("command", in: mqtt),
            "no retained discovery message for the screen select with the topic published to: '\(announced)'; \(mqtt); the bridge's journal: \(bridgeLog)")
        #expect(
            (discovery["options"] as? [String]).map { $0.contains("rings") && $0.contains("gauges") } == true,
            "the select's options: \(discovery["options"] ?? "none") in '\(announced)'")
        #expect(discovery["state_topic"] as? String == boot.value("state", in: mqtt), "\(announced)")
        #expect(
            boot.value("before", in: mqtt) == "gauges",
            "the bridge never said the panel shows the gauge screen: \(mqtt); \(bridgeLog)")
        #expect(boot.value("published", in: mqtt) == "0", "mosquitto_pub on the command topic: \(mqtt)")
        #expect(
            boot.value("shown", in: mqtt) == "rings",
            "the screen state after the select's command: \(mqtt); the bridge's journal: \(bridgeLog)")
        let selected = try #require(boot.screendump("mqtt"), "no screendump after the select; \(context)")
        #expect(
            difference(selected, servedRender, name: "mqtt", folder: folder) == nil,
            "Home Assistant's select (rings) did not reach the panel: \(mqtt); the bridge's journal: \(bridgeLog)")
        #expect(difference(selected, gauge, name: "mqtt-before", folder: folder) != nil, "the select changed nothing")

        // The schedule: the clock set to 20 s before the window with brightness 0; the app kept
        // the panel on until the boundary (DPMS sampled in the guest, the monitor 8 s before it,
        // the journal) and turned it off at the boundary (DPMS, the monitor dark); with the clock
        // set back, out of the window, on again.
        let clockStep = try #require(boot.step("schedule-set"), "no schedule-set step; \(context)")
        let off = try #require(boot.step("schedule-off"), "no schedule-off step; \(context)")
        let scheduleLog = boot.step("schedule-log") ?? ""
        let edge = try #require(
            boot.seconds("boundary", in: clockStep), "no boundary in \(clockStep) (/etc/glance-vmtest/boundary)")
        print("device: schedule: \(clockStep); \(off); the app's journal: \(scheduleLog)")
        #expect(boot.value("dpms", in: clockStep) == "On", "the panel was not on when the clock was set: \(clockStep)")
        #expect(
            boot.value("early", in: off) == "none",
            "the panel went off before the boundary \(edge) (time:DPMS): \(off); \(scheduleLog)")
        let looked = boot.seconds("answered", in: off)
        #expect(
            looked != nil && looked! < edge,
            "the screendump before the boundary was answered at \(looked.map { "\($0)" } ?? "?"), not before \(edge): it cannot tell the panel was on then; \(off)")
        let ahead = try #require(boot.screendump("schedule-before"), "no screendump before the boundary; \(context)")
        #expect(
            difference(ahead, servedRender, name: "schedule-before", folder: folder) == nil,
            "8 s before the boundary the panel does not show the app's picture: \(off); \(scheduleLog)")
        let offAt = boot.seconds("off", in: off)
        #expect(
            offAt != nil && offAt! >= edge,
            "DPMS did not go off at the boundary \(edge) (within 30 s): \(off); the app's journal: \(scheduleLog)")
        if let offAt { print("device: schedule: DPMS off \(String(format: "%.2f", offAt - edge)) s after the boundary") }
        let lines = DeviceBoot.journal(scheduleLog)
        let clockSet = lines.first { $0.message.hasSuffix("the clock was set") }
        #expect(
            clockSet.map { $0.t >= edge - 20 && $0.t < edge } == true,
            "the app did not say the clock was set (timerfd cancelled on a set) between the set and the boundary: \(scheduleLog)")
        let darkened = lines.first { $0.message.hasSuffix("schedule: off") }
        #expect(
            darkened.map { $0.t >= edge } == true,
            "the app did not turn the panel off by the schedule at or after the boundary \(edge): \(scheduleLog)")
        #expect(!scheduleLog.contains("a change of the clock shows"), "no clock-change watch in the app: \(scheduleLog)")
        #expect(
            boot.value("pid", in: off) == boot.value("pid", in: clockStep) && boot.value("pid", in: clockStep) == boot.value("pid", in: mqtt),
            "the app restarted during the schedule's stage: \(mqtt); \(clockStep); \(off)")
        let dark = try #require(boot.screendump("schedule-dark"), "no screendump after the boundary; \(context)")
        #expect(
            litPixels(dark) == 0 || isQemuOutputOff(dark),
            "after the boundary the monitor is neither black nor qemu's output off (\(litPixels(dark)) pixels lit); \(off); \(scheduleLog)")
        #expect(difference(dark, servedRender, name: "schedule-dark", folder: folder) != nil)
        let setBack = try #require(boot.step("schedule-back"), "no schedule-back step; \(context)")
        #expect(boot.value("dpms", in: setBack) == "On", "the clock set back out of the window: \(setBack); \(scheduleLog)")
        let lit = try #require(boot.screendump("schedule-back"), "no screendump after the clock was set back; \(context)")
        #expect(
            difference(lit, servedRender, name: "schedule-back", folder: folder) == nil,
            "with the clock set back out of the window the panel does not show the app again: \(setBack)")

        // An Android phone's Health Connect push into the booted package: 200, the day changed,
        // and the monitor shows exactly the rings glance render draws of the pushed figures.
        let hcPosted = boot.file("hc-post.out"), hcReply = boot.file("hc-post.json")
        #expect(hcPosted == "200\n", "POST /v1/health-connect: \(hcPosted) \(hcReply); \(serveLog)")
        #expect(
            hcReply.replacingOccurrences(of: " ", with: "").contains(#""days":{"new":0,"changed":1,"unchanged":0}"#),
            "POST /v1/health-connect replied \(hcReply)")
        let hcShown = try #require(boot.screendump("health-connect"), "no screendump after the Health Connect push; \(context)")
        #expect(
            difference(hcShown, pushedRender, name: "health-connect", folder: folder) == nil,
            "the Health Connect push did not reach the panel (the rings as pushed not shown); \(hcReply)")

        // A band's Gadgetbridge export renamed into the watched folder, as Syncthing delivers it:
        // glance-import-watch.service (as glance-net) imports it, and the monitor shows exactly
        // the rings glance render draws of the store with the same file imported.
        let watched = try #require(boot.step("gadgetbridge"), "no gadgetbridge step; \(context)")
        #expect(boot.value("watch", in: watched) == "active" && boot.value("user", in: watched) == "glance-net", "\(watched)")
        let gbShown = try #require(boot.screendump("gadgetbridge"), "no screendump after the Gadgetbridge file; \(context)")
        #expect(
            difference(gbShown, importedRender, name: "gadgetbridge", folder: folder) == nil,
            "the Gadgetbridge file in the watched folder did not reach the panel: \(boot.step("gadgetbridge-log") ?? "")")

        // The household: Ann's push with her own token lands in her days (200), the family screen
        // chosen through Home Assistant shows both people exactly as glance render draws them.
        let annPosted = boot.file("ann-post.out"), annReply = boot.file("ann-post.json")
        #expect(annPosted == "200\n", "POST /v1/health-auto-export with Ann's token: \(annPosted) \(annReply); \(serveLog)")
        let familyStep = try #require(boot.step("household-shown"), "no household-shown step; \(context)")
        #expect(boot.value("shown", in: familyStep) == "family", "Home Assistant's select did not show the family: \(familyStep)")
        let familyShown = try #require(boot.screendump("household"), "no screendump of the family screen; \(context)")
        #expect(
            difference(familyShown, householdRender, name: "household", folder: folder) == nil,
            "the family screen does not show both people as pushed: \(familyStep); \(annReply)")

        // The panel's own page (issue 41): served by the booted package's glance-web.service as its
        // own user, reached from the host through the forwarded port; signed in with the one-time
        // link root made in the guest, the host's save of the name through the settings' form is
        // written (the previous file kept beside it), read by the panel, and the monitor shows
        // exactly what glance render draws with the new name.
        let webStep = try #require(boot.step("web"), "no web step; \(context)")
        #expect(boot.value("active", in: webStep) == "active" && boot.value("user", in: webStep) == "glance-web", "\(webStep)")
        let webSecurity = boot.value("security", in: webStep).flatMap(Double.init)
        #expect(webSecurity != nil && webSecurity! <= 2.0, "glance-web.service's exposure in the booted system: \(webStep)")
        let webLog = boot.step("web-log") ?? ""
        let page = "http://127.0.0.1:\(webPort)"
        #expect(boot.file("web-login.out") == page + "/\n", "the one-time link: \(boot.file("web-login.out")) \(boot.file("web-browser.out")); \(webLog)")
        #expect(boot.file("web-save.out") == page + "/settings?group=top\n", "the save: \(boot.file("web-save.out")) \(boot.file("web-saved.html").suffix(600)); \(webLog)")
        #expect(boot.file("web-show.out") == page + "/\n", "the page's Show: \(boot.file("web-show.out")); \(webLog)")
        #expect(boot.file("web-saved.html").contains("Saved"), "the page did not say it was saved; \(webLog)")
        // The goals set from the page as they were: the store written by the page's user.
        #expect(boot.file("web-goals.out").hasPrefix(page + "/goals\nsaved move="), "the goals: \(boot.file("web-goals.out")); \(webLog)")
        let webConfig = boot.step("web-config") ?? ""
        #expect(webConfig.contains("name=\"name\":") && webConfig.contains(DeviceBoot.webName), "the file: \(webConfig)")
        #expect(!webLog.contains("login?t="), "the log has the link's secret: \(webLog)")
        let webShown = try #require(boot.screendump("web"), "no screendump after the page's save; \(context)")
        #expect(
            difference(webShown, webRender, name: "web", folder: folder) == nil,
            "the page's save did not reach the panel (the rings named \(DeviceBoot.webName) not shown); \(webLog)")

        // The panel's process, after all of that, has none of the network's or the import's
        // libraries mapped (/proc/PID/maps in the guest).
        let maps = try #require(boot.step("maps"), "no maps step; \(context)")
        let libraries = (boot.value("libraries", in: maps) ?? "").split(separator: ",").map(String.init)
        print("device: libraries mapped into glance run (pid \(boot.value("pid", in: maps) ?? "?")): "
            + libraries.map { String($0.split(separator: "/").last ?? "") }.joined(separator: " "))
        #expect(
            boot.value("command", in: maps)?.contains("run") == true && libraries.contains { $0.contains("/libc.so") },
            "not the running glance run's maps: \(maps)")
        if let began = boot.seconds("began", in: mqtt), let ended = boot.seconds("uptime", in: maps) {
            print("device: the bridge's, the schedule's and the maps' stages took \(Int(ended - began)) s of the guest's uptime")
        }
        for library in DeviceBoot.foreignLibraries {
            let mapped = libraries.filter { $0.contains("/" + library) }
            #expect(mapped.isEmpty, "glance run has \(mapped.joined(separator: ", ")) mapped: \(maps)")
        }

        // Failing again and again: systemd gives up and tty1 gets a login prompt.
        let fallback = try #require(boot.step("fallback"), "\(context)")
        #expect(fallback.contains("glance=failed") && fallback.contains("getty=active"), "\(fallback)")
        let prompt = try #require(boot.screendump("fallback"))
        #expect(litPixels(prompt) > 300, "no login prompt on tty1")
        #expect(difference(prompt, console, name: "fallback-console", folder: folder) != nil)
        #expect(difference(prompt, render, name: "fallback-app", folder: folder) != nil)
        // A bad configuration (exit 78): failed at once, never restarted, the login prompt back.
        let bad = try #require(boot.step("badconfig"), "\(context)")
        #expect(bad.contains("status=78") && bad.contains("restarts=0"), "\(bad)")
        #expect(bad.contains("glance=failed") && bad.contains("getty=active"), "\(bad)")
        print("device: boot test took \(seconds) s (\(boot.step("end") ?? "")); \(fallback)")
    }
}

/// What the device boot test needs and what it left.
struct DeviceBoot {
    let log: String
    let folder: String

    static let packageFolder = VMPaths.root + "/.build/deb"

    /// Why the image cannot be built here, if it cannot (the VM suite's own conditions aside).
    static let rootProblem: String? =
        getuid() == 0 ? nil : "needs root: the image is built with debootstrap and chroot (CI runs as root)"

    /// The skip reason (a plain value: Swift 6.0 crashes on string interpolation in a trait).
    static let skipped = "device boot test skipped: " + (rootProblem ?? "")

    /// The package to boot: $GLANCE_DEB (what `make test` just built), else the newest x86-64 one
    /// tools/build-deb.sh left in .build/deb (a run of `swift test` alone: say which; make test
    /// removes them before it builds, so a failed build leaves none, never a stale one).
    static func package() -> String? {
        if let given = ProcessInfo.processInfo.environment["GLANCE_DEB"], !given.isEmpty {
            return FileManager.default.fileExists(atPath: given) ? given : nil
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: packageFolder)) ?? []
        return names.filter { $0.hasSuffix("_amd64.deb") }.map { packageFolder + "/" + $0 }.max {
            let a = (try? FileManager.default.attributesOfItem(atPath: $0)[.modificationDate] as? Date) ?? .distantPast
            let b = (try? FileManager.default.attributesOfItem(atPath: $1)[.modificationDate] as? Date) ?? .distantPast
            return a < b
        }
    }

    /// The guest's "STEP NAME ..." line, without "STEP NAME ".
    func step(_ name: String) -> String? {
        log.split(separator: "\n").first { $0.hasPrefix("STEP \(name) ") }.map { String($0.dropFirst(6 + name.count)) }
    }

    /// `key=value` in a step's line.
    func value(_ key: String, in line: String) -> String? {
        line.split(separator: " ").first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
    }

    /// The number just before `suffix` in `text` ("1234.5 ms after kernel start").
    static func number(before suffix: String, in text: String) -> Double? {
        guard let range = text.range(of: suffix) else { return nil }
        let head = text[..<range.lowerBound]
        let digits = head.reversed().prefix { $0.isNumber || $0 == "." || $0 == "," }
        return Double(String(digits.reversed()).replacingOccurrences(of: ",", with: ""))
    }

    func screendump(_ name: String) -> PixelBuffer? { readPPM(folder + "/" + name + ".ppm") }

    /// A file the host's actions left in the results ("" when there is none).
    func file(_ name: String) -> String { (try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)) ?? "" }

    /// The test's configuration: no time in the ring screen's header (the picture would depend
    /// on the minute), no dimming or blanking (nor would it on how long the steps take), glance
    /// serve on every address (qemu forwards a host port to it), a gauge of the metric pi sets
    /// (tools/vm/device-e2e/driver.sh), glance mqtt on the guest's own broker, the folder
    /// glance-import-watch watches (a Syncthing's for a band's Gadgetbridge export), and a window of
    /// the schedule that turns the panel off from `boundary` (minutes after midnight) for half an
    /// hour.
    static func config(boundary: Int) -> String {
        """
        {"clock": {"format": "off"}, "serve": {"listen": "0.0.0.0:8127"}, "web": {"listen": "0.0.0.0:8128"},
         "screens": ["rings", "gauges", "progress", "family"],
         "idle": {"dimAfter": null, "blankAfter": null},
         "mqtt": {"broker": "mqtt://127.0.0.1:1883"}, "import": {"watch": "/srv/gadgetbridge"},
         "schedule": [{"from": "\(clockTime(boundary))", "to": "\(clockTime(boundary + 30))", "brightness": 0}],
         "gauges": [{"style": "circular", "title": "Shed", "unit": "°C", "min": -10, "max": 40,
                     "source": {"metric": "shed", "staleAfter": null}}]}
        """
    }

    /// `HH:MM` of minutes after midnight.
    static func clockTime(_ minutes: Int) -> String { String(format: "%02d:%02d", minutes / 60, minutes % 60) }

    /// The schedule's boundary for a boot that starts at `minute` (UTC, the guest's clock):
    /// six hours away on the same day, later where its half-hour window fits in the day, else
    /// earlier, so the window is never in force by the real clock while the test runs (the
    /// guest sets its clock forward or back to just before it).
    static func boundary(from minute: Int) -> Int { minute + 390 < 1440 ? minute + 360 : minute - 360 }

    /// The UTC minute of the day now.
    static func minuteNow() -> Int {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        return Int(parts.tm_hour) * 60 + Int(parts.tm_min)
    }

    /// The libraries `glance run` must not have mapped: the network's and the import's, which
    /// glance mqtt, glance serve and glance import use.
    static let foreignLibraries = ["libmosquitto", "libmicrohttpd", "libqrencode", "libxml2", "libarchive"]

    /// The most pixels a dark monitor has lit: qemu draws "Display output is not active." on
    /// the monitor of an output that is off (a few hundred pixels of text), else it is black.
    static let darkLit = 1500

    /// A number after `key=` in a step's line, as seconds.
    func seconds(_ key: String, in line: String) -> Double? { value(key, in: line).flatMap(Double.init) }

    /// The journal's lines in a step written with `journalctl -o short-unix` and joined by "|":
    /// each line's time (seconds since the epoch) and message.
    static func journal(_ line: String) -> [(t: Double, message: String)] {
        line.split(separator: "|").compactMap { entry in
            let words = entry.split(separator: " ", maxSplits: 3)
            guard words.count == 4, let t = Double(words[0]) else { return nil }
            return (t, String(words[3]))
        }
    }

    /// What pi sets in the guest (driver.sh: glance metric set shed 21.5).
    static let guestMetric = "21.5"

    /// Today's figures the host posts to glance serve (POST /v1/days), as `glance log` options.
    static let posted: [(String, Int)] = [("move", 480), ("exercise", 33), ("stand", 11)]

    /// What the Health Connect push below gives today, by hand, as a readings file of Health
    /// Connect's feed: 210.5 + 150 kcal of active calories, one 30-minute walk, steps in the
    /// hours 09, 11 and 14 (UTC, the guest's zone): stand hours.
    static func healthConnectReadings(_ day: String) -> String {
        """
        {"format": "glance-readings", "version": 1, "source": "Health Connect", "readings": [
          {"start": "\(day)T09:00:00Z", "feed": "health-connect", "active_energy": 360.5, "exercise_minutes": 30, "stand_hours": 1},
          {"start": "\(day)T11:00:00Z", "feed": "health-connect", "stand_hours": 1},
          {"start": "\(day)T14:00:00Z", "feed": "health-connect", "stand_hours": 1}]}
        """
    }

    /// A Mi Band's day in Gadgetbridge's export (UTC, the guest's zone): 16:00–16:39 at 120
    /// steps a minute (40 brisk minutes: Exercise 40, more than the phone's 30, so the band's
    /// feed counts for it), 17:10 30 steps (Stand 2, fewer than the phone's 3: the phone's
    /// counts); no energy, so Move stays the phone's.
    static func gadgetbridgeRows(_ day: String) -> [String] {
        let parts = day.split(separator: "-").compactMap { Int($0) }
        var date = tm()
        date.tm_year = Int32(parts[0] - 1900)
        date.tm_mon = Int32(parts[1] - 1)
        date.tm_mday = Int32(parts[2])
        let midnight = Int64(timegm(&date))
        func minute(_ h: Int, _ m: Int, steps: Int) -> String { "(\(midnight + Int64(h * 3600 + m * 60)), 1, 1, 10, \(steps), 1, -1)" }
        let rows = (0..<40).map { minute(16, $0, steps: 120) } + [minute(17, 10, steps: 30)]
        return [
            GadgetbridgeSchema.device, GadgetbridgeSchema.userAttributes, GadgetbridgeSchema.miBand,
            "INSERT INTO DEVICE VALUES (1, 'Mi Band 6', 'Huami', 'AA:BB:CC:00:00:01', 0, 'MIBAND6', NULL, NULL, NULL);",
            "INSERT INTO MI_BAND_ACTIVITY_SAMPLE VALUES " + rows.joined(separator: ", ") + ";",
        ]
    }

    /// HC Webhook's payload (mcnaveen/health-connect-webhook) with records of `day`.
    static func healthConnectBody(_ day: String) -> String {
        func at(_ time: String) -> String { "\"\(day)T\(time):00Z\"" }
        return """
            {"timestamp": \(at("15:00")), "app_version": "1.4.0",
             "steps": [{"count": 1200, "start_time": \(at("09:10")), "end_time": \(at("09:40"))},
                       {"count": 900, "start_time": \(at("11:05")), "end_time": \(at("11:35"))},
                       {"count": 600, "start_time": \(at("14:00")), "end_time": \(at("14:30"))}],
             "active_calories": [{"calories": 210.5, "start_time": \(at("09:00")), "end_time": \(at("10:00"))},
                                 {"calories": 150, "start_time": \(at("11:00")), "end_time": \(at("12:00"))}],
             "exercise": [{"type": "walking", "title": "Walk", "start_time": \(at("09:10")), "end_time": \(at("09:40")),
                           "duration_seconds": 1800}],
             "heart_rate": [{"bpm": 96, "time": \(at("09:20"))}]}
            """
    }

    /// Adds Ann (person 2, sky blue) to `store` with the real `glance people add`, her token
    /// written in `folder`/people (beside a token file of the host's own); her token.
    static func addAnn(store: String, folder: String) throws -> String {
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let config = folder + "/config.json"
        try #"{"serve": {"tokenFile": "\#(folder)/serve.token"}}"#.write(toFile: config, atomically: true, encoding: .utf8)
        let (status, out) = try runTool(
            VMPaths.glance, ["people", "add", "Ann", "--colour", "#4fc3f7", "--db", store, "--config", config])
        guard status == 0, out.contains("(id 2,") else { throw VMTestError("glance people add Ann (\(status)): \(out)") }
        let token = try String(contentsOfFile: folder + "/people/2.token", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard token.count >= 16 else { throw VMTestError("no token in \(folder)/people/2.token") }
        return token
    }

    /// Ann's phone's push today (Health Auto Export's JSON, UTC): 3 × 110 kcal, 42 exercise
    /// minutes, 7 hours stood.
    static func annPush(_ day: String) -> String {
        func at(_ hour: Int) -> String { "\"\(day) \(hour < 10 ? "0" : "")\(hour):00:00 +0000\"" }
        let energy = [8, 9, 10].map { "{\"qty\": 110, \"date\": \(at($0)), \"source\": \"Ann's Apple Watch\"}" }
        let stand = (8..<15).map { "{\"qty\": 1, \"date\": \(at($0))}" }
        return """
            {"data": {"metrics": [
            {"name": "active_energy", "units": "kcal", "data": [\(energy.joined(separator: ", "))]},
            {"name": "apple_exercise_time", "units": "min", "data": [{"qty": 42, "date": \(at(9))}]},
            {"name": "apple_stand_hour", "units": "count", "data": [\(stand.joined(separator: ", "))]}
            ], "workouts": []}}
            """
    }

    /// Ann's push's figures by hand, as samples of Health Auto Export's feed.
    static func annReadings(_ day: String) -> String {
        func at(_ hour: Int) -> String { "\"\(day)T\(hour < 10 ? "0" : "")\(hour):00:00Z\"" }
        var readings = [8, 9, 10].map { hour in
            "{\"start\": \(at(hour)), \"feed\": \"health-auto-export\", \"active_energy\": 110"
                + (hour == 9 ? ", \"exercise_minutes\": 42" : "") + ", \"stand_hours\": 1}"
        }
        readings += (11..<15).map { "{\"start\": \(at($0)), \"feed\": \"health-auto-export\", \"stand_hours\": 1}" }
        return """
            {"format": "glance-readings", "version": 1, "source": "Health Auto Export", "readings": [
            \(readings.joined(separator: ",\n"))
            ]}
            """
    }

    /// A port on 127.0.0.1 that nothing listens on now, for qemu to forward.
    /// The name the page's save gives the panel.
    static let webName = "Kitchen"

    static func freePort(avoiding taken: Int? = nil) -> Int? {
        // Below the ephemeral range (32768 up), where the many loopback connections of the serve
        // tests beside it take their ports, and below the test brokers' 20000-32000: one that
        // binds now is very likely still free when qemu binds it.
        for _ in 0..<50 {
            let port = Int.random(in: 10000...19999)
            if port == taken { continue }
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            if bound { return port }
        }
        return nil
    }

    /// vmctl's result.json: the host actions' times and when screendumps became equal.
    struct Results {
        let json: [String: Any]
        func host(_ name: String) -> (rc: Int, end: Double)? {
            let runs = json["host"] as? [[String: Any]] ?? []
            guard let run = runs.first(where: { $0["name"] as? String == name }),
                let rc = run["rc"] as? Int, let end = run["end"] as? Double
            else { return nil }
            return (rc, end)
        }
        func match(_ name: String) -> (equal: Bool, t: Double?)? {
            let matches = json["matches"] as? [[String: Any]] ?? []
            guard let match = matches.first(where: { $0["name"] as? String == name }) else { return nil }
            return (match["equal"] as? Bool ?? false, match["t"] as? Double)
        }
    }

    static func results(_ path: String) -> Results {
        let data = FileManager.default.contents(atPath: path) ?? Data()
        return Results(json: (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
    }

    /// What the guest's driver logs for today as root while the app runs (driver.sh).
    static let guestLog = ["--move", "300"]

    /// Today's date on this machine, as the guest (same clock, UTC) sees it.
    static func today() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        return String(format: "%04d-%02d-%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
    }

    /// The day before `date` (YYYY-MM-DD).
    static func dayBefore(_ date: String) -> String {
        let parts = date.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return date }
        var t = tm()
        t.tm_year = Int32(parts[0] - 1900)
        t.tm_mon = Int32(parts[1] - 1)
        t.tm_mday = Int32(parts[2] - 1)
        t.tm_hour = 12
        var seconds = timegm(&t)
        var out = tm()
        gmtime_r(&seconds, &out)
        return String(format: "%04d-%02d-%02d", Int(out.tm_year) + 1900, Int(out.tm_mon) + 1, Int(out.tm_mday))
    }

    /// `glance render` of what `glance run` shows with `store` on the guest's day (no store: a
    /// gauge screen, its value among `extra`).
    static func render(store: String?, date: String, name: String, folder: String, extra: [String] = []) throws
        -> PixelBuffer
    {
        let path = folder + "/render-\(name).png"
        var arguments = ["render", "--size", "480x480", "--locale", "en", "--clock", "off", "--output", path] + extra
        if let store { arguments += ["--db", store] }
        if !date.isEmpty { arguments += ["--today", date] }
        let (status, output) = try runTool(VMPaths.glance, arguments)
        guard status == 0 else { throw VMTestError("glance render failed (\(status)): \(output)") }
        return try PNGFile.read(path)
    }
}
