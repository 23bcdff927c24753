/// A cheap angle: the "diamond angle" of a vector, monotone in the true angle.
///
/// Measured clockwise from 12 o'clock in quarter turns, D ∈ [0, 4): inside each quadrant it is
/// the quadrant number plus |a| / (|a| + |b|) of the vector's components, one division instead of
/// an arctangent. Colour lookup tables are indexed by it, so the per-pixel cost of a conic
/// gradient is one division and one load.
enum DiamondAngle {
    /// Bins of a lookup table over a full turn (a table has `bins + 1` entries: bin `bins` is the
    /// turn's end, reached only from the left of 12 o'clock).
    static let bins = 512
    static let binsPerQuadrant: Float = Float(bins) / 4

    /// The diamond angle of an angle in turns clockwise from 12 o'clock.
    static func diamond(turns: Double) -> Double {
        var t = turns - turns.rounded(.down)
        if t >= 1 { t = 0 }
        let q = min(3, (t * 4).rounded(.down))
        let sc = Trigonometry.sinCos(turns: t - q / 4)
        return q + sc.sin / (sc.sin + sc.cos)
    }

    /// The angle in turns of a diamond angle.
    static func turns(diamond d: Double) -> Double {
        let q = min(3, max(0, d.rounded(.down)))
        let f = d - q
        if f >= 1 { return (q + 1) / 4 }
        return q / 4 + Trigonometry.atanTurns(f / (1 - f))
    }

    /// The angle in turns (clockwise from 12 o'clock) of the centre of every table bin.
    static let binTurns: [Double] = (0...bins).map { turns(diamond: Double($0) * 4 / Double(bins)) }

    /// Diamond angle of the screen offset (u right, v up) from a centre.
    @inline(__always)
    static func of(u: Float, v: Float) -> Float {
        let au = abs(u), av = abs(v)
        let q = au / (au + av + 1e-30)
        if u >= 0 { return v > 0 ? q : 2 - q }
        return v >= 0 ? 4 - q : 2 + q
    }

    /// Table index for a diamond angle: rounded to the nearest bin (valid for 0 ≤ x·bins/4 < 2²²).
    @inline(__always)
    static func index(scaled x: Float) -> Int {
        Int((x + 0x1p23).bitPattern & 0x7F_FFFF)
    }

    /// Whether `d` lies in the cyclic interval [lo, hi) of diamond angles.
    @inline(__always)
    static func isWithin(_ d: Float, from lo: Float, to hi: Float) -> Bool {
        lo <= hi ? (d >= lo && d < hi) : (d >= lo || d < hi)
    }
}
