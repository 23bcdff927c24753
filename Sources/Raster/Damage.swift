/// Where a picture changed: a few rectangles of pixels that do not overlap (a pixel drawn
/// twice would be blended twice).
///
/// A rectangle that overlaps another is merged with it into their bounding box when that box is
/// at most a quarter larger than the two together, else cut into the parts the others leave; beyond `capacity`
/// rectangles, the two whose box adds the fewest pixels are merged. Empty damage: nothing
/// changed.
public struct Damage: Sendable, Hashable, CustomStringConvertible {
    public private(set) var rects: [IntRect] = []

    /// The most rectangles kept (a DRM damage clip list; a drawing pass each).
    public static let capacity = 16

    public init() {}

    public init(_ rect: IntRect) { add(rect) }

    public init(_ rects: [IntRect]) {
        for r in rects { add(r) }
    }

    public var isEmpty: Bool { rects.isEmpty }

    /// The box holding every rectangle (empty when nothing changed).
    public var bounds: IntRect {
        rects.reduce(IntRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) }
    }

    /// Pixels changed.
    public var area: Int { rects.reduce(0) { $0 + $1.width * $1.height } }

    /// Adds `rect` (an empty one changes nothing).
    public mutating func add(_ rect: IntRect) {
        guard !rect.isEmpty else { return }
        var r = rect
        var i = 0
        // Whether `r` overlaps any rectangle left, as the last pass over them (the one without
        // a merge) found.
        var overlapsOne = false
        while i < rects.count {
            let o = rects[i]
            if Self.contains(o, r) { return }
            let overlaps = !o.intersection(r).isEmpty
            if Self.contains(r, o) || (overlaps && Self.mergeable(box: o.union(r), o, r)) {
                // Held by the new one, or merged with it at little cost: start again with the box.
                r = o.union(r)
                rects.remove(at: i)
                i = 0
                overlapsOne = false
            } else {
                if overlaps { overlapsOne = true }
                i += 1
            }
        }
        // What the others leave of it (most often all of it).
        if !overlapsOne {
            rects.append(r)
        } else {
            var pieces = [r]
            for o in rects {
                pieces = pieces.flatMap { Self.subtract(o, from: $0) }
            }
            rects += pieces
        }
        while rects.count > Self.capacity { mergeCheapestPair() }
    }

    /// Two rectangles into their bounding box, the pair that box adds the fewest pixels for;
    /// whatever else the box then overlaps goes into it too (so the rectangles stay disjoint
    /// and fewer).
    private mutating func mergeCheapestPair() {
        var best = (0, 1, Int.max)
        for a in 0..<rects.count {
            for b in (a + 1)..<rects.count {
                let box = rects[a].union(rects[b])
                let extra = box.width * box.height - rects[a].width * rects[a].height - rects[b].width * rects[b].height
                if extra < best.2 { best = (a, b, extra) }
            }
        }
        var box = rects[best.0].union(rects[best.1])
        rects.remove(at: best.1)
        rects.remove(at: best.0)
        var i = 0
        while i < rects.count {
            if !rects[i].intersection(box).isEmpty {
                box = box.union(rects[i])
                rects.remove(at: i)
                i = 0
            } else {
                i += 1
            }
        }
        rects.append(box)
    }

    /// Whether two overlapping rectangles are better drawn as their bounding box than cut apart:
    /// the box adds at most a quarter to their areas. Each rectangle is a drawing pass, with a cost
    /// per row and per pass besides its pixels, and cutting one around another makes up to four;
    /// two boxes of an arc's end in consecutive frames (offset along a diagonal) are one box.
    static func mergeable(box: IntRect, _ a: IntRect, _ b: IntRect) -> Bool {
        4 * box.width * box.height <= 5 * (a.width * a.height + b.width * b.height)
    }

    static func contains(_ a: IntRect, _ b: IntRect) -> Bool {
        b.x >= a.x && b.y >= a.y && b.maxX <= a.maxX && b.maxY <= a.maxY
    }

    /// `r` less `o`: up to four rectangles (above, below, left, right of `o`).
    static func subtract(_ o: IntRect, from r: IntRect) -> [IntRect] {
        let c = r.intersection(o)
        guard !c.isEmpty else { return [r] }
        return [
            IntRect(x: r.x, y: r.y, width: r.width, height: c.y - r.y),
            IntRect(x: r.x, y: c.maxY, width: r.width, height: r.maxY - c.maxY),
            IntRect(x: r.x, y: c.y, width: c.x - r.x, height: c.height),
            IntRect(x: c.maxX, y: c.y, width: r.maxX - c.maxX, height: c.height),
        ].filter { !$0.isEmpty }
    }

    public mutating func formUnion(_ other: Damage) {
        for r in other.rects { add(r) }
    }

    public func union(_ other: Damage) -> Damage {
        var d = self
        d.formUnion(other)
        return d
    }

    /// The damage within `rect`.
    public func clipped(to rect: IntRect) -> Damage {
        if Self.contains(rect, bounds) { return self }
        var d = Damage()
        // Already disjoint: what is left of each stays so.
        d.rects = rects.map { $0.intersection(rect) }.filter { !$0.isEmpty }
        return d
    }

    /// Whether pixel (x, y) is in it.
    public func contains(x: Int, y: Int) -> Bool {
        rects.contains { x >= $0.x && x < $0.maxX && y >= $0.y && y < $0.maxY }
    }

    public var description: String { rects.isEmpty ? "none" : rects.map(\.description).joined(separator: ",") }
}
