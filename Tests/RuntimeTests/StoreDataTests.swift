@testable import DeviceLogic
import Raster
import Activity
import Configuration
import Controls
import Foundation
import Platform
import Raster
import Screens
import Store
import TestSupport
import Testing
import Clocks

@testable import Runtime

@Suite("Store as the app's data: kept until it changes, files read only while shown", .timeLimit(.minutes(10)))
struct StoreDataTests {
    /// A scratch folder removed at the end (TestSupport's).
    typealias Folder = ScratchFolder

    static let day = CalendarDay(year: 2026, month: 11, day: 29)!

    @Test("a redraw without a change in the store asks it nothing; a change by another process is seen")
    func cached() throws {
        let folder = Folder("app-test")
        let db = folder.path + "/glance.db"
        let data = try StoreData(path: db, gauges: [], log: { _ in })
        #expect(data.summary(for: Self.day) == nil)
        _ = data.task()
        _ = data.summaries([Self.day.adding(days: -1), Self.day.adding(days: -2)])
        let asked = data.queries
        for _ in 0..<10 {
            _ = data.summary(for: Self.day)
            _ = data.task()
            _ = data.summaries([Self.day.adding(days: -2)])
        }
        #expect(data.queries == asked, "ten redraws, no queries")
        // Another writer (glance log, an import) changes the day.
        let other = try Store(path: db)
        try other.setSummary(ActivitySummary(standHours: 5, standHoursGoal: 12), for: Self.day)
        // The loop's turns while its descriptor is not among the readable ones (a spinner's
        // frames): the store is not looked at.
        usleep(50_000)
        for _ in 0..<5 { #expect(!data.handle(ready: [], now: monotonicNow()), "looked without its descriptor ready") }
        #expect(data.summary(for: Self.day) == nil, "the cached day until the watcher says it changed")
        var seen = false
        for _ in 0..<50 where !seen {
            seen = data.handle(ready: data.descriptors, now: monotonicNow())
            if !seen { usleep(20_000) }
        }
        #expect(seen)
        #expect(data.summary(for: Self.day)?.standHours == 5)
        #expect(data.queries == asked + 1)
    }

    @Test("Cancel asked: the task shows \"Cancelling…\" instead of the button from then until it ends")
    func cancelling() throws {
        let folder = Folder("app-test")
        let db = folder.path + "/glance.db"
        try Store(path: db).startTask("import", total: nil, description: "Importing", cancellable: true)
        let data = try StoreData(path: db, gauges: [], log: { _ in })
        let before = try #require(data.task())
        #expect(before.cancellable && !before.cancelling)
        data.cancelTask()
        let asked = try #require(data.task())
        #expect(!asked.cancellable && asked.cancelling, "\(asked)")
        let drawn = Explanation(of: ProgressScreen(content: asked, context: ScreenContext(text: nil)),
                                size: Size(width: 240, height: 240))
        #expect(drawn.shapes.allSatisfy { $0.name != "button" })
        #expect(drawn.texts.contains { $0.text == "Cancelling…" && $0.element == "progress.cancelling" })
        // Still cancelling while the task runs; gone when it ends.
        try Store(path: db).finishTask("import", state: .cancelled)
        var ended = false
        for _ in 0..<50 where !ended {
            usleep(20_000)
            _ = data.handle(ready: data.descriptors, now: monotonicNow())
            ended = data.task() == nil
        }
        #expect(ended)
    }

    @Test("a spinner through the session on the store: no query and no look at the store per frame")
    func spinnerReadsNothing() throws {
        let folder = Folder("app-test")
        let db = folder.path + "/glance.db"
        try Store(path: db).startTask("import", total: nil, description: "Importing", cancellable: true)
        let data = try StoreData(path: db, gauges: [], log: { _ in })
        var settings = Settings()
        settings.show.ringsOnly = true
        settings.screens = [.progress, .rings]
        settings.idle = IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 1)
        let sink = RecordingSink(size: Size(width: 64, height: 64), frameInterval: .milliseconds(33))
        let app = try Assembly.make(
            settings, sink: sink, parts: .init(text: .some(nil), clock: FixedClock(Self.day), data: data, now: .seconds(100)),
            log: { _ in }).get()
        #expect(app.controller.navigation.screen == .progress)
        _ = try app.session.turn(now: .seconds(100), ready: [], signals: [])
        let asked = data.queries
        for k in 1...30 { _ = try app.session.turn(now: .seconds(100) + .milliseconds(33 * k), ready: [], signals: []) }
        #expect(sink.frames.count == 31, "the spinner turns")
        #expect(data.queries == asked, "no query while the store does not change")
        // Another process ends the task: the turn with the watcher's descriptor readable sees it.
        try Store(path: db).finishTask("import", state: .done)
        var shown = ScreenKind.progress
        for k in 0..<50 where shown == .progress {
            _ = try app.session.turn(now: .seconds(200) + .milliseconds(33 * k), ready: data.descriptors, signals: [])
            shown = app.controller.navigation.screen
            if shown == .progress { usleep(20_000) }
        }
        #expect(shown == .rings, "the task's end was not seen")
    }

