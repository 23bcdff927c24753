/// Sine, cosine and arctangent on angles in turns (1 turn = 360°), in plain Swift.
///
/// Built from +, −, ×, ÷ and square root only, so every machine computes the same bits and the
/// golden images do not depend on the C library's `sin`. Accurate to about 1e-15.
public enum Trigonometry {
    /// sin(2π·turns).
    public static func sin(turns: Double) -> Double { sinCos(turns: turns).sin }

    /// cos(2π·turns).
    public static func cos(turns: Double) -> Double { sinCos(turns: turns).cos }

    /// Both at once.
    public static func sinCos(turns: Double) -> (sin: Double, cos: Double) {
        guard turns.isFinite else { return (.nan, .nan) }
        let t = turns - turns.rounded()  // [-0.5, 0.5], exact
        let q = (t * 4).rounded()  // quadrant -2...2
        let x = (t - q / 4) * (2 * Double.pi)  // [-π/4, π/4]
        let x2 = x * x
        // Taylor series, enough terms for |x| ≤ π/4.
        var sinSeries = 0.0, cosSeries = 0.0
        // sin: x − x³/3! + … + x¹⁷/17!
        var term = x
        var n = 1.0
        for _ in 0..<9 {
            sinSeries += term
            term *= -x2 / ((n + 1) * (n + 2))
            n += 2
        }
        term = 1
        n = 0
        for _ in 0..<10 {
            cosSeries += term
            term *= -x2 / ((n + 1) * (n + 2))
            n += 2
        }
        switch Int(q) & 3 {
        case 0: return (sinSeries, cosSeries)
        case 1: return (cosSeries, -sinSeries)
        case 2: return (-sinSeries, -cosSeries)
        default: return (-cosSeries, sinSeries)
        }
    }

    /// atan(x) in turns, in (−0.25, 0.25).
    public static func atanTurns(_ x: Double) -> Double {
        guard !x.isNaN else { return .nan }
        if x.isInfinite { return x > 0 ? 0.25 : -0.25 }
        let negative = x < 0
        var y = abs(x)
        var offset = 0.0  // in radians
        var sign = 1.0
        if y > 1 {  // atan(y) = π/2 − atan(1/y)
            y = 1 / y
            offset = Double.pi / 2
            sign = -1
        }
        // Halve the angle twice: atan(y) = 2·atan(y / (1 + √(1 + y²))).
        y = y / (1 + (1 + y * y).squareRoot())
        y = y / (1 + (1 + y * y).squareRoot())
        let y2 = y * y
        var series = 0.0
        var power = y
        var k = 1.0
        for _ in 0..<14 {  // |y| ≤ tan(π/16) ≈ 0.199: 0.199^29/29 < 1e-21
            series += power / k
            power *= -y2
            k += 2
        }
        let radians = offset + sign * 4 * series
        return (negative ? -radians : radians) / (2 * Double.pi)
    }

    /// The direction of the screen vector (dx right, dy down) in turns clockwise from
    /// 12 o'clock, in [0, 1). The zero vector gives 0.
    public static func turnsClockwiseFromUp(dx: Double, dy: Double) -> Double {
        let up = -dy
        if dx == 0 && up == 0 { return 0 }
        var t: Double
        if abs(up) >= abs(dx) {
            t = atanTurns(dx / up)  // angle from the vertical
            if up < 0 { t += 0.5 }
        } else {
            t = 0.25 - atanTurns(up / dx)
            if dx < 0 { t += 0.5 }
        }
        t -= t.rounded(.down)
        return t >= 1 ? 0 : t
    }

    /// The screen direction (dx right, dy down) of an angle in turns clockwise from 12 o'clock.
    public static func direction(turns: Double) -> (dx: Double, dy: Double) {
        let sc = sinCos(turns: turns)
        return (sc.sin, -sc.cos)
    }
}
