import Activity
import Raster

/// Where the ring screen puts what it draws on a picture of one size, in the order it draws it:
/// each group of rings (the rect it is fitted into and what it shows), each line of text (with
/// the element it belongs to, `Explanation`) and the disc under the week strip's selected day.
/// A plain value worked out by a pure function of the screen's content, its context (whose
/// fonts measure the text) and the size (`RingScreen.layout`): `draw` paints it, `changes`
/// compares two of them.
struct RingScreenLayout: Equatable {
    enum Item: Equatable {
        case rings(Rect, RingSet)
        case text(ElementLine)
        case disc(center: Point, radius: Float, color: Color)

        static func text(_ line: PlacedText, element: String) -> Item { .text(ElementLine(line: line, element: element)) }
    }

    /// A line of text and the element it belongs to. (A struct, not two values of the case: a
    /// case's values are a tuple, which brings the runtime's tuple metadata code into the first
    /// frame, docs/speed.md.)
    struct ElementLine: Equatable {
        let line: PlacedText
        let element: String
    }

    var items: [Item] = []
    /// The page shown and how many there are (one: the screen is not in pages).
    var page = 0
    var pageCount = 1
    /// What was left out, and why (`Explanation.omitted`).
    var omitted: [Omission] = []

    /// The ring groups, in the order drawn.
    var ringGroups: [(rect: Rect, rings: RingSet)] {
        var groups: [(rect: Rect, rings: RingSet)] = []
        for case .rings(let rect, let set) in items { groups.append((rect, set)) }
        return groups
    }

    /// The line of text of `element` (the first, where there are more).
    func text(_ element: String) -> PlacedText? {
        for case .text(let t) in items where t.element == element { return t.line }
        return nil
    }

    /// Paints the layout (over the black the screen fills with), telling the context's probe
    /// what went where.
    func draw(into buffer: PixelBuffer, context: ScreenContext) {
        let text = TextLayout(drawing: context)
        if let probe = context.probe {
            probe.pages(page, of: pageCount)
            for o in omitted { probe.omit(o) }
        }
        for item in items {
            switch item {
            case .rings(let rect, let set):
                context.probe?.rings(rect, set)
                ActivityRingsView(rings: set).draw(into: buffer, in: rect)
            case .text(let t):
                text.draw(t.line, element: t.element, into: buffer)
            case .disc(let center, let radius, let color):
                buffer.fillDisc(center: center, radius: radius, color: color)
            }
        }
    }

    /// Where a picture of this layout differs from one of `previous`: in each group of rings that
    /// shows other values, what its rings changed (`RingScreen.ringChanges`); each line of text
    /// and disc drawn otherwise, and each group of rings drawn elsewhere, where it was and where
    /// it is. nil when the two are not laid out alike (other items). The picture is the black it
    /// is filled with and these items, so nothing else differs.
    func changes(since previous: RingScreenLayout) -> Damage? {
        guard items.count == previous.items.count else { return nil }
        var d = Damage()
        for (a, b) in zip(previous.items, items) {
            switch (a, b) {
            case (.text(let x), .text(let y)):
                if !x.line.drawsLike(y.line) {
                    d.add(ScreenDamage.text(x.line.box))
                    d.add(ScreenDamage.text(y.line.box))
                }
            case (.rings(let r0, let s0), .rings(let r1, let s1)):
                if r0 != r1 {
                    // Moved (a header of another height over them): all of them, here and there.
                    for rect in [r0, r1] {
                        let g = RingGeometry(fitting: rect)
                        if g.lineWidth > 0 { d.add(ScreenDamage.ring(center: g.center, radius: g.radius(ring: 0), width: g.lineWidth)) }
                    }
                } else if s0 != s1 {
                    d.formUnion(RingScreen.ringChanges(s0, s1, in: r1))
                }
            case (.disc(let c0, let r0, _), .disc(let c1, let r1, _)):
                // The week strip's selected day: where it was and where it is.
                if a != b {
                    d.add(ScreenDamage.disc(center: c0, radius: r0))
                    d.add(ScreenDamage.disc(center: c1, radius: r1))
                }
            default:
                // A disc drawn before another item than before (the selected day moved along the
                // week strip): the discs taken apart.
                return discsMoved(since: previous)
            }
        }
        return d
    }

