@testable import DeviceLogic
import Activity
import Clocks
import Configuration
import Controls
import Foundation
import ImageFile
import Platform
import Raster
import Screens
import Store
import TestSupport
import Testing

@testable import Runtime

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 25, item 3: a value goes stale on time whatever feeds it — a metric in the store, an
/// MQTT topic — with nothing else on the screen to force a redraw; its age label then steps on
/// (tens of seconds, minutes, hours) and the loop wakes for nothing in between.
@Suite("Staleness drawn on time: the session's deadlines", .timeLimit(.minutes(10)))
struct StalenessTests {
    static let day = CalendarDay(year: 2026, month: 11, day: 30)!
    static let size = Size(width: 96, height: 96)

    /// The gauges' wall clock: the real one until frozen, then moved by the test with its
    /// made-up loop time.
    final class Wall: @unchecked Sendable {
        var fixed: Double?
        func now() -> Double { fixed ?? wallClockNow() }
    }

    static func gauge(_ source: GaugeSourceSetting, staleAfter: Double) -> GaugeSetting {
        var g = GaugeSetting(style: .circular, title: "T", unit: "", minimum: 0, maximum: 100, tint: [], source: source)
        g.givenStaleAfter = .set(staleAfter)
        return g
    }

    /// The gauge screen alone (no fonts: the gauge's arc and value colour show the staleness),
    /// never dimmed, on `data`.
    static func session(_ sink: RecordingSink, data: StoreData, now: Duration) throws -> Assembly {
        var settings = Settings()
        settings.screens = [.gauges]
        settings.idle = IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 1)
        settings.run.intro = false
        return try Assembly.make(
            settings, sink: sink,
            parts: .init(text: .some(nil), clock: FixedClock(day, time: TimeOfDay(hour: 12, minute: 0)), data: data, now: now),
            log: { _ in }
        ).get()
    }

    /// What the loop does when nothing happens (EventLoop: it sleeps until the deadline the turn
    /// gave, then turns again), on a made-up clock that the gauges' wall clock follows, until
    /// `end`: each wake-up's time and the age label drawn then (nil: fresh), in order.
    static func idle(
        _ session: Session, data: StoreData, from start: Duration, wall: Wall, until end: Duration
    ) throws -> [(at: Duration, label: String?, drew: Bool)] {
        let wall0 = try #require(wall.fixed)
        let strings = AppLocale.english.strings
        var wakes: [(at: Duration, label: String?, drew: Bool)] = []
        var next = try session.turn(now: start, ready: [], signals: [])
        while case .wait(let until?) = next, until <= end {
            let frames = session.framesDrawn
            wall.fixed = wall0 + (until - start).inSeconds
            next = try session.turn(now: until, ready: [], signals: [])
            let age = data.gauges(now: until)[0].age
            wakes.append((until, age.map { strings.age(seconds: $0) }, session.framesDrawn > frames))
        }
        return wakes
    }

    /// The sum of a frame's channels: a dimmed gauge has less.
    static func light(_ frame: PixelBuffer) -> Int {
        var sum = 0
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let c = frame.color(x: x, y: y)
                sum += Int(c.red) + Int(c.green) + Int(c.blue)
            }
        }
        return sum
    }

    /// The age labels a stale value shows as it ages, each once, up to `seconds` old.
    static func labels(through seconds: Int) -> [String] {
        var labels: [String] = []
        for s in 0...seconds {
            let label = AppLocale.english.strings.age(seconds: Double(s))
            if labels.last != label { labels.append(label) }
        }
        return labels
    }

    /// Checks the idle wake-ups of a value that came at `came` (wall seconds) and goes stale
    /// after `staleAfter`: the first wake-up is the moment it goes stale (a millisecond or two
    /// after), each draws a frame, each shows the next age label, none is for nothing.
    static func check(
        _ wakes: [(at: Duration, label: String?, drew: Bool)], came: Double, staleAfter: Double, start: Duration, wall0: Double,
        through seconds: Int
    ) throws {
        let first = try #require(wakes.first, "no wake-up at all: the value never went stale")
        let staleAt = (first.at - start).inSeconds + wall0 - came
        #expect(staleAt > staleAfter && staleAt < staleAfter + 0.01, "went stale \(staleAt) s after it came (staleAfter \(staleAfter))")
        let idleWakes = wakes.filter { !$0.drew }.map { $0.at }
        #expect(idleWakes.isEmpty, "every wake-up drew; these did not: \(idleWakes)")
        // From the first stale moment: "· 0 s", "· 10 s" … "· 50 s", "· 1 min" … one wake-up each.
        let shown = wakes.map { $0.label ?? "fresh" }
        #expect(shown == labels(through: seconds), "\(shown)")
        print("\(wakes.count) wake-ups in \(seconds) idle seconds after going stale")
    }

    @Test("a metric-only gauge screen goes stale on time and its age label steps on, one wake-up per change, over two idle hours")
    func metricGoesStale() throws {
        let folder = ScratchFolder("stale-metric")
        let db = folder.path + "/glance.db"
        try Store(path: db).setMetric("cpu", value: 40)
        let came = StoredTime.seconds(try #require(try Store(path: db).metrics().first?.updated))
        let wall = Wall()
        wall.fixed = wallClockNow()
        let data = try StoreData(
            path: db, gauges: [Self.gauge(.metric("cpu"), staleAfter: 3)], wallClock: { wall.now() }, log: { _ in })
        let sink = RecordingSink(size: Self.size)
        let start = Duration.seconds(1000)
        let app = try Self.session(sink, data: data, now: start)
        let wall0 = try #require(wall.fixed)
        let span = 2 * 3600
        let wakes = try Self.idle(app.session, data: data, from: start, wall: wall, until: start + .seconds(span))
        let end = wall0 + Double(span) - came
        try Self.check(wakes, came: came, staleAfter: 3, start: start, wall0: wall0, through: Int((end - 0.01).rounded(.down)))
        #expect(sink.frames.count == wakes.count + 1)
        #expect(
            Self.light(sink.frames[1].picture) < Self.light(sink.frames[0].picture),
            "the stale value is drawn dimmed")
        // A new value: fresh again at once, drawn (the wall clock real again: the store's time is).
        wall.fixed = nil
        try Store(path: db).setMetric("cpu", value: 41)
        let ready = try waitForReadable(data.descriptors, timeout: .seconds(30))
        let frames = sink.frames.count
        _ = try app.session.turn(now: start + .seconds(span + 1), ready: ready, signals: [])
        let renewed = data.gauges(now: .zero)[0]
        #expect(renewed.age == nil && renewed.value == 41)
        #expect(sink.frames.count == frames + 1)
    }

    /// When the metric glance mqtt writes a topic into came (seconds since 1970), once it has.
    static func bridged(_ db: String, topic: String) -> Double? {
        for _ in 0..<1200 {
            if FileManager.default.fileExists(atPath: db),
                let metric = try? Store(path: db, access: .read).metric(named: MQTTTopic.metricName(topic: topic, field: nil))
            {
                return StoredTime.seconds(metric.updated)
            }
            usleep(50_000)
        }
        return nil
    }

    @Test("an MQTT-only gauge screen (a real broker, glance mqtt writing its topic) goes stale on time, one wake-up per age label change")
    func mqttGoesStale() throws {
        guard Broker.available else {
            Issue.record("mosquitto is not installed (make deps installs it: tools/debian-packages.txt)")
            return
        }
        let broker = try Broker()
        let folder = ScratchFolder("stale-mqtt")
        let config = folder.path + "/config.json"
        try """
        {"gauges": [{"style": "circular", "title": "T", "source": {"mqtt": "t", "staleAfter": 5}}],
         "mqtt": {"broker": "mqtt://127.0.0.1:\(broker.port)"}}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        // The panel's side never speaks MQTT: the bridge writes the topic's numbers into the store.
        let bridge = try GaugeFeedTests.bridge(config: config, folder: folder.path)
        defer { GaugeFeedTests.stop(bridge) }
        try broker.publish("t", "42", retain: true)
        let db = folder.path + "/glance.db"
        let came = try #require(Self.bridged(db, topic: "t"), "glance mqtt never wrote the topic's value")
        let wall = Wall()
        wall.fixed = wallClockNow()
        let data = try StoreData(
            path: db, gauges: [Self.gauge(.mqtt(topic: "t", field: nil, scale: 1, offset: 0), staleAfter: 5)],
            wallClock: { wall.now() }, log: { _ in })
        #expect(data.gauges(now: .zero)[0].value == 42)
        let sink = RecordingSink(size: Self.size)
        let start = Duration.seconds(1000)
        let app = try Self.session(sink, data: data, now: start)
        let wall0 = try #require(wall.fixed)
        let span = 1500
        let wakes = try Self.idle(app.session, data: data, from: start, wall: wall, until: start + .seconds(span))
        let end = wall0 + Double(span) - came
        try Self.check(wakes, came: came, staleAfter: 5, start: start, wall0: wall0, through: Int((end - 0.01).rounded(.down)))
        let fresh = try #require(sink.frames.first?.picture), stale = try #require(sink.frames.last?.picture)
        #expect(Self.light(stale) < Self.light(fresh), "the stale value is drawn dimmed")
    }
}

/// The same through `glance watch` (a real process, a real store, a real broker): its pictures
/// go stale on time, the age label steps on, and between its steps the process sleeps.
@Suite("Staleness drawn on time: glance watch's pictures", .timeLimit(.minutes(10)))
struct WatchStalenessTests {
    /// `glance watch --screen gauges` with `gauge` (a JSON object) on its store and broker: each
    /// line it prints with when it came.
    final class Watch {
        let process = OwnedProcess()
        let png: String
        let config: String
        private let out: String
        private var seen = 0
        private(set) var lines: [(at: Double, text: String)] = []
        /// The lines, without their times.
        var said: [String] { lines.map { $0.text } }

        init(_ folder: ScratchFolder, gauge: String, mqtt: String = "") throws {
            config = folder.path + "/config.json"
            try "{\"screens\": [\"gauges\"], \"gauges\": [\(gauge)]\(mqtt)}".write(toFile: config, atomically: true, encoding: .utf8)
            png = folder.path + "/panel.png"
            out = folder.path + "/watch.out"
            let (program, arguments) = GlanceExecutable.command([
                "watch", "--config", config, "--db", folder.path + "/glance.db", "--screen", "gauges", "--size", "160x120",
                "--render-to", png,
            ])
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
            #expect(FileManager.default.createFile(atPath: out, contents: nil), "a file for the test")
            process.standardOutput = FileHandle(forWritingAtPath: out)
            process.standardError = FileHandle(forWritingAtPath: folder.path + "/watch.err")
            try process.run()
        }

        deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        /// Waits (looking every 10 ms) until `count` lines came or `seconds` passed.
        @discardableResult
        func wait(lines count: Int, seconds: Double = 60) -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while lines.count < count && Date() < end {
                let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
                let all = text.split(separator: "\n", omittingEmptySubsequences: true)
                if all.count > seen, text.hasSuffix("\n") {
                    let now = Date().timeIntervalSince1970
                    for line in all[seen...] { lines.append((now, String(line))) }
                    seen = all.count
                } else {
                    usleep(10_000)
                }
            }
            return lines.count >= count
        }

        func picture() throws -> PixelBuffer { try PNGFile.read(png) }

        func end() -> Int32 {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    static let staleAfter = 4.0

    /// Follows a watch whose value came at `came` (seconds since 1970) with `staleAfter` 4:
    /// the stale picture comes no earlier (and is dimmer), the age label's next step ("· 10 s")
    /// comes as another picture, and in the idle seconds between the label's steps the process
    /// hardly wakes.
    static func followStaleness(_ watch: Watch, came: Double, fresh: PixelBuffer, freshLines: Int) throws {
        #expect(watch.wait(lines: freshLines + 1), "no picture after the value went stale: \(watch.said)")
        let stale = try #require(watch.lines.last)
        let staleAfter = stale.at - came
        print("glance watch: stale picture \(staleAfter) s after the value came (staleAfter \(Self.staleAfter))")
        #expect(staleAfter >= Self.staleAfter - 0.02, "drawn stale \(staleAfter) s after the value came, before its staleAfter")
        #expect(stale.text.contains("(gauge values)"), "\(stale.text)")
        let dimmed = try watch.picture()
        #expect(StalenessTests.light(dimmed) < StalenessTests.light(fresh), "the stale picture is dimmer")
        // "· 0 s" until ten seconds old, then "· 10 s": a picture of its own.
        #expect(watch.wait(lines: freshLines + 2), "the age label never stepped on: \(watch.said)")
        let step = try #require(watch.lines.last)
        print("glance watch: age label's step \(step.at - came) s after the value came (due at 10 s)")
        #expect(step.at - came >= 9.98)
        // Idle until the next step (20 s): count the times the loop slept.
        usleep(1_000_000)
        let before = try #require(GaugeFeedTests.sleeps(watch.process.processIdentifier))
        usleep(7_000_000)
        let after = try #require(GaugeFeedTests.sleeps(watch.process.processIdentifier))
        print("glance watch, a stale value between its age label's steps: \(after - before) wake-ups in 7 s")
        #expect(after - before <= 2, "woke \(after - before) times in 7 idle seconds")
        #expect(watch.lines.count == freshLines + 2, "nothing drawn between the label's steps: \(watch.said)")
        #expect(watch.end() == 0)
    }

    /// Whether two pictures show the same (alpha aside).
    static func same(_ a: PixelBuffer, _ b: PixelBuffer) -> Bool {
        a.width == b.width && a.height == b.height
            && (0..<a.height).allSatisfy { y in (0..<a.width).allSatisfy { a.row32(y)[$0] & 0xFF_FFFF == b.row32(y)[$0] & 0xFF_FFFF } }
    }

    static func render(_ value: String, title: String, in folder: ScratchFolder) throws -> PixelBuffer {
        let path = folder.path + "/render-\(value).png"
        let r = try runGlance([
            "render", "--screen", "gauge", "--style", "circular", "--title", title, "--value", value, "--size", "160x120",
            "--output", path,
        ])
        try #require(r.status == 0, "glance render: \(r.output)")
        return try PNGFile.read(path)
    }

    @Test("a metric-only gauge screen: the picture goes stale at staleAfter, its age label steps on, idle in between")
    func metric() throws {
        let folder = ScratchFolder("watch-stale-metric")
        let watch = try Watch(folder, gauge: #"{"style": "circular", "title": "CPU", "source": {"metric": "cpu", "staleAfter": 4}}"#)
        #expect(watch.wait(lines: 1), "glance watch drew nothing")
        // Set while it watches (as glance metric set or PUT /v1/metrics would).
        let store = try Store(path: folder.path + "/glance.db")
        try store.setMetric("cpu", value: 40)
        let came = StoredTime.seconds(try #require(try store.metrics().first?.updated))
        #expect(watch.wait(lines: 2), "the value was never drawn: \(watch.said)")
        let fresh = try watch.picture()
        #expect(Self.same(fresh, try Self.render("40", title: "CPU", in: folder)), "the value drawn as glance render draws it")
        try Self.followStaleness(watch, came: came, fresh: fresh, freshLines: 2)
    }

    @Test("an MQTT-only gauge screen (a real broker, glance mqtt writing its topic): the picture goes stale at staleAfter, its age label steps on, idle in between")
    func mqtt() throws {
        guard Broker.available else {
            Issue.record("mosquitto is not installed (make deps installs it: tools/debian-packages.txt)")
            return
        }
        let broker = try Broker()
        let folder = ScratchFolder("watch-stale-mqtt")
        let watch = try Watch(
            folder, gauge: #"{"style": "circular", "title": "Outside", "source": {"mqtt": "home/outside", "staleAfter": 4}}"#,
            mqtt: ", \"mqtt\": {\"broker\": \"mqtt://127.0.0.1:\(broker.port)\", \"keepAlive\": 60}")
        #expect(watch.wait(lines: 1), "glance watch drew nothing")
        // The panel's side never speaks MQTT: glance mqtt writes the topic's numbers into the
        // store, and the value is as old as that write.
        let bridge = try GaugeFeedTests.bridge(config: watch.config, folder: folder.path)
        defer { GaugeFeedTests.stop(bridge) }
        try broker.publish("home/outside", "21.5", retain: true)
        #expect(watch.wait(lines: 2), "the value was never drawn: \(watch.said)")
        let came = try #require(StalenessTests.bridged(folder.path + "/glance.db", topic: "home/outside"))
        let fresh = try watch.picture()
        #expect(Self.same(fresh, try Self.render("21.5", title: "Outside", in: folder)), "the value drawn as glance render draws it")
        try Self.followStaleness(watch, came: came, fresh: fresh, freshLines: 2)
    }
}