    @Test("a store file replaced by another asks the app to end, through the device controller")
    func replacedStoreEndsTheApp() throws {
        let folder = Folder("app-test")
        let db = folder.path + "/glance.db"
        let data = try StoreData(path: db, gauges: [], log: { _ in })
        // The controller the session runs (the store's watcher polled in its turns).
        var settings = Settings()
        settings.show.ringsOnly = true
        let controller = try Assembly.make(
            settings, sink: RecordingSink(size: Size(width: 32, height: 32)),
            parts: .init(text: .some(nil), clock: FixedClock(Self.day), data: data), log: { _ in }).get().controller
        #expect(data.endReason == nil && controller.endReason == nil)
        let restored = folder.path + "/restored.db"
        try Store(path: restored).setSummary(ActivitySummary(standHours: 5, standHoursGoal: 12), for: Self.day)
        #expect(rename(restored, db) == 0)
        for _ in 0..<50 where data.endReason == nil {
            usleep(20_000)
            _ = controller.handle(ready: controller.descriptors, now: .seconds(100))
        }
        #expect(data.endReason?.contains("the store \(db) was replaced by another file") == true)
        #expect(controller.endReason == data.endReason)
    }

    @Test("a metric gauge takes the configuration's range, else the metric's own, else 0 to 100")
    func metricRange() throws {
        let folder = Folder("app-test")
        let db = folder.path + "/glance.db"
        try Store(path: db).setMetric("cpu", value: 47, minimum: .set(20), maximum: .set(90), unit: .set("°C"))
        try Store(path: db).setMetric("load", value: 3)
        func setting(_ metric: String, _ minimum: Double?, _ maximum: Double?) -> GaugeSetting {
            GaugeSetting(
                style: .circular, title: "", unit: "", minimum: minimum, maximum: maximum, tint: Gauge.defaultTint,
                source: .metric(metric))
        }
        let data = try StoreData(
            path: db, gauges: [setting("cpu", nil, nil), setting("cpu", 30, nil), setting("load", nil, nil),
                               setting("cpu", 95, nil)], log: { _ in })
        let gauges = data.gauges(now: .seconds(1))
        #expect(gauges.map(\.minimum) == [20, 30, 0, 95] && gauges.map(\.maximum) == [90, 90, 100, 100], "\(gauges)")
        #expect(gauges[0].unit == "°C")
    }

    @Test("a gauge read from a file is read, and wakes the loop, only while the gauge screen is shown")
    func fileGauges() throws {
        let folder = Folder("app-test")
        folder.write("value", "5\n")
        let setting = GaugeSetting(
            style: .circular, title: "CPU", unit: "%", minimum: 0, maximum: 100, tint: Gauge.defaultTint,
            source: .file(path: folder.path + "/value", scale: 1, offset: 0, interval: 1))
        let data = try StoreData(path: folder.path + "/glance.db", gauges: [setting], log: { _ in })
        let t0 = Duration.seconds(1000)
        #expect(data.nextDeadline(now: t0) == nil, "not shown: no wake-ups")
        #expect(data.gauges(now: t0).first?.value == nil)
        #expect(data.showGauges(true, now: t0))
        #expect(data.gauges(now: t0).first?.value == 5)
        #expect(data.nextDeadline(now: t0) == t0 + .seconds(1))
        folder.write("value", "7\n")
        #expect(!data.handle(ready: [], now: t0 + .milliseconds(500)))
        #expect(data.handle(ready: [], now: t0 + .seconds(1)))
        #expect(data.gauges(now: t0).first?.value == 7)
        #expect(data.lastChange == .gauges, "a gauge's own source changed, not the store")
        // A change in the store is the store's.
        try Store(path: folder.path + "/glance.db").setSummary(ActivitySummary(standHours: 1, standHoursGoal: 12), for: CalendarDay(year: 2026, month: 1, day: 1)!)
        var seen = false
        for _ in 0..<250 where !seen {
            seen = data.handle(ready: data.descriptors, now: t0 + .seconds(1))
            if !seen { usleep(20_000) }
        }
        #expect(seen, "the store's change was not seen")
        #expect(data.lastChange == .store)
        // Off the screen (or blank): the file is left alone.
        #expect(!data.showGauges(false, now: t0 + .seconds(2)))
        #expect(data.nextDeadline(now: t0 + .seconds(2)) == nil)
        folder.write("value", "9\n")
        #expect(!data.handle(ready: [], now: t0 + .seconds(5)))
        #expect(data.gauges(now: t0).first?.value == 7)
        // Back on screen: read at once.
        #expect(data.showGauges(true, now: t0 + .seconds(6)))
        #expect(data.gauges(now: t0).first?.value == 9)
    }
}
