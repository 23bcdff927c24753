@testable import DeviceLogic
import Activity
import Configuration
import ConfigurationFile
import Controls
import Foundation
import Platform
import Raster
import Screens
import Store
import TestSupport
import Testing

@testable import Runtime

/// SIGHUP against a recording sink: the configuration file read again and applied in place, a
/// real store under it; an invalid file changes nothing.
@Suite("Reload: the configuration again, in place", .timeLimit(.minutes(10)))
struct ReloadTests {
    static let t0 = Duration.seconds(500)
    static let day = CalendarDay(year: 2026, month: 11, day: 29)!

    /// A session as `glance run` makes it, from a configuration file and a store in a scratch
    /// folder (the rings alone and the labels without fonts: nothing here needs them).
    struct Rig {
        let folder = StoreDataTests.Folder()
        var config: String { folder.path + "/config.json" }
        var db: String { folder.path + "/glance.db" }
        let sink = RecordingSink(size: Size(width: 120, height: 80))
        var session: Session!
        var controller: PanelController!
        var reloader: Reloader!
        let log: Log = Log()

        final class Log {
            var lines: [String] = []
        }

        init(_ text: String) throws {
            folder.write("config.json", text)
            let store = try Store(path: db)
            try store.setMetric("cpu", value: 40, minimum: .set(0), maximum: .set(100))
            try store.setMetric("load", value: 2, minimum: .set(0), maximum: .set(8))
            var layer = Layer()
            try layer.set(option: "--db", db)
            try layer.set(option: "--today", ReloadTests.day.description)
            try layer.set(option: "--time", "10:09")
            let settings = try ConfigurationFile.settings(config, commandLine: layer, console: .standard).get()
            let log = self.log
            // The app as glance run assembles it (its store, its reloader), on a recording sink.
            var parts = Assembly.Parts(text: .some(nil), now: ReloadTests.t0)
            parts.configurationPath = config
            parts.commandLine = layer
            let app = try Assembly.make(settings, sink: sink, parts: parts, log: { log.lines.append($0) }).get()
            controller = app.controller
            session = app.session
            reloader = app.reloader
        }

        func write(_ text: String) { folder.write("config.json", text) }

        @discardableResult
        func turn(_ seconds: Double, signals: [Int32] = []) throws -> Session.Next {
            try session.turn(now: ReloadTests.t0 + .milliseconds(Int64(seconds * 1000)), ready: [], signals: signals)
        }
    }