    /// Where a picture of this layout differs from one of `previous` whose discs are drawn at
    /// other places in the order: the other items compared as `changes` does, and every disc of
    /// both where it is. nil when there are no discs to take apart, or the rest differs in kind.
    func discsMoved(since previous: RingScreenLayout) -> Damage? {
        func apart(_ layout: RingScreenLayout) -> (rest: RingScreenLayout, discs: [(Point, Float)]) {
            var rest = RingScreenLayout()
            var discs: [(Point, Float)] = []
            for item in layout.items {
                if case .disc(let center, let radius, _) = item { discs.append((center, radius)) } else { rest.items.append(item) }
            }
            return (rest, discs)
        }
        let (rest0, discs0) = apart(previous), (rest1, discs1) = apart(self)
        guard !discs0.isEmpty || !discs1.isEmpty, var d = rest1.changes(since: rest0) else { return nil }
        for (center, radius) in discs0 + discs1 { d.add(ScreenDamage.disc(center: center, radius: radius)) }
        return d
    }
}

extension PlacedText {
    /// Whether two lines draw the same pixels: the same text, style and colour at the same place.
    func drawsLike(_ other: PlacedText) -> Bool {
        text == other.text && box == other.box && baseline == other.baseline && style == other.style
            && color == other.color
    }
}

extension RingScreen {
    /// What differs between two frames whose content differs (the intro filling the rings, a value
    /// that moved, the time in the header, another day): the difference of their layouts
    /// (`RingScreenLayout.changes`), each ring's swept arc (its whole band once it runs past a
    /// turn, as its colours then move along it), every line of text drawn otherwise and the
    /// selected day's disc, in the main group and the week strip. Another page or context, or
    /// layouts that differ in more than that: nil (all of it).
    public func changes(since previous: any Screen, at previousTime: Double, now time: Double, size: Size) -> Damage? {
        guard let before = previous as? RingScreen, context.drawsLike(before.context) else { return nil }
        switch (before.mode, mode) {
        case (.ringsOnly(let s0), .ringsOnly(let s1)):
            if s0 == s1 { return Damage() }
        case (.full(let c0), .full(let c1)):
            guard c0.page == c1.page else { return nil }
            if c0.name == c1.name && c0.day == c1.day && c0.today == c1.today && c0.week == c1.week && c0.hint == c1.hint
                && c0.summary == c1.summary && c0.clock == c1.clock && c0.clockOnTiny == c1.clockOnTiny
            {
                return Damage()
            }
        default:
            return nil
        }
        return layout(size).changes(since: before.layout(size))
    }

    /// Where this screen puts what it draws on a picture of `size` (worked out once per screen
    /// and fonts: drawn again, explained, or compared by the next frame, it is not worked out
    /// again).
    func layout(_ size: Size) -> RingScreenLayout {
        if let entry = layoutMemo.entry, entry.size == size, entry.context.laysOutLike(context) { return entry.layout }
        let layout: RingScreenLayout
        switch mode {
        case .ringsOnly(let summary):
            let all = Rect(x: 0, y: 0, width: Float(size.width), height: Float(size.height))
            layout = RingScreenLayout(items: [.rings(all, RingSet(summary))])
        case .full(let content):
            layout = RingScreenLayouter(content: content, context: context, size: size).layout()
        }
        var c = context
        c.probe = nil
        layoutMemo.entry = LayoutMemo.Entry(size: size, context: c, layout: layout)
        return layout
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

/// A ring screen's layout once worked out, with the size and context it was worked out for.
final class LayoutMemo {
    /// (A struct, not a tuple: a tuple here brings the runtime's tuple metadata code into the
    /// first frame, docs/speed.md.)
    struct Entry {
        let size: Size
        let context: ScreenContext
        let layout: RingScreenLayout
    }
    var entry: Entry?
}
