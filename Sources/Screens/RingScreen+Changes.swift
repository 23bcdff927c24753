import Activity
import Raster

extension RingScreen {
    /// What differs between two frames of the same day and layout whose summaries differ (the
    /// intro filling the rings, a value that moved): each ring's swept arc (its whole band once
    /// it runs past a turn, as its colours then move along it) and every line of text that
    /// changed, in the main group and the week strip. Found by laying both out (nothing drawn)
    /// and comparing what went where. Another day, name, week or context: nil (all of it).
    public func changes(since previous: any Screen, at previousTime: Double, now time: Double, size: Size) -> Damage? {
        guard let before = previous as? RingScreen, context.drawsLike(before.context) else { return nil }
        switch (before.mode, mode) {
        case (.ringsOnly(let s0), .ringsOnly(let s1)):
            if s0 == s1 { return Damage() }
            let all = Rect(x: 0, y: 0, width: Float(size.width), height: Float(size.height))
            return Self.ringChanges(RingSet(s0), RingSet(s1), in: all)
        case (.full(let c0), .full(let c1)):
            guard c0.name == c1.name, c0.day == c1.day, c0.today == c1.today, c0.week == c1.week else { return nil }
            if c0.summary == c1.summary { return Damage() }
            let a = before.layout(size)
            let b = layout(size)
            guard a.runs.count == b.runs.count, a.ringGroups.count == b.ringGroups.count,
                a.shapes.count == b.shapes.count, a.arcs.count == b.arcs.count,
                zip(a.shapes, b.shapes).allSatisfy({ $0.name == $1.name && $0.box == $1.box })
            else { return nil }
            var d = Damage()
            for (x, y) in zip(a.runs, b.runs) where x.text != y.text || x.box != y.box {
                d.add(ScreenDamage.text(x.box))
                d.add(ScreenDamage.text(y.box))
            }
            for i in 0..<a.ringGroups.count {
                guard a.ringGroups[i].rect == b.ringGroups[i].rect, let s0 = a.ringSets[i], let s1 = b.ringSets[i]
                else { return nil }
                if s0 != s1 { d.formUnion(Self.ringChanges(s0, s1, in: b.ringGroups[i].rect)) }
            }
            return d
        default:
            return nil
        }
    }

    /// What this screen draws where, for a picture of `size`, without drawing it (worked out
    /// once per screen: the next frame compares against it again).
    func layout(_ size: Size) -> LayoutProbe {
        if let (s, c, probe) = layoutMemo.layout, s == size, c.drawsLike(context) { return probe }
        let probe = LayoutProbe()
        defer { layoutMemo.layout = (size, context, probe) }
        var c = context
        c.probe = probe
        c.drawsText = false
        if case .full(let content) = mode {
            RingScreenPainter(content: content, context: c, size: size).draw(into: .measuring(size))
        }
        return probe
    }

    /// Where the rings of a group fitted into `rect` differ between `s0` and `s1`: the arc swept
    /// between two values under a turn (and the start cap, which the arc's end covers near a
    /// turn), else the whole ring.
    static func ringChanges(_ s0: RingSet, _ s1: RingSet, in rect: Rect) -> Damage {
        let g = RingGeometry(fitting: rect)
        let r0 = s0.rings, r1 = s1.rings
        guard g.lineWidth > 0 else { return Damage() }
        var d = Damage()
        for i in 0..<max(r0.count, r1.count) {
            let radius = g.radius(ring: i)
            guard radius > 0 else { continue }
            let a = i < r0.count ? r0[i] : nil
            let b = i < r1.count ? r1[i] : nil
            if let a, let b, a.ring == b.ring, a.state == b.state { continue }
            if let a, let b, a.ring == b.ring, case .progress(let p0) = a.state, case .progress(let p1) = b.state,
                p0 > 0, p0 <= 1, p1 > 0, p1 <= 1
            {
                d.formUnion(ScreenDamage.arcGrowth(center: g.center, radius: radius, width: g.lineWidth, from: p0, to: p1))
            } else {
                d.add(ScreenDamage.ring(center: g.center, radius: radius, width: g.lineWidth))
            }
        }
        return d
    }
}

/// A screen's layout kept with it once worked out.
final class LayoutMemo {
    var layout: (Size, ScreenContext, LayoutProbe)?
}
