/// Half the diagonal of a pixel: a pixel whose centre is farther than this from an edge lies
/// wholly on one side of it.
@usableFromInline let halfDiagonal: Float = 0.70711

/// The exact fraction of a unit pixel on the inner side of a straight edge.
///
/// `d` is the signed distance from the pixel centre to the edge (positive inside), `(nx, ny)`
/// the edge's unit normal. Curved edges (circles) are treated as their tangent line, which is
/// exact to O(1/radius²).
@inlinable @inline(__always)
func halfPlaneCoverage(_ d: Float, _ nx: Float, _ ny: Float) -> Float {
    let ax = abs(nx), ay = abs(ny)
    let a = max(ax, ay), b = min(ax, ay)
    let h = 0.5 * (a + b)  // half the pixel's extent along the normal
    let ad = abs(d)
    if ad >= h { return d > 0 ? 1 : 0 }
    let k = 0.5 * (a - b)
    if ad <= k { return 0.5 + d / a }  // the edge crosses two opposite sides
    let t = h - ad  // the edge cuts off one corner
    let corner = t * t / (2 * a * b)
    return d > 0 ? 1 - corner : corner
}

/// Fraction of the pixel whose centre is at offset (u, v), distance `dist`, from the centre of
/// a disc of radius `r`.
@inlinable @inline(__always)
func discCoverage(radius r: Float, u: Float, v: Float, dist: Float) -> Float {
    if dist >= r + halfDiagonal { return 0 }
    if dist <= r - halfDiagonal { return 1 }
    let area = Float.pi * r * r  // a disc smaller than a pixel covers at most its area
    if dist < 1e-4 { return min(1, area) }
    let inv = 1 / dist
    return min(halfPlaneCoverage(r - dist, u * inv, v * inv), area)
}

/// Coverage in 0...1 as an alpha in 0...256 (256 = opaque).
@inlinable @inline(__always)
func alpha256(_ coverage: Float) -> UInt32 {
    UInt32(Int32(coverage * 256 + 0.5).clamped(0, 256))
}

extension Int32 {
    @inlinable @inline(__always)
    func clamped(_ lo: Int32, _ hi: Int32) -> Int32 { self < lo ? lo : (self > hi ? hi : self) }
}

/// `src` over `dst` with alpha `a` in 0...256, both XRGB8888.
@inlinable @inline(__always)
func blend(_ src: UInt32, over dst: UInt32, alpha a: UInt32) -> UInt32 {
    let na = 256 &- a
    let rb = ((src & 0xFF00FF) &* a &+ (dst & 0xFF00FF) &* na) >> 8
    let g = ((src & 0x00FF00) &* a &+ (dst & 0x00FF00) &* na) >> 8
    return (rb & 0xFF00FF) | (g & 0x00FF00)
}

/// `c` scaled by `a` in 0...256 (the colour over black).
@inlinable @inline(__always)
func scale(_ c: UInt32, by a: UInt32) -> UInt32 {
    let rb = ((c & 0xFF00FF) &* a) >> 8
    let g = ((c & 0x00FF00) &* a) >> 8
    return (rb & 0xFF00FF) | (g & 0x00FF00)
}
