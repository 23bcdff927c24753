/// How colour runs along an arc: colour stops over the arc length, in turns from the arc's start.
///
/// `from` maps to the first stop and `to` to the last; lengths outside are clamped. The Activity
/// rings use a two-stop ramp over one turn (`from` 0, `to` 1) and, past one turn, the last turn
/// only (`from` p − 1, `to` p).
public struct ArcPaint: Sendable, Hashable {
    public struct Stop: Sendable, Hashable {
        public var position: Double
        public var color: Color
        public init(_ position: Double, _ color: Color) {
            self.position = position
            self.color = color
        }
    }

    /// Stops at positions in 0...1, in increasing order.
    public var stops: [Stop]
    public var from: Double
    public var to: Double

    public init(stops: [Stop], from: Double = 0, to: Double = 1) {
        precondition(!stops.isEmpty, "ArcPaint needs at least one stop")
        // In order already (a solid colour, the rings' ramps): kept as given, not sorted again
        // for every stroke of every frame.
        let ordered = zip(stops, stops.dropFirst()).allSatisfy { $0.position <= $1.position }
        self.stops = ordered ? stops : stops.sorted { $0.position < $1.position }
        self.from = from
        self.to = to
    }

    public static func solid(_ color: Color) -> ArcPaint { ArcPaint(stops: [Stop(0, color)]) }

    /// From `start` at arc length `from` to `end` at `to`.
    public static func ramp(_ start: Color, _ end: Color, from: Double = 0, to: Double = 1) -> ArcPaint {
        ArcPaint(stops: [Stop(0, start), Stop(1, end)], from: from, to: to)
    }

    /// The colour at arc length `s` (turns from the start).
    public func color(at s: Double) -> Color {
        let span = to - from
        let t = span > 0 ? (s - from) / span : (s >= to ? 1 : 0)
        return color(atFraction: t)
    }

    /// The colour at fraction `t` of the stops (clamped to 0...1).
    public func color(atFraction t: Double) -> Color {
        let t = t.isNaN ? 0 : min(max(t, 0), 1)
        guard var previous = stops.first else { return .black }
        if t <= previous.position { return previous.color }
        for stop in stops.dropFirst() {
            if t <= stop.position {
                let w = stop.position - previous.position
                return w > 0 ? Color.mix(previous.color, stop.color, (t - previous.position) / w) : stop.color
            }
            previous = stop
        }
        return previous.color
    }
}
