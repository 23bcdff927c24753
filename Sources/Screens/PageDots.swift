import Raster

/// The dots that say a screen is in pages and which one shows: a column of them along the right
/// edge (as a watch puts them beside its crown), the page shown white, the others grey; about
/// 0.8 mm each on the panel.
struct PageDots {
    static let shown = Color(hex: 0xFFFFFF)
    static let other = Color(hex: 0x5A5A5E)

    let count: Int
    let page: Int
    /// A dot's diameter in pixels, and the gap between two.
    let diameter: Float
    var gap: Float { diameter * 0.9 }

    init(count: Int, page: Int, scale: TypeScale) {
        self.count = count
        self.page = page
        diameter = max(5, (Float(scale.viewing.pixelsPerMillimetre) * 0.8).rounded())
    }

    /// The column's height.
    var length: Float { Float(count) * diameter + Float(max(0, count - 1)) * gap }

    /// How far from the right edge the column's room reaches (what a layout keeps free): the
    /// dots and a margin on either side of them.
    func room(margin: Float) -> Float { count > 1 ? diameter + 2 * margin : 0 }

    /// The dots' centres on a picture `w` × `h` (a round panel: inside its circle), `margin` from
    /// the edge.
    func centres(w: Float, h: Float, round: Bool, margin: Float) -> [Point] {
        guard count > 1 else { return [] }
        let cy = h / 2
        var x = w - margin - diameter / 2
        if round {
            // Inside the circle at the column's ends.
            let r = min(w, h) / 2, half = length / 2
            x = w / 2 + (max(0, r * r - half * half)).squareRoot() - margin - diameter / 2
        }
        let top = cy - length / 2 + diameter / 2
        return (0..<count).map { Point(x: x, y: top + Float($0) * (diameter + gap)) }
    }

    /// The discs to draw.
    func discs(w: Float, h: Float, round: Bool, margin: Float) -> [(center: Point, radius: Float, color: Color)] {
        centres(w: w, h: h, round: round, margin: margin).enumerated().map {
            ($0.element, diameter / 2, $0.offset == page ? Self.shown : Self.other)
        }
    }
}
