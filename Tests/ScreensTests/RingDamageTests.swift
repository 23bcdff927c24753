import Activity
import Raster
@testable import Screens
import Testing

/// The ring screen's damage comes from its layout (`RingScreenLayout`): the rings and the lines
/// that changed between two frames' layouts, where the layout put them, and nothing else.
@Suite("Ring screen: damage from its layout", .timeLimit(.minutes(20)))
struct RingDamageTests {
    static func screen(
        _ summary: ActivitySummary?, shape: PanelShape = .rectangle, clock: ClockFace? = nil, _ fonts: Fonts
    ) throws -> RingScreen {
        RingScreen(
            content: RingScreenContent(
                name: "Karan", day: ScreenGoldenTests.today, today: ScreenGoldenTests.today, summary: summary,
                week: ScreenGoldenTests.week, clock: clock),
            context: ScreenContext(text: try fonts(.english), shape: shape))
    }

    /// The day's summary with other exercise minutes (15 of 30 in the day itself).
    static func exercise(_ minutes: Double) -> ActivitySummary {
        var s = ScreenGoldenTests.todaySummary
        s.exerciseTime = minutes
        return s
    }

    /// Whether `damage` holds every pixel of `rect`.
    static func covers(_ damage: Damage, _ rect: IntRect) -> Bool {
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX where !damage.contains(x: x, y: y) { return false }
        }
        return true
    }

    /// Whether `damage` holds any pixel of `rect`.
    static func touches(_ damage: Damage, _ rect: Rect) -> Bool {
        damage.rects.contains { !$0.intersection(rect.enclosingPixels).isEmpty }
    }

    /// The main group of rings (the largest) and the week strip's, Monday first.
    static func groups(_ layout: RingScreenLayout) -> (main: Rect, week: [Rect]) {
        let rects = layout.ringGroups.map(\.rect)
        let main = rects.max { $0.width < $1.width }!
        return (main, rects.filter { $0 != main })
    }

    static let tenNine = ClockFace(time: TimeOfDay(hour: 10, minute: 9)!, twelveHour: false)

    @Test("what the screen draws is its layout: every line and group of rings where the layout put it")
    func drawnIsLaidOut() throws {
        let fonts = Fonts()
        for (size, shape) in LayoutCheck.sizes {
            let screen = try Self.screen(ScreenGoldenTests.todaySummary, shape: shape, clock: Self.tenNine, fonts)
            let drawn = Explanation(of: screen, size: size, shape: shape)
            let layout = screen.layout(size)
            var laid: [(String, String, Rect)] = []
            for case .text(let t) in layout.items where !t.line.text.isEmpty {
                laid.append((t.element, t.line.text, t.line.box))
            }
            #expect(drawn.texts.map(\.element) == laid.map(\.0), "\(size) \(shape)")
            #expect(drawn.texts.map(\.text) == laid.map(\.1), "\(size) \(shape)")
            #expect(drawn.texts.map(\.box) == laid.map(\.2), "\(size) \(shape)")
            #expect(drawn.rings.map(\.rect) == layout.ringGroups.map(\.rect), "\(size) \(shape)")
            // A pure function of the content, the context and the size: the same again.
            let again = try Self.screen(ScreenGoldenTests.todaySummary, shape: shape, clock: Self.tenNine, fonts)
            #expect(again.layout(size) == layout, "\(size) \(shape)")
            // Drawn without its text (explained, the benchmark's bare frame): laid out the same.
            var bare = try Self.screen(ScreenGoldenTests.todaySummary, shape: shape, clock: Self.tenNine, fonts)
            bare.context.drawsText = false
            #expect(bare.layout(size) == layout, "\(size) \(shape) without text")
        }
    }

    @Test("one ring's value changes: its arc in the main group, its figure, the day's cell of the week, nothing else")
    func oneRing() throws {
        let fonts = Fonts()
        for (size, shape) in LayoutCheck.sizes {
            var a = try Self.screen(Self.exercise(15), shape: shape, fonts)
            var b = try Self.screen(Self.exercise(21), shape: shape, fonts)
            // In pages (a small or round panel): the exercise figure's page, with the day's rings
            // small over it.
            if a.pageCount(for: size) > 1 {
                a = a.showing(page: 2)
                b = b.showing(page: 2)
            }
            let name = "\(size) \(shape) page \(a.page + 1)"
            guard let d = b.changes(since: a, at: 0, now: 0.1, size: size) else {
                Issue.record("\(name): no damage worked out")
                continue
            }
            let la = a.layout(size), lb = b.layout(size)
            guard !lb.ringGroups.isEmpty else {
                // A round panel's figure page: the figure alone, no rings over it.
                #expect(shape == .round && a.pageCount(for: size) > 1, "\(name): no rings drawn")
                var changed: [String] = []
                for case (.text(let x), .text(let y)) in zip(la.items, lb.items) where x.line != y.line { changed.append(x.element) }
                #expect(changed.first == "rings.figure.exercise.value", "\(name): \(changed)")
                continue
            }
            let (main, week) = Self.groups(lb)
            #expect(Self.groups(la).main == main, "\(name): the rings stay where they are")
            // The exercise ring (the second) swept from half its goal to 70 %: that arc.
            let g = RingGeometry(fitting: main)
            var expected = ScreenDamage.arcGrowth(
                center: g.center, radius: g.radius(ring: 1), width: g.lineWidth, from: 0.5, to: 0.7)
            // Not the other two rings: their tops (above the centre, where the arc is not).
            for ring in [0, 2] {
                let top = Rect(x: g.center.x - 1, y: g.center.y - g.radius(ring: ring) - 1, width: 2, height: 2)
                #expect(!Self.touches(d, top), "\(name): ring \(ring)'s top in \(d)")
            }
            // The exercise figure's value (and its unit, where that moved), where it was and where
            // it is; no other line.
            var changed: [String] = []
            for case (.text(let x), .text(let y)) in zip(la.items, lb.items) where x.line != y.line {
                changed.append(x.element)
                expected.add(ScreenDamage.text(x.line.box))
                expected.add(ScreenDamage.text(y.line.box))
            }
            #expect(changed.first == "rings.figure.exercise.value", "\(name): \(changed)")
            #expect(Set(changed).isSubset(of: ["rings.figure.exercise.value", "rings.figure.exercise.unit"]),
                    "\(name): \(changed)")
            for element in ["rings.day", "rings.name", "rings.date"] {
                guard let line = lb.text(element), !line.text.isEmpty else { continue }
                #expect(!Self.touches(d, line.box), "\(name): \(element) \(line.box) in \(d)")
            }
            // The week strip: the day's own cell (today, Sunday: the last), its exercise arc; not
            // the six before it.
            if week.count == 7 {
                let w = RingGeometry(fitting: week[6])
                expected.formUnion(ScreenDamage.arcGrowth(
                    center: w.center, radius: w.radius(ring: 1), width: w.lineWidth, from: 0.5, to: 0.7))
                for (i, cell) in week.dropLast().enumerated() {
                    #expect(!Self.touches(d, cell), "\(name): day \(i + 1) of the week \(cell) in \(d)")
                }
            }
            // All of that, and nothing else.
            #expect(expected.rects.allSatisfy { Self.covers(d, $0) }, "\(name): \(expected) in \(d)")
            #expect(d.rects.allSatisfy { Self.covers(expected, $0) }, "\(name): \(d) within \(expected)")
            DamageTests.expectDamagedEqualsWhole([(a, 0), (b, 0.1)], panel: size, buffers: [1], name)
        }
    }

    @Test("a value that widens moves its unit: both of the unit's places; a figure that reads the same is left alone")
    func unitMoves() throws {
        let fonts = Fonts()
        let size = Size(width: 800, height: 480)
        var s0 = Self.exercise(9), s1 = Self.exercise(10)
        // Stand 14.4 → 14.3 h: the ring moves (past its goal: all of it), "14/12" reads the same.
        s0.standHours = 14.4
        s1.standHours = 14.3
        let a = try Self.screen(s0, fonts), b = try Self.screen(s1, fonts)
        let d = try #require(b.changes(since: a, at: 0, now: 0.1, size: size))
        let la = a.layout(size), lb = b.layout(size)
        let u0 = try #require(la.text("rings.figure.exercise.unit"))
        let u1 = try #require(lb.text("rings.figure.exercise.unit"))
        #expect(u0.text == u1.text && u0.box.x < u1.box.x, "the unit moves right: \(u0.box) → \(u1.box)")
        #expect(Self.covers(d, ScreenDamage.text(u0.box)) && Self.covers(d, ScreenDamage.text(u1.box)), "\(d)")
        let stand = try #require(lb.text("rings.figure.stand.value"))
        #expect(la.text("rings.figure.stand.value") == stand)
        #expect(!Self.touches(d, stand.box), "the stand value reads the same: \(stand.box) in \(d)")
        let g = RingGeometry(fitting: Self.groups(lb).main)
        #expect(Self.covers(d, ScreenDamage.ring(center: g.center, radius: g.radius(ring: 2), width: g.lineWidth)),
                "the stand ring, past its goal, whole")
        DamageTests.expectDamagedEqualsWhole([(a, 0), (b, 0.1)], panel: size, "unit")
    }

    @Test("the time in the header changes, the day does not: the time's line (and what moved with it), not the rings")
    func time() throws {
        let fonts = Fonts()
        let t0 = Self.tenNine
        let t1 = ClockFace(time: TimeOfDay(hour: 10, minute: 10)!, twelveHour: false)
        for (size, shape) in LayoutCheck.sizes {
            let name = "\(size) \(shape)"
            let a = try Self.screen(ScreenGoldenTests.todaySummary, shape: shape, clock: t0, fonts)
            let b = try Self.screen(ScreenGoldenTests.todaySummary, shape: shape, clock: t1, fonts)
            let d = try #require(b.changes(since: a, at: 0, now: 60, size: size), "\(name)")
            let lb = b.layout(size)
            if let time = lb.text("rings.time"), let was = a.layout(size).text("rings.time") {
                #expect(Self.covers(d, ScreenDamage.text(was.box)) && Self.covers(d, ScreenDamage.text(time.box)),
                        "\(name): the time \(time.box) in \(d)")
            } else {
                #expect(d.isEmpty, "\(name): no time shown, nothing changes: \(d)")
            }
            // Not the rings: where the header sits right over them (a page of a small panel) the
            // time's overhang may graze the outer ring's top, never the two inside it.
            for group in lb.ringGroups {
                let g = RingGeometry(fitting: group.rect)
                let r = g.radius(ring: 1) + g.lineWidth / 2
                let inner = Rect(x: g.center.x - r, y: g.center.y - r, width: 2 * r, height: 2 * r)
                #expect(!Self.touches(d, inner), "\(name): rings \(inner) in \(d)")
            }
            DamageTests.expectDamagedEqualsWhole([(a, 0), (b, 60)], panel: size, buffers: [1], name)
        }
    }

    @Test("another day: its header, rings, figures and the week's selected day, not the whole picture; every frame as drawn whole")
    func dayChange() throws {
        let fonts = Fonts()
        let today = ScreenGoldenTests.today, yesterday = today.adding(days: -1)
        var week = ScreenGoldenTests.week
        week[today] = ScreenGoldenTests.todaySummary
        for (size, shape) in LayoutCheck.sizes {
            let name = "\(size) \(shape)"
            let context = ScreenContext(text: try fonts(.english), shape: shape)
            func screen(_ day: CalendarDay) -> RingScreen {
                RingScreen(
                    content: RingScreenContent(
                        name: "Karan", day: day, today: today, summary: week[day], week: week, clock: Self.tenNine),
                    context: context)
            }
            let a = screen(today), b = screen(yesterday)
            guard let d = b.changes(since: a, at: 0, now: 0.1, size: size) else {
                Issue.record("\(name): drawn whole")
                continue
            }
            // Less than the whole picture (the rings past their goal are redrawn whole, and on a
            // round panel move a pixel with the header's other line).
            let shown = d.clipped(to: IntRect(size: size))
            #expect(!shown.isEmpty && shown.area < size.width * size.height * 9 / 10, "\(name): \(d)")
            // On the small panels (a wire sends what is damaged) whose rings they are is not
            // redrawn: the top of the name's line is left alone (the outer ring's box may reach
            // its foot).
            let la = a.layout(size), lb = b.layout(size)
            if max(size.width, size.height) <= 320, let line = lb.text("rings.name"), !line.text.isEmpty,
                la.text("rings.name") == line
            {
                let top = Rect(x: line.box.x, y: line.box.y, width: line.box.width, height: line.box.height / 3)
                #expect(!Self.touches(d, top), "\(name): the name \(line.box) in \(d)")
            }
            DamageTests.expectDamagedEqualsWhole([(a, 0), (b, 0.1), (a, 0.2)], panel: size, name)
            if size.width <= 320 {
                DamageTests.expectDamagedEqualsWhole(
                    [(a, 0), (b, 0.1), (a, 0.2)], panel: size, format: .rgb565, name + " RGB565")
            }
        }
    }
}
