import Testing

@testable import Raster

/// Coverage at edges against a 16×16 supersampled reference: every pixel of a white shape on
/// black must be within `tolerance` of the fraction of its 256 sample points inside the shape.
///
/// The reference itself is exact only to about 1/50 at an edge pixel (it counts points), so the
/// tolerance stated here is 0.03 (under 8 levels of 255), of which most is the reference's own
/// error; the measured maxima (0.008 to 0.027 when written) are printed with each run.
@Suite("Coverage at edges vs 16×16 supersampling", .timeLimit(.minutes(10)))
struct CoverageTests {
    static let tolerance = 0.03

    /// The fraction of the 16×16 sample points of pixel (px, py) inside the shape.
    static func reference(_ px: Int, _ py: Int, _ inside: (Double, Double) -> Bool) -> Double {
        var n = 0
        for j in 0..<16 {
            for i in 0..<16 where inside(Double(px) + (Double(i) + 0.5) / 16, Double(py) + (Double(j) + 0.5) / 16) {
                n += 1
            }
        }
        return Double(n) / 256
    }

    /// Largest difference between drawn coverage and the reference over the whole buffer.
    static func maxError(size: Int = 48, draw: (PixelBuffer) -> Void, inside: (Double, Double) -> Bool)
        -> (error: Double, at: (Int, Int), edgePixels: Int)
    {
        let buffer = PixelBuffer(width: size, height: size)
        draw(buffer)
        var worst = 0.0
        var at = (0, 0)
        var edges = 0
        for y in 0..<size {
            for x in 0..<size {
                let drawn = Double(buffer.color(x: x, y: y).red) / 255
                let expected = reference(x, y, inside)
                if expected > 0 && expected < 1 { edges += 1 }
                let e = abs(drawn - expected)
                if e > worst {
                    worst = e
                    at = (x, y)
                }
            }
        }
        return (worst, at, edges)
    }

    static func turns(_ x: Double, _ y: Double, _ cx: Double, _ cy: Double) -> Double {
        Trigonometry.turnsClockwiseFromUp(dx: x - cx, dy: y - cy)
    }

    static func check(_ name: String, _ result: (error: Double, at: (Int, Int), edgePixels: Int)) {
        print("coverage \(name): max error \(result.error) at \(result.at) over \(result.edgePixels) edge pixels")
        #expect(result.edgePixels > 20, "\(name): the shape should have edges")
        #expect(result.error <= tolerance, "\(name): max error \(result.error) at \(result.at)")
    }

    @Test("disc")
    func disc() {
        let (cx, cy, r) = (20.3, 19.7, 12.4)
        Self.check("disc", Self.maxError { $0.fillDisc(center: Point(x: 20.3, y: 19.7), radius: 12.4, color: .white) } inside: {
            ($0 - cx) * ($0 - cx) + ($1 - cy) * ($1 - cy) <= r * r
        })
    }

    @Test("ring band (track only), centre on the pixel grid and off it", arguments: [(24.0, 24.0), (24.37, 23.81), (23.5, 24.5)])
    func band(center: (Double, Double)) {
        let (cx, cy) = center
        let (r, w) = (15.0, 6.0)
        let arc = ArcStroke(
            center: Point(x: Float(cx), y: Float(cy)), radius: Float(r), width: Float(w), sweep: nil,
            paint: .solid(.white), track: .white)
        Self.check("band \(center)", Self.maxError { $0.stroke(arc) } inside: {
            let d = (($0 - cx) * ($0 - cx) + ($1 - cy) * ($1 - cy)).squareRoot()
            return d >= r - w / 2 && d <= r + w / 2
        })
    }

    @Test("thin ring band (both edges in one pixel)")
    func thinBand() {
        let (cx, cy, r, w) = (24.0, 24.0, 17.2, 1.6)
        let arc = ArcStroke(
            center: Point(x: 24, y: 24), radius: Float(r), width: Float(w), sweep: nil, paint: .solid(.white),
            track: .white)
        Self.check("thin band", Self.maxError { $0.stroke(arc) } inside: {
            let d = (($0 - cx) * ($0 - cx) + ($1 - cy) * ($1 - cy)).squareRoot()
            return d >= r - w / 2 && d <= r + w / 2
        })
    }

