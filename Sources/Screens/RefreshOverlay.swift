import Raster

/// The refresh control over a screen (as a pull-to-refresh looks): while fresh data is being
/// fetched, a small spinner in a dark disc at the top centre; when fetching failed, a short line
/// saying so, on a dark pill. The screen underneath is drawn as it is.
public struct RefreshOverlay: Screen {
    public enum State: Sendable, Equatable {
        /// Fetching, since this moment of the screen's clock (the spinner turns from there).
        case spinning
        /// It failed: the line says so.
        case failed
    }

    public var screen: any Screen
    public var state: State
    public var context: ScreenContext

    public init(screen: any Screen, state: State, context: ScreenContext) {
        self.screen = screen
        self.state = state
        self.context = context
    }

    public var animates: Bool { state == .spinning || screen.animates }

    /// Where the indicator sits: its centre and radius in a picture of `size` (inside a round
    /// panel's circle: at the top of its inscribed square).
    public static func placement(in size: Size, shape: PanelShape) -> (center: Point, radius: Float) {
        let w = Float(size.width), h = Float(size.height)
        let short: Float = min(w, h)
        let radius: Float = max(10, short * 0.045)
        var top: Float = max(6, short * 0.025)
        // On a round panel: the top of the inscribed square (0.146 of the side inside the circle).
        if shape == .round { top = (h - short) / 2 + short * 0.146 }
        return (Point(x: w / 2, y: top + radius), radius)
    }

    public func draw(into buffer: PixelBuffer, at time: Double) {
        screen.draw(into: buffer, at: time)
        let (center, radius) = Self.placement(in: Size(width: buffer.width, height: buffer.height), shape: context.shape)
        switch state {
        case .spinning:
            let disc = radius * 1.45
            buffer.fillRoundedRect(
                Rect(x: center.x - disc, y: center.y - disc, width: 2 * disc, height: 2 * disc), radius: disc,
                color: Self.backdrop)
            let width = Self.spinnerWidth(radius)
            let phase = ProgressScreen.phase(time, period: ProgressScreen.spinnerPeriod)
            buffer.stroke(
                ArcStroke(center: center, radius: radius - width / 2, width: width, start: phase,
                          sweep: ProgressScreen.spinnerSweep, paint: .solid(ProgressScreen.accent),
                          track: ProgressScreen.track))
        case .failed:
            guard context.text != nil else { return }
            let text = TextLayout(context)
            let line = context.strings.couldNotRefresh
            let style = TextStyle(size: max(11, radius * 1.1), weight: .semibold)
            let m = text.measure(line, style)
            let padX = radius * 0.9, height = m.height + radius * 0.7
            let width = min(Float(buffer.width) - 2 * padX, m.width + 2 * padX)
            let pill = Rect(x: center.x - width / 2, y: center.y - height / 2, width: width, height: height)
            buffer.fillRoundedRect(pill, radius: height / 2, color: Self.backdrop)
            context.probe?.shape("refresh-failed", pill)
            text.draw(
                text.truncated(line, style, width: width - 2 * padX), style, color: TextLayout.primary,
                baseline: center.y + (m.ascent - m.descent) / 2, from: pill.x + padX, to: pill.maxX - padX,
                align: .center, into: buffer)
        }
    }

    static let backdrop = Color(hex: 0x2C2C2E)

    /// The spinner's line width for an indicator of `radius`.
    static func spinnerWidth(_ radius: Float) -> Float { max(2, radius * 0.28) }

    /// The screen's changes underneath, and the spinner's while it turns (the backdrop and the
    /// line saying it failed stay). Another state or context: nil (all of it).
    public func changes(since previous: any Screen, at previousTime: Double, now time: Double, size: Size) -> Damage? {
        guard let before = previous as? RefreshOverlay, before.state == state, context.drawsLike(before.context),
            var d = screen.changes(since: before.screen, at: previousTime, now: time, size: size)
        else { return nil }
        if state == .spinning {
            let (center, radius) = Self.placement(in: size, shape: context.shape)
            let width = Self.spinnerWidth(radius)
            d.formUnion(
                ScreenDamage.spinner(
                    center: center, radius: radius - width / 2, width: width, sweep: ProgressScreen.spinnerSweep,
                    period: ProgressScreen.spinnerPeriod, from: previousTime, to: time))
        }
        return d
    }
}
