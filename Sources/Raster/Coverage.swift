/// Half the diagonal of a pixel: a pixel whose centre is farther than this from an edge lies
/// wholly on one side of it.
@usableFromInline let halfDiagonal: Float = 0.70711

/// The fraction of a unit pixel on the inner side of an edge.
///
/// `d` is the signed distance from the pixel centre to the edge (positive inside), `(nx, ny)`
/// the edge's unit normal. The area is exact for a straight edge; for a circle of radius R the
/// edge bows away from its tangent by the circular segment over the pixel's chord L, about
/// L³ / 24R, which `curvature` = 1/R removes (negative 1/R for a hole's edge, which bows the
/// other way).
@inlinable @inline(__always)
func halfPlaneCoverage(_ d: Float, _ nx: Float, _ ny: Float, curvature: Float = 0) -> Float {
    let ax = abs(nx), ay = abs(ny)
    let a = max(ax, ay), b = min(ax, ay)
    let h = 0.5 * (a + b)  // half the pixel's extent along the normal
    let ad = abs(d)
    if ad >= h { return d > 0 ? 1 : 0 }
    let k = 0.5 * (a - b)
    var coverage: Float
    var chord: Float
    if ad <= k {  // the edge crosses two opposite sides
        coverage = 0.5 + d / a
        chord = 1 / a
    } else {  // the edge cuts off one corner
        let t = h - ad
        let corner = t * t / (2 * a * b)
        coverage = d > 0 ? 1 - corner : corner
        chord = t / (a * b)
    }
    coverage -= curvature * chord * chord * chord * (1 / 24)
    return min(max(coverage, 0), 1)
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
    return min(halfPlaneCoverage(r - dist, u * inv, v * inv, curvature: 1 / r), area)
}

