import Activity
import Clocks
import Runtime
import Configuration
import Controls
import DeviceLogic
import Display
import Platform
import Raster
import Screens
import Text

/// What each frame puts on an SPI panel's wire: the bytes of its damage as a MIPI DBI driver
/// sends them, and what frame rate and share of the wire that makes.
///
/// Linux's MIPI DBI helpers (panel-mipi-dbi, st7789v, ili9341, gc9a01 on the Pi's SPI overlays)
/// merge a commit's damage clips into one rectangle (`drm_atomic_helper_damage_merged`), set the
/// column and row window (CASET and RASET, a command byte and four each) and send the rectangle's
/// pixels after RAMWR in RGB565, two bytes a pixel. A frame whose damage lies in parts far apart
/// goes as a commit per group (`DamageCommits`, as `DisplayOutput` commits it on an SPI
/// connector), each its own window. The Pi's SPI controller spends nine clocks on a byte (eight
/// and one between bytes), so a 240x240 frame sent whole takes 1,036,899 clocks: 30.1 frames a
/// second at 31.25 MHz (the overlays' usual 32 MHz after the divider), 60.3 at 62.5 MHz.
public struct WireBudget: Sendable {
    /// A panel of the kind Glance is for.
    public struct Panel: Sendable {
        public var name: String
        public var size: Size
        public var shape: PanelShape
    }

    public static let panels = [
        Panel(name: "240x240", size: Size(width: 240, height: 240), shape: .rectangle),
        Panel(name: "320x240", size: Size(width: 320, height: 240), shape: .rectangle),
        Panel(name: "round240", size: Size(width: 240, height: 240), shape: .round),
    ]

    /// The SPI clocks a frame's bytes take: nine a byte.
    public static let clocksPerByte = 9
    /// CASET and RASET with their four parameters each, and RAMWR.
    public static let commandBytes = DamageCommits.windowCommandBytes
    /// The clocks asked for: the overlays' usual (31.25 MHz after the Pi's divider) and the most
    /// an ST7789 takes.
    public static let clocks: [(name: String, hertz: Double)] = [("31.25MHz", 31_250_000), ("62.5MHz", 62_500_000)]

    /// The bytes a frame with `damage` (panel pixels) puts on the wire, and in how many commits:
    /// each group of `DamageCommits` a window; nothing when nothing changed (no commit).
    public static func send(_ damage: Damage, bytesPerPixel: Int = 2) -> (bytes: Int, commits: Int) {
        let groups = DamageCommits.groups(damage.rects, bytesPerPixel: bytesPerPixel)
        return (DamageCommits.wireBytes(groups, bytesPerPixel: bytesPerPixel), groups.count)
    }

    /// The bytes a frame with `damage` puts on the wire (`send`).
    public static func bytes(_ damage: Damage, bytesPerPixel: Int = 2) -> Int { send(damage, bytesPerPixel: bytesPerPixel).bytes }

    /// Frames a second the wire carries at `hertz` when each frame is `bytes`.
    public static func framesPerSecond(bytes: Double, hertz: Double) -> Double {
        bytes > 0 ? hertz / (bytes * Double(clocksPerByte)) : .infinity
    }

    /// The share of the wire frames of `bytes` take at `fps`.
    public static func share(bytes: Double, fps: Double, hertz: Double) -> Double {
        bytes * Double(clocksPerByte) * fps / hertz
    }

    /// What the wire budget's goal allows an animation at 60 fps on a 240x240 panel: half of a
    /// 31.25 MHz wire.
    public static let animationGoal = 0.5
    /// A whole-screen change must reach this share of the wire's rate (no stall between frames).
    public static let wholeGoal = 0.9
}

extension Benchmark {
    /// What changes on the panel, frame after frame, for the wire budget.
    enum WireScene: String, CaseIterable {
        case intro, dayChange = "day_change", spinner, bar, gaugeUpdate = "gauge_update"

        /// Frames a second, rather than one change (a day turned, a gauge's new value).
        var animates: Bool { self == .intro || self == .spinner || self == .bar }
    }

