import Activity
import CLI
import Platform
import Raster
import Screens
import Text

/// `glance bench`: full frames per screen and size, timed against a full-frame fill of the same
/// buffer in the same run.
public struct Benchmark: Sendable {
    public var request: ScreenRequest
    public var screens: [ScreenRequest.Kind]
    public var sizes: [Size]
    public var frames: Int
    public var fill: Bool
    public var noText: Bool

    public static let defaultSizes = [
        Size(width: 480, height: 480), Size(width: 800, height: 480),
        Size(width: 720, height: 1280), Size(width: 240, height: 240),
    ]

    public init(
        request: ScreenRequest, screens: [ScreenRequest.Kind], sizes: [Size], frames: Int, fill: Bool, noText: Bool
    ) {
        self.request = request
        self.screens = screens.isEmpty ? (request.ringsOnly ? [.rings] : [.rings, .gauge, .progress]) : screens
        self.sizes = sizes.isEmpty ? Self.defaultSizes : sizes
        self.frames = frames
        self.fill = fill
        self.noText = noText
        if !request.summaryGiven && !request.noSummary { self.request.summary = Pictures.typicalDay }
    }

    /// The request for one benchmark screen: the given one, plus a typical gauge or progress.
    func request(for screen: ScreenRequest.Kind) -> ScreenRequest {
        var o = request
        o.screen = screen
        switch screen {
        case .gauge:
            o.style = o.style ?? "circular"
            if !o.gaugeValueGiven { o.gaugeValue = 72 }
            o.gaugeMinimum = 30
            o.gaugeMaximum = 90
            if o.title.isEmpty { o.title = "CPU temperature" }
            if o.unit.isEmpty { o.unit = "°" }
        case .progress:
            o.style = o.style ?? "circular"
            if o.fraction == nil && !o.indeterminate { o.fraction = 0.41 }
            if o.label.isEmpty { o.label = "Importing health data" }
            o.cancellable = true
        case .rings, .clock:
            o.style = nil
            if o.name == nil { o.name = "Karan" }
            // A fixed time: every frame draws the same picture.
            if o.clockTime == nil { o.clockTime = TimeOfDay(hour: 10, minute: 9) }
        }
        return o
    }

    public func run() -> Int32 {
        let locale = request.resolvedLocale(environment: environmentLanguage())
        var text: FreeTypeTextRenderer?
        if screens.contains(where: { request(for: $0).needsText }) {
            do {
                text = try loadFonts(file: request.fontFile, cjkFile: request.cjkFontFile, locale: locale)
            } catch {
                complain(error.message)
                return ExitCode.unavailable
            }
        }
        for screen in screens {
            for size in sizes {
                let status = printResult(line(screen, size, text: text, locale: locale))
                if status != ExitCode.ok { return status }
            }
        }
        return ExitCode.ok
    }

    /// One screen at one size, measured.
    func line(_ kind: ScreenRequest.Kind, _ size: Size, text: FreeTypeTextRenderer?, locale: AppLocale) -> String {
        let request = self.request(for: kind)
        let composer = FrameComposer(panel: size, rotation: request.rotation ?? .none, format: request.format ?? .xrgb8888)
        let target = PixelBuffer(width: size.width, height: size.height, format: request.format ?? .xrgb8888)
        let withText = request.needsText && !noText
        var maker = ScreenMaker(
            text: text, locale: locale, shape: request.shape ?? .rectangle, name: request.name ?? "",
            ringsOnly: request.ringsOnly)
        maker.drawsText = withText
        maker.clockFormat = request.clockFormat ?? ClockFormat.usual(for: locale, environment: environmentTimeLocale())
        let today = SystemLocalClock().today()
        let screen = request.makeScreen(with: maker, today: today)
        maker.drawsText = false
        let bare = request.makeScreen(with: maker, today: today)
        // Alternate the two in rounds and keep each one's fastest round: the machine is shared
        // and noisy, and the difference of two times is what the labels cost.
        let rounds = withText ? min(5, frames) : 1
        var best = Double.infinity, bestBare = Double.infinity
        var done = 0
        for round in 0..<rounds {
            let n = frames / rounds + (round < frames % rounds ? 1 : 0)
            let start = done
            best = min(best, Self.measure { for i in start..<(start + n) { composer.compose(screen, into: target, at: Double(i) / 60) } } / Double(n))
            if withText {
                bestBare = min(
                    bestBare, Self.measure { for i in start..<(start + n) { composer.compose(bare, into: target, at: Double(i) / 60) } } / Double(n))
            }
            done += n
        }
        let ms = { (x: Double) in NumberText.fixed(x, decimals: 3) }
        var line = "bench screen=\(kind.rawValue)\(request.ringsOnly && kind == .rings ? " rings_only=1" : "")"
            + "\(noText ? " text=0" : "") size=\(size) frames=\(frames)"
        line += " ms_per_frame=\(ms(best))"
        if withText { line += " text_ms_per_frame=\(ms(max(0, best - bestBare)))" }
        if fill {
            let colors = [Color(hex: 0x102030), Color(hex: 0x203040)]
            let fillMs = Self.measure { for i in 0..<frames { target.fill(colors[i & 1]) } } / Double(frames)
            line += " fill_ms_per_frame=\(ms(fillMs)) ratio=\(ms(best / max(fillMs, 1e-9)))"
        }
        if (request.rotation ?? .none) != .none || (request.format ?? .xrgb8888) != .xrgb8888 {
            line += " rotate=\((request.rotation ?? .none).degrees) format=\((request.format ?? .xrgb8888).rawValue)"
        }
        return line
    }

    /// Milliseconds `body` takes, on the monotonic clock.
    static func measure(_ body: () -> Void) -> Double {
        let start = monotonicNow()
        body()
        return (monotonicNow() - start).inMilliseconds
    }
}
