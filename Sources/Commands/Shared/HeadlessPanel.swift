import Activity
import Runtime
import Configuration
import Controls
import DeviceLogic
import Platform
import Raster
import Screens

/// The panel the headless commands draw (`glance render`, `glance demo`, `glance bench`'s
/// frames): the one assembly, as `glance run`'s, on a sink that holds pictures, with the day and
/// the time fixed and the data given, and nothing of a device's own hours (no idle times, no
/// schedule, no cycle: a picture is not dimmed, darkened or turned). Each picture is the
/// device's scene at its time after the first frame, which starts what the panel starts with it
/// (the intro).
struct HeadlessPanel {
    let assembly: Assembly
    let start: Duration

    /// The settings as a picture takes them; `showing`: that screen and no other (a picture of
    /// the ring screen is not turned to a running task, as the panel would be).
    static func still(_ settings: Settings, showing: ScreenKind? = nil) -> Settings {
        settings.with {
            $0.idle = IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 1)
            $0.schedule = []
            $0.cycle = nil
            if let showing { $0.screens = [showing] }
        }
    }

    static func make(
        _ settings: Settings, sink: any FrameSink, text: (any TextRenderer)?, clock: any LocalClock, data: any DataSource,
        now: Duration = monotonicNow()
    ) -> Result<HeadlessPanel, OutputFailure> {
        Assembly.make(
            still(settings), sink: sink, parts: .init(text: .some(text), clock: clock, data: data, now: now), log: { _ in }
        ).map { assembly in
            _ = assembly.controller.scene(now: now)
            return HeadlessPanel(assembly: assembly, start: now)
        }
    }

    /// What the panel shows `seconds` after its first frame.
    func screen(at seconds: Double) -> any Screen {
        let time = start + .nanoseconds(Int64((seconds * 1e9).rounded()))
        return assembly.controller.device.scene(at: time).frame(at: time).screen
    }

    /// `message` shown from `now` on, as a command to the panel shows it.
    func show(_ message: PanelMessage, now: Duration) {
        assembly.controller.send(.message(message), now: now)
    }

    var composer: FrameComposer { assembly.session.composer }
    var maker: ScreenMaker { assembly.controller.device.maker }
}