    /// The wire budget's lines: for each panel, each scene's bytes a frame and the wire's share at
    /// 30 and 60 fps, then a whole-screen change against the time it takes to draw here.
    func wireLines(text: FreeTypeTextRenderer?, locale: AppLocale) throws(OutputFailure) -> [String] {
        var lines: [String] = []
        let fps = 60.0
        for panel in WireBudget.panels {
            var look = self
            look.configuration.display.shape = panel.shape
            var worst = (scene: "", share: 0.0)
            for scene in WireScene.allCases {
                let sent = try look.wireFrames(scene, size: panel.size, text: text, locale: locale, fps: fps)
                let frames = sent.map(\.bytes)
                let mean = frames.isEmpty ? 0 : Double(frames.reduce(0, +)) / Double(frames.count)
                let most = Double(frames.max() ?? 0)
                var line = "bench wire=\(scene.rawValue) panel=\(panel.name) format=rgb565 frames=\(frames.count)"
                    + " bytes_mean=\(Int(mean.rounded())) bytes_max=\(Int(most)) commits_max=\(sent.map(\.commits).max() ?? 0)"
                for clock in WireBudget.clocks {
                    line += " fps_max_\(clock.name)=\(Self.figure(WireBudget.framesPerSecond(bytes: most, hertz: clock.hertz)))"
                    for rate in [30.0, 60.0] {
                        line += " share_\(Int(rate))fps_\(clock.name)="
                            + NumberText.fixed(WireBudget.share(bytes: mean, fps: rate, hertz: clock.hertz), decimals: 3)
                    }
                }
                let share = WireBudget.share(bytes: mean, fps: fps, hertz: WireBudget.clocks[0].hertz)
                if panel.name == "240x240" && scene.animates && share > worst.share { worst = (scene.rawValue, share) }
                lines.append(line)
            }
            // A whole-screen change: the wire's time against this machine's time to draw it.
            let whole = Double(panel.size.width * panel.size.height * 2 + WireBudget.commandBytes)
            let drawMs = try look.wholeFrameMs(size: panel.size, text: text)
            var line = "bench wire=whole panel=\(panel.name) format=rgb565 bytes=\(Int(whole)) draw_ms_here=\(NumberText.fixed(drawMs, decimals: 3))"
            for clock in WireBudget.clocks {
                let wireMs = 1000 / WireBudget.framesPerSecond(bytes: whole, hertz: clock.hertz)
                line += " fps_max_\(clock.name)=\(Self.figure(1000 / wireMs))"
                    + " share_of_wire_rate_\(clock.name)=\(NumberText.fixed(wireMs / (wireMs + drawMs), decimals: 3))"
            }
            lines.append(line)
            if panel.name == "240x240" {
                lines.append(
                    "bench wire=goal panel=240x240 animations=" + WireScene.allCases.filter(\.animates).map(\.rawValue).joined(separator: ",")
                        + " most=\(worst.scene) share_60fps_31.25MHz=\(NumberText.fixed(worst.share, decimals: 3))"
                        + " goal=\(NumberText.fixed(WireBudget.animationGoal, decimals: 2))"
                        + " met=\(worst.share <= WireBudget.animationGoal ? "yes" : "no")")
            }
        }
        return lines
    }

    static func figure(_ x: Double) -> String { x.isFinite ? NumberText.fixed(x, decimals: 1) : "unbounded" }

    /// The bytes (and commits) each frame of `scene` puts on the wire after the first (drawn
    /// whole), through the damage path the session runs (`FramePainter`), on an RGB565 panel.
    func wireFrames(
        _ scene: WireScene, size: Size, text: FreeTypeTextRenderer?, locale: AppLocale, fps: Double
    ) throws(OutputFailure) -> [(bytes: Int, commits: Int)] {
        let screens = try wireScreens(scene, size: size, text: text, fps: fps)
        let composer = FrameComposer(panel: size, rotation: rotation, format: .rgb565)
        let targets = (0..<2).map { _ in PixelBuffer(width: size.width, height: size.height, format: .rgb565) }
        var painter = FramePainter(composer: composer)
        var sent: [(bytes: Int, commits: Int)] = []
        for (i, (screen, time)) in screens.enumerated() {
            let frame = painter.paint(screen, at: time, into: targets[i % 2], animating: i < screens.count - 1)
            if i > 0 { sent.append(WireBudget.send(frame.panel)) }
        }
        return sent
    }

    /// The screens of `scene` and their times: an animation's frames at `fps`, or a change from
    /// one screen to the next (the day before, a gauge's next value).
    func wireScreens(_ scene: WireScene, size: Size, text: FreeTypeTextRenderer?, fps: Double) throws(OutputFailure) -> [(any Screen, Double)] {
        switch scene {
        case .intro, .spinner, .bar:
            let animation: Animation = scene == .intro ? .intro : scene == .spinner ? .spinner : .bar
            var b = self
            b.frames = min(frames, 120)
            let (count, frame) = try b.frames(animation, size: size, text: text, fps: fps)
            return (0..<count).map(frame)
        case .dayChange:
            let request = self.request(for: .rings)
            let yesterday = ActivitySummary(
                activeEnergyBurned: .kilocalories(520), activeEnergyBurnedGoal: .kilocalories(500),
                exerciseTime: 12, exerciseTimeGoal: 30, standHours: 9, standHoursGoal: 12)
            var before = request
            before.summary = yesterday
            before.noSummary = false
            before.day = .date((request.today?.day(today: SystemLocalClock().today()) ?? SystemLocalClock().today()).adding(days: -1))
            return [(try panel(request, size: size, text: text).screen(at: 0), 0), (try panel(before, size: size, text: text).screen(at: 0), 1 / fps)]
        case .gaugeUpdate:
            var request = self.request(for: .gauges)
            let first = try panel(request, size: size, text: text).screen(at: 0)
            request.gaugeValue = (request.gaugeValue ?? 72) + 1
            return [(first, 0), (try panel(request, size: size, text: text).screen(at: 0), 1 / fps)]
        }
    }

    /// Milliseconds this machine takes to draw the ring screen whole at `size` (the fastest of
    /// five rounds of ten).
    func wholeFrameMs(size: Size, text: FreeTypeTextRenderer?) throws(OutputFailure) -> Double {
        let screen = try panel(self.request(for: .rings), size: size, text: text).screen(at: 0)
        let composer = FrameComposer(panel: size, rotation: rotation, format: .rgb565)
        let target = PixelBuffer(width: size.width, height: size.height, format: .rgb565)
        var best = Double.infinity
        for _ in 0..<5 {
            best = min(best, Self.measure { for i in 0..<10 { composer.compose(screen, into: target, at: Double(i)) } } / 10)
        }
        return best
    }
}
