import Activity
import Raster
import Screens
import Testing

/// The ring screen at the sizes of common panels, in every state rings.md names.
@Suite("Ring screen goldens", .timeLimit(.minutes(20)))
struct RingGoldenTests {
    static let cases: [(name: String, summary: ActivitySummary?)] = [
        ("zero", ActivitySummary(
            activeEnergyBurned: .kilocalories(0), activeEnergyBurnedGoal: .kilocalories(500),
            exerciseTime: 0, exerciseTimeGoal: 30, standHours: 0, standHoursGoal: 12)),
        ("dot", ActivitySummary(
            activeEnergyBurned: .kilocalories(0), activeEnergyBurnedGoal: .kilocalories(500),
            exerciseTime: 9, exerciseTimeGoal: 30, standHours: nil, standHoursGoal: 12)),
        ("p37", ActivitySummary(
            activeEnergyBurned: .kilocalories(185), activeEnergyBurnedGoal: .kilocalories(500),
            exerciseTime: 11.1, exerciseTimeGoal: 30, standHours: 4.44, standHoursGoal: 12)),
        ("p100", ActivitySummary(
            activeEnergyBurned: .kilocalories(500), activeEnergyBurnedGoal: .kilocalories(500),
            exerciseTime: 30, exerciseTimeGoal: 30, standHours: 12, standHoursGoal: 12)),
        ("p135", ActivitySummary(
            activeEnergyBurned: .kilocalories(675), activeEnergyBurnedGoal: .kilocalories(500),
            exerciseTime: 40.5, exerciseTimeGoal: 30, standHours: 16.2, standHoursGoal: 12)),
        ("p250", ActivitySummary(
            activeEnergyBurned: .kilocalories(1250), activeEnergyBurnedGoal: .kilocalories(500),
            exerciseTime: 75, exerciseTimeGoal: 30, standHours: 30, standHoursGoal: 12)),
        ("empty", nil),
        ("moveonly", ActivitySummary(moveTime: 20, moveTimeGoal: 30, moveMode: .moveTime)),
    ]

    static let sizes = [
        Size(width: 480, height: 480), Size(width: 800, height: 480), Size(width: 720, height: 1280),
        Size(width: 240, height: 240),
    ]

    static let typical = ActivitySummary(
        activeEnergyBurned: .kilocalories(375), activeEnergyBurnedGoal: .kilocalories(500),
        exerciseTime: 15, exerciseTimeGoal: 30, standHours: 14.4, standHoursGoal: 12)

    @Test("every state at every size", arguments: cases.indices, sizes)
    func states(index: Int, size: Size) {
        let c = Self.cases[index]
        let frame = FrameComposer(panel: size).render(RingScreen(summary: c.summary))
        GoldenImage.expectMatches(frame, named: "rings-\(c.name)-\(size)")
    }

    @Test("the benchmark day (75 %, 50 %, 120 %)")
    func typical() {
        GoldenImage.expectMatches(
            FrameComposer(panel: Size(width: 480, height: 480)).render(RingScreen(summary: Self.typical)),
            named: "rings-typical-480x480")
    }

    @Test("a panel mounted a quarter turn: 800x480 drawn as 480x800 and turned")
    func rotated() {
        GoldenImage.expectMatches(
            FrameComposer(panel: Size(width: 800, height: 480), rotation: .quarter).render(RingScreen(summary: Self.typical)),
            named: "rings-typical-800x480-rotate90")
    }

    @Test("an RGB565 panel (dithered)")
    func rgb565() {
        GoldenImage.expectMatches(
            FrameComposer(panel: Size(width: 240, height: 240), format: .rgb565).render(RingScreen(summary: Self.typical)),
            named: "rings-typical-240x240-rgb565")
    }
}
