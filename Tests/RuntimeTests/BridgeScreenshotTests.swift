import Foundation
import ImageFile
import Platform
import Raster
import TestSupport
import Testing

@testable import HomeBridge
@testable import Runtime

#if canImport(Glibc)
    import Glibc
#endif

/// The Screenshot image in Home Assistant: the panel's frame, asked by the bridge on its own
/// connection to the panel's real control socket, published as a PNG on a real broker, and
/// again when the screen changes.
@Suite("Home Assistant: the Screenshot image", .timeLimit(.minutes(10)))
struct BridgeScreenshotTests {
    /// The retained image, decoded (nil: none yet).
    static func image(_ broker: Broker, _ device: HomeAssistantDevice, folder: String) -> PixelBuffer? {
        let file = folder + "/image-\(UInt32.random(in: 0...UInt32.max)).png"
        let process = try? ChildProcess(
            [
                "/bin/sh", "-c",
                "exec /usr/bin/mosquitto_sub -h 127.0.0.1 -p \(broker.port) -t '\(device.topic("screenshot", "image"))' --retained-only -C 1 -W 2 -N > '\(file)'",
            ])
        guard let process else { return nil }
        defer { process.stop() }
        let end = monotonicNow() + .seconds(5)
        while process.poll() == nil && monotonicNow() < end { usleep(10_000) }
        return try? PNGFile.read(file)
    }

    static func same(_ a: PixelBuffer, _ b: PixelBuffer) -> Bool {
        guard a.width == b.width, a.height == b.height else { return false }
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.color(x: x, y: y)
                let q = b.color(x: x, y: y)
                if p.red != q.red || p.green != q.green || p.blue != q.blue { return false }
            }
        }
        return true
    }

    @Test("the frame on the panel as a PNG, again after the screen changed; none while the panel is away")
    func screenshot() throws {
        if HomeAssistantTests.skipWithoutBroker() { return }
        let broker = try Broker()
        let folder = ScratchFolder("bridge-screenshot")
        let c = HomeAssistantTests.configuration(broker, folder: folder.path)
        let lines = LogLines()
        let (_, session) = try HomeAssistantTests.panel(c, log: lines.add)
        let bridge = try HomeAssistantTests.bridge(c, log: lines.add)
        let camera = try #require(bridge.camera)
        camera.settle = .milliseconds(200)
        camera.spacing = .milliseconds(200)
        bridge.begin(now: monotonicNow())
        let device = try #require(bridge.device)
        #expect(HomeAssistantTests.pump(bridge, session) { bridge.pictures >= 1 }, "\(lines.all)")
        let first = try #require(Self.image(broker, device, folder: folder.path), "a PNG retained")
        let shown = try session.screenshot().get()
        #expect(Self.same(first, shown), "the picture is the panel's frame, \(first.width)x\(first.height)")

        // Another screen: a new picture, the new frame.
        try broker.publish(device.topic("screen", "set"), "clock")
        let before = bridge.pictures
        #expect(HomeAssistantTests.pump(bridge, session) { bridge.panelState?.screen == .clock && bridge.pictures > before }, "\(lines.all)")
        _ = HomeAssistantTests.pump(bridge, session, seconds: 0.5) { false }
        let second = try #require(Self.image(broker, device, folder: folder.path))
        #expect(!Self.same(first, second), "the clock, not the rings")
        #expect(Self.same(second, try session.screenshot().get()))

        // The panel away: nothing asked (no connection tried, no complaint).
        session.control = nil
        let count = bridge.pictures
        #expect(HomeAssistantTests.pump(bridge, nil) { bridge.panel?.alive == false })
        _ = HomeAssistantTests.pump(bridge, nil, seconds: 1) { false }
        #expect(bridge.pictures == count && camera.descriptor == nil && !lines.all.contains("the Screenshot image:"), "\(lines.all)")
    }
}