    /// An arc with round caps: the band between the two angles, plus a disc of the stroke's
    /// width at each end.
    static func arcInside(cx: Double, cy: Double, r: Double, w: Double, start: Double, sweep: Double)
        -> (Double, Double) -> Bool
    {
        let s = Trigonometry.sinCos(turns: start), e = Trigonometry.sinCos(turns: start + sweep)
        let caps = [(cx + r * s.sin, cy - r * s.cos), (cx + r * e.sin, cy - r * e.cos)]
        return { x, y in
            for c in caps where (x - c.0) * (x - c.0) + (y - c.1) * (y - c.1) <= w * w / 4 { return true }
            let d = ((x - cx) * (x - cx) + (y - cy) * (y - cy)).squareRoot()
            guard d >= r - w / 2 && d <= r + w / 2 else { return false }
            var rel = turns(x, y, cx, cy) - start
            rel -= rel.rounded(.down)
            return rel <= sweep
        }
    }

    @Test("arc with round caps", arguments: [(0.0, 0.62), (0.1, 0.55), (0.8, 0.4), (0.33, 0.0)])
    func arc(start: Double, sweep: Double) {
        let (cx, cy, r, w) = (24.0, 24.0, 16.0, 7.0)
        let stroke = ArcStroke(
            center: Point(x: 24, y: 24), radius: 16, width: 7, start: start, sweep: sweep, paint: .solid(.white))
        Self.check("arc \(start)+\(sweep)", Self.maxError(draw: { $0.stroke(stroke) }, inside:
            Self.arcInside(cx: cx, cy: cy, r: r, w: w, start: start, sweep: sweep)))
    }

    @Test("arc with round caps, centre off the pixel grid")
    func arcOffGrid() {
        let (cx, cy, r, w) = (23.3, 24.6, 15.5, 6.4)
        let stroke = ArcStroke(
            center: Point(x: Float(cx), y: Float(cy)), radius: Float(r), width: Float(w), start: 0.2, sweep: 0.45,
            paint: .solid(.white))
        Self.check("arc off grid", Self.maxError(draw: { $0.stroke(stroke) }, inside:
            Self.arcInside(cx: cx, cy: cy, r: r, w: w, start: 0.2, sweep: 0.45)))
    }

    @Test("open track with round caps (a gauge's track)")
    func openTrack() {
        let (cx, cy, r, w) = (24.0, 24.0, 16.0, 6.0)
        let stroke = ArcStroke(
            center: Point(x: 24, y: 24), radius: 16, width: 6, start: 0.625, sweep: nil, paint: .solid(.white),
            track: .white, trackSweep: 0.75)
        Self.check("open track", Self.maxError(draw: { $0.stroke(stroke) }, inside:
            Self.arcInside(cx: cx, cy: cy, r: r, w: w, start: 0.625, sweep: 0.75)))
    }

    @Test("capsule")
    func capsule() {
        let a = (8.2, 10.7), b = (35.6, 28.1), r = 4.3
        Self.check("capsule", Self.maxError {
            $0.fillCapsule(from: Point(x: 8.2, y: 10.7), to: Point(x: 35.6, y: 28.1), radius: 4.3, color: .white)
        } inside: { x, y in
            let (dx, dy) = (b.0 - a.0, b.1 - a.1)
            let t = min(max(((x - a.0) * dx + (y - a.1) * dy) / (dx * dx + dy * dy), 0), 1)
            let (qx, qy) = (a.0 + t * dx, a.1 + t * dy)
            return (x - qx) * (x - qx) + (y - qy) * (y - qy) <= r * r
        })
    }

    @Test("rounded rectangle")
    func roundedRect() {
        let (x0, y0, w, h, r) = (5.3, 7.6, 30.2, 20.5, 6.1)
        Self.check("rounded rect", Self.maxError {
            $0.fillRoundedRect(Rect(x: 5.3, y: 7.6, width: 30.2, height: 20.5), radius: 6.1, color: .white)
        } inside: { x, y in
            guard x >= x0, x <= x0 + w, y >= y0, y <= y0 + h else { return false }
            let cx = min(max(x, x0 + r), x0 + w - r), cy = min(max(y, y0 + r), y0 + h - r)
            return (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r
        })
    }
}
