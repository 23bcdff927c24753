import Activity
import Raster
import Screens
import Testing

@Suite("Ring geometry and colours (rings.md)", .timeLimit(.minutes(20)))
struct RingGeometryTests {
    @Test("line width ≈ 0.10·D, gap ≈ 0.07·w (≥ 1 px), outer margin ≥ gap", arguments: [480, 240, 64, 1280])
    func proportions(side: Int) {
        let rect = Rect(x: 0, y: 0, width: Float(side), height: Float(side) * 1.7)
        let g = RingGeometry(fitting: rect)
        #expect(abs(g.lineWidth - 0.10 * g.diameter) < 1e-3)
        #expect(g.gap >= 1)
        #expect(g.gap >= 0.07 * g.lineWidth - 1e-3)
        let margin = (Float(side) - g.diameter) / 2
        #expect(margin >= g.gap - 1e-3, "margin \(margin), gap \(g.gap)")
        #expect(g.diameter > Float(side) * 0.95, "the rings fill the short side")
        // Centred.
        #expect(g.center == rect.center)
    }

    @Test("rings are concentric bands one gap apart, outermost first")
    func radii() {
        let g = RingGeometry(fitting: Rect(x: 0, y: 0, width: 480, height: 480))
        for i in 0..<2 {
            let outerEdgeOfInner = g.radius(ring: i + 1) + g.lineWidth / 2
            let innerEdgeOfOuter = g.radius(ring: i) - g.lineWidth / 2
            #expect(abs(innerEdgeOfOuter - outerEdgeOfInner - g.gap) < 1e-3)
        }
        #expect(abs(g.radius(ring: 0) + g.lineWidth / 2 - g.diameter / 2) < 1e-3)
    }

    @Test("exact ring colours; track = start colour at 20 % on black")
    func colours() {
        #expect(RingStyle.colors(.move).start == Color(hex: 0xE10014))
        #expect(RingStyle.colors(.move).end == Color(hex: 0xFF3287))
        #expect(RingStyle.colors(.exercise).start == Color(hex: 0x37DC00))
        #expect(RingStyle.colors(.exercise).end == Color(hex: 0xB7FF00))
        #expect(RingStyle.colors(.stand).start == Color(hex: 0x00BAE1))
        #expect(RingStyle.colors(.stand).end == Color(hex: 0x00FAD0))
        #expect(RingStyle.track(.move) == Color(red: 45, green: 0, blue: 4))
    }

    @Test("drawn: the dot sits at 12 o'clock in the start colour; an empty ring is only the track")
    func drawnStates() {
        let size = Size(width: 480, height: 480)
        let s = ActivitySummary(
            activeEnergyBurned: .kilocalories(0), activeEnergyBurnedGoal: .kilocalories(500),
            exerciseTime: nil, exerciseTimeGoal: 30, standHours: 6, standHoursGoal: 12)
        let frame = FrameComposer(panel: size).render(RingScreen(summary: s))
        let g = RingGeometry(fitting: Rect(x: 0, y: 0, width: 480, height: 480))
        let top = Int(240 - g.radius(ring: 0))
        #expect(frame.color(x: 240, y: top) == RingStyle.colors(.move).start, "dot at 12 o'clock")
        #expect(frame.color(x: 240, y: 480 - top) == RingStyle.track(.move), "rest of Move is track")
        let exerciseTop = Int(240 - g.radius(ring: 1))
        #expect(frame.color(x: 240, y: exerciseTop) == RingStyle.track(.exercise), "empty Exercise ring")
        #expect(frame.color(x: 240 + Int(g.radius(ring: 1)), y: 240) == RingStyle.track(.exercise))
        // Background is black, corners included.
        #expect(frame.color(x: 0, y: 0) == .black && frame.color(x: 479, y: 479) == .black)
    }

    @Test("Move alone keeps the outer ring's diameter and width")
    func moveOnlyGeometry() {
        let size = Size(width: 480, height: 480)
        let three = FrameComposer(panel: size).render(RingScreen(summary: ActivitySummary(
            activeEnergyBurned: .kilocalories(100), activeEnergyBurnedGoal: .kilocalories(500),
            exerciseTime: 1, exerciseTimeGoal: 30, standHours: 1, standHoursGoal: 12)))
        let one = FrameComposer(panel: size).render(RingScreen(summary: ActivitySummary(
            activeEnergyBurned: .kilocalories(100), activeEnergyBurnedGoal: .kilocalories(500))))
        // Along the left horizontal radius, the Move band covers the same pixels in both.
        for x in 0..<240 {
            let a = three.color(x: x, y: 240), b = one.color(x: x, y: 240)
            let moveA = a.red > a.green && a.red > a.blue, moveB = b.red > b.green && b.red > b.blue
            #expect(moveA == moveB, "x = \(x)")
        }
        // And nothing inside it.
        #expect(one.color(x: 240 - Int(RingGeometry(fitting: Rect(x: 0, y: 0, width: 480, height: 480)).radius(ring: 1)), y: 240) == .black)
    }
}