/// Coverage in 0...1 as an alpha in 0...256 (256 = opaque).
@inlinable @inline(__always)
func alpha256(_ coverage: Float) -> UInt32 {
    // Rounded through the float's mantissa: 2²³ + x keeps round(x) in its low bits.
    (min(max(coverage, 0), 1) * 256 + 0x1p23).bitPattern & 0x1FF
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

/// `scale` of four pixels.
@inline(__always)
func scale(_ c: SIMD4<UInt32>, by a: SIMD4<UInt32>) -> SIMD4<UInt32> {
    let rb = ((c & 0xFF00FF) &* a) &>> 8
    let g = ((c & 0x00FF00) &* a) &>> 8
    return (rb & 0xFF00FF) | (g & 0x00FF00)
}

/// ⌊x⌋ without a C library call (x86-64's baseline has no rounding instruction); x is clamped
/// to ±1e9 first, far outside any buffer.
@inlinable @inline(__always)
func floorToInt(_ x: Float) -> Int {
    let c = min(max(x, -1e9), 1e9)
    let i = Int(c)
    return Float(i) > c ? i - 1 : i
}

/// ⌊x⌋ for |x| ≤ 2²² − 1 (every pixel position of a drawable arc lies within ±1.2·10⁶), in a few
/// instructions: x rounded to the nearest whole number through the mantissa of 1.5·2²³ + x, one
/// less when that lies above x. The same value as `floorToInt` there, without its clamp and the
/// conversion's checks.
@inline(__always)
func floorSmall(_ x: Float) -> Int {
    let shifted = x + 0x1.8p23
    let nearest = Int(shifted.bitPattern & 0x7F_FFFF) &- 0x40_0000
    return shifted - 0x1.8p23 > x ? nearest &- 1 : nearest
}

/// `floorSmall` of four lanes (the same operations lane by lane).
@inline(__always)
func floorSmall(_ x: Float4) -> SIMD4<Int32> {
    let shifted = x + 0x1.8p23
    let nearest =
        SIMD4<Int32>(truncatingIfNeeded: unsafeBitCast(shifted, to: SIMD4<UInt32>.self) & 0x7F_FFFF) &- 0x40_0000
    return nearest.replacing(with: nearest &- 1, where: (shifted - 0x1.8p23) .> x)
}

/// ⌈x⌉ for |x| ≤ 2²² − 1 (see `floorSmall`).
@inline(__always)
func ceilSmall(_ x: Float) -> Int { 0 &- floorSmall(-x) }

/// ⌈x⌉ without a C library call.
@inlinable @inline(__always)
func ceilToInt(_ x: Float) -> Int { -floorToInt(-x) }

/// x − ⌊x⌋ for angles in turns, without a C library call.
@inlinable @inline(__always)
func fractionalPart(_ x: Double) -> Double {
    guard abs(x) < 1e15 else { return 0 }
    let i = Double(Int64(x))
    let f = x - i
    return f < 0 ? f + 1 : f
}

/// Four lanes of floats (one SSE or NEON register): the vector forms below compute lane by lane
/// exactly what their scalar forms compute (the same operations in the same order, `min` and
/// `max` as the standard library picks), so their results are the same bits. Lanes are picked
/// with `replacing(with:where:)`, which compiles to a compare and a blend (a mask cast to integer
/// lanes goes through general registers lane by lane).
typealias Float4 = SIMD4<Float>
typealias Mask4 = SIMDMask<SIMD4<Int32>>

/// `m ? a : b`, lane by lane.
@inline(__always) func select(_ m: Mask4, _ a: Float4, _ b: Float4) -> Float4 { b.replacing(with: a, where: m) }
/// `abs`: the sign bit cleared.
@inline(__always) func magnitude(_ x: Float4) -> Float4 {
    unsafeBitCast(unsafeBitCast(x, to: SIMD4<UInt32>.self) & 0x7FFF_FFFF, to: Float4.self)
}
/// `min(x, y)`: `y < x ? y : x`.
@inline(__always) func minimum(_ x: Float4, _ y: Float4) -> Float4 { x.replacing(with: y, where: y .< x) }
/// `max(x, y)`: `y >= x ? y : x`.
@inline(__always) func maximum(_ x: Float4, _ y: Float4) -> Float4 { x.replacing(with: y, where: y .>= x) }

/// `halfPlaneCoverage` of four pixels (both of its cases worked out, each lane keeping its own).
/// Transparent: marked only `@inline(__always)`, the optimizer kept it a call (17 K instructions
/// of a cold ring frame).
@_transparent
func halfPlaneCoverage(_ d: Float4, _ nx: Float4, _ ny: Float4, curvature: Float) -> Float4 {
    halfPlaneCoverage(d, nx, ny, curvature: Float4(repeating: curvature))
}

/// `halfPlaneCoverage` of four pixels, each lane with its own curvature (the same operations, a
/// lane's curvature in place of the one).
@_transparent
func halfPlaneCoverage(_ d: Float4, _ nx: Float4, _ ny: Float4, curvature: Float4) -> Float4 {
    let ax = magnitude(nx), ay = magnitude(ny)
    let a = maximum(ax, ay), b = minimum(ax, ay)
    let h = 0.5 * (a + b)
    let ad = magnitude(d)
    let k = 0.5 * (a - b)
    let positive = d .> 0
    let across = ad .<= k
    let t = h - ad
    let corner = t * t / (2 * a * b)
    var coverage = select(across, 0.5 + d / a, select(positive, 1 - corner, corner))
    let chord = select(across, 1 / a, t / (a * b))
    coverage = coverage - curvature * chord * chord * chord * (1 / 24)
    coverage = minimum(maximum(coverage, Float4(repeating: 0)), Float4(repeating: 1))
    return select(ad .>= h, select(positive, Float4(repeating: 1), Float4(repeating: 0)), coverage)
}

/// `coverage > 0 ? alpha256(coverage) : 0` of four pixels.
@inline(__always)
func alpha256(_ coverage: Float4) -> SIMD4<UInt32> {
    let clamped = minimum(maximum(coverage, Float4(repeating: 0)), Float4(repeating: 1))
    let alpha = unsafeBitCast(clamped * 256 + 0x1p23, to: SIMD4<UInt32>.self) & 0x1FF
    return SIMD4<UInt32>.zero.replacing(with: alpha, where: coverage .> 0)
}
