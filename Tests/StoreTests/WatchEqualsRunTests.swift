@testable import DeviceLogic
import Activity
import Runtime
import Configuration
import Foundation
import ImageFile
import Platform
import Raster
import Store
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `glance watch` is the panel's session drawn into a file: for the same store and the same
/// changes, its pictures are the frames a `glance run` session presents.
@Suite("glance watch draws what glance run shows", .timeLimit(.minutes(10)))
struct WatchEqualsRunTests {
    @Test func watchPicturesEqualTheSessionsFramesAfterEachChange() throws {
        let scratch = Scratch()
        let db = ["--db", scratch.db]
        let config = scratch.write("config.json", "{}")
        let png = scratch.file("watch.png")
        let day = "2025-03-01"
        #expect(try GlanceCLI.run(["log", "--date", day, "--move", "120", "--move-goal", "500"] + db, in: scratch).status == 0)
        let (watch, finish) = try GlanceCLI.start(
            ["watch", "--render-to", png, "--size", "320x240", "--date", day, "--config", config] + db, in: scratch,
            tag: "watch")

        // glance run's session on the same store, as it is made from the same command line (its
        // frames recorded instead of shown).
        var layer = Layer()
        try layer.set(option: "--db", scratch.db)
        try layer.set(option: "--date", day)
        let settings = try Settings(try Configuration().applying(layer))
        // The same assembly as watch's (fonts, clock, store, controller, session), on a recording sink.
        let sink = RecordingSink(size: Size(width: 320, height: 240))
        let app = try Assembly.make(settings, sink: sink, log: { _ in }).get()
        let controller = app.controller, session = app.session
        /// Turns the session's loop for a second (long enough for any easing to end).
        func settle() throws {
            let end = monotonicNow() + .seconds(1)
            while monotonicNow() < end {
                _ = try session.turn(now: monotonicNow(), ready: controller.descriptors, signals: [])
                usleep(20_000)
            }
        }

        let steps: [(String, [[String]])] = [
            ("start", []),
            ("log", [["log", "--date", day, "--move", "430", "--exercise", "25", "--exercise-goal", "30"]]),
            (
                "task",
                [
                    ["task", "start", "sync", "--total", "200", "--description", "Syncing", "--cancellable"],
                    ["task", "update", "sync", "--done", "82"],
                ]
            ),
            ("cancel asked", [["task", "cancel", "sync"]]),
            ("task ended", [["task", "finish", "sync", "--failed"]]),
        ]
        var shown: [String] = []
        for (name, commands) in steps {
            for command in commands { #expect(try GlanceCLI.run(command + db, in: scratch).status == 0, "\(command)") }
            try settle()
            let expected = try #require(sink.lastFrame, "\(name): the session drew nothing")
            let same = eventually(seconds: 15) {
                guard let drawn = try? PNGFile.read(png) else { return false }
                return samePixels(drawn, expected)
            }
            #expect(same, "\(name): glance watch's picture is not the session's frame")
            shown.append(name)
        }
        #expect(shown.count == steps.count)
        kill(watch.processIdentifier, SIGTERM)
        let result = finish()
        #expect(result.status == 0, "\(result.err)")
        // The task was shown as the panel shows it, and its Cancel went when the cancel was asked.
        #expect(result.out.contains("task sync Syncing"), "\(result.out)")
    }
}