    static let oneGauge = #"""
        {"screens": ["gauges", "rings"], "idle": {"dimAfter": 30, "blankAfter": null},
         "gauges": [{"style": "circular", "title": "CPU", "source": {"metric": "cpu"}}]}
        """#
    static let twoGauges = #"""
        {"screens": ["gauges", "rings", "clock"], "idle": {"dimAfter": 90, "blankAfter": null},
         "gauges": [{"style": "circular", "title": "CPU", "source": {"metric": "cpu"}},
                    {"style": "linear", "title": "Load", "source": {"metric": "load"}}],
         "display": {"rotate": 180}, "clock": {"format": "12h"}}
        """#

    @Test("a new gauge, idle time, rotation and screen list: applied in place; the screen shown and the day stay")
    func applied() throws {
        let rig = try Rig(Self.oneGauge)
        try rig.turn(0)
        #expect(rig.controller.navigation.screen == .gauges && rig.sink.frames.count == 1)
        let before = try #require(rig.sink.lastFrame)
        rig.write(Self.twoGauges)
        try rig.turn(1, signals: [SIGHUP])
        #expect(rig.sink.frames.count == 2, "no new frame after the reload")
        #expect(rig.controller.navigation.screen == .gauges)
        #expect(rig.controller.device.screens == [.gauges, .rings, .clock])
        #expect(rig.session.composer.rotation == .half)
        #expect(rig.controller.device.maker.clockFormat == .twelveHour)
        // The new idle time: awake at 31 s (the old file dimmed at 30).
        _ = rig.controller.handle(ready: [], now: Self.t0 + .seconds(31))
        #expect(rig.controller.device.idle == .awake)
        let after = try #require(rig.sink.lastFrame)
        #expect(!samePixels(before, after), "the picture did not change")
        #expect(rig.log.lines.contains { $0.hasPrefix("configuration reloaded: ") && $0.contains("data") && $0.contains("rotation 180") },
                "\(rig.log.lines)")
        // The two gauges on the panel now: the gauge screen's picture equals a fresh session's with the new file.
        let fresh = try Rig(Self.twoGauges)
        try fresh.turn(0)
        #expect(samePixels(try #require(fresh.sink.lastFrame), after), "the reloaded picture is not the new configuration's")
    }

    @Test("an invalid file: every problem logged with its path, the running configuration stays, nothing redrawn")
    func invalid() throws {
        let rig = try Rig(Self.oneGauge)
        try rig.turn(0)
        rig.write(#"{"screens": ["rings", "dials"], "idle": {"dimAfter": -1}}"#)
        try rig.turn(1, signals: [SIGHUP])
        #expect(rig.sink.frames.count == 1)
        #expect(rig.controller.device.screens == [.gauges, .rings])
        let lines = rig.log.lines
        #expect(lines.contains { $0.contains("2 problems in the configuration") }, "\(lines)")
        #expect(lines.contains { $0.contains("$.screens[1]") } && lines.contains { $0.contains("$.idle.dimAfter") }, "\(lines)")
        #expect(lines.last == "keeping the running configuration", "\(lines)")
        // Not JSON at all, and a file gone: the same.
        rig.write("{")
        try rig.turn(2, signals: [SIGHUP])
        try? FileManager.default.removeItem(atPath: rig.config)
        try rig.turn(3, signals: [SIGHUP])
        #expect(rig.log.lines.filter { $0 == "keeping the running configuration" }.count == 3)
        #expect(rig.log.lines.contains { $0.contains("cannot read the configuration") }, "\(rig.log.lines)")
        #expect(rig.sink.frames.count == 1 && rig.controller.device.screens == [.gauges, .rings])
        // The old idle time goes on: dimmed at 30 s.
        #expect(rig.controller.handle(ready: [], now: Self.t0 + .seconds(30)) && rig.controller.device.idle == .dimmed(0.3))
    }

    /// Issue 36, 6: an older fraction of full is read, and the reload logs where and what to write.
    @Test("a file with the older brightness fraction: applied, its note logged with the file and the path")
    func olderBrightnessNoted() throws {
        let rig = try Rig("{}")
        try rig.turn(0)
        rig.write(#"{"display": {"brightness": 0.8}}"#)
        try rig.turn(1, signals: [SIGHUP])
        #expect(rig.controller.device.configuredBrightness == 0.8)
        let lines = rig.log.lines
        #expect(
            lines.contains("\(rig.config): $.display.brightness: 0.8 is read as the older fraction of full: 80 %; write 80"),
            "\(lines)")
        #expect(lines.contains { $0.hasPrefix("configuration reloaded: ") }, "\(lines)")
        // Written in percent: the same level, nothing noted.
        let before = lines.count
        rig.write(#"{"display": {"brightness": 80}}"#)
        try rig.turn(2, signals: [SIGHUP])
        #expect(rig.controller.device.configuredBrightness == 0.8)
        #expect(!rig.log.lines.dropFirst(before).contains { $0.contains("older fraction") }, "\(rig.log.lines)")
    }

    @Test("a day browsed stays browsed; a screen no longer configured gives way to the first one")
    func navigationKept() throws {
        let rig = try Rig(#"{"screens": ["rings", "clock"]}"#)
        try rig.turn(0)
        #expect(rig.controller.perform(.action(.previousDay), now: Self.t0))
        // Past the rings' pages (where they are in pages) to the clock.
        for _ in 0..<rig.controller.device.pageCount(of: .rings, now: Self.t0) {
            #expect(rig.controller.perform(.action(.nextScreen), now: Self.t0))
        }
        #expect(rig.controller.navigation.screen == .clock)
        rig.write(#"{"screens": ["rings"], "name": "Ann"}"#)
        try rig.turn(1, signals: [SIGHUP])
        #expect(rig.controller.navigation.screen == .rings)
        #expect(rig.controller.navigation.day == Self.day.adding(days: -1))
        #expect(rig.controller.device.maker.name == "Ann")
    }
}
