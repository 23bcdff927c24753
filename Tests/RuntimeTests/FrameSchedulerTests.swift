@testable import DeviceLogic
import Activity
import Raster
import Screens
import Testing

@testable import Runtime

@Suite(.timeLimit(.minutes(10))) struct FrameSchedulerTests {
    let interval = Duration.milliseconds(16)

    @Test func drawsTheFirstFrameAtOnce() {
        let s = FrameScheduler(interval: interval)
        #expect(s.decide(now: .seconds(5), flipPending: false) == .draw)
    }

    @Test func aStillSceneSleepsWithoutATimer() {
        var s = FrameScheduler(interval: interval)
        s.drew(at: .seconds(1), animating: false)
        #expect(s.decide(now: .seconds(1), flipPending: false) == .wait(until: nil))
        #expect(s.decide(now: .seconds(100), flipPending: false) == .wait(until: nil))
    }

    @Test func anAnimationIsPacedByTheInterval() {
        var s = FrameScheduler(interval: interval)
        s.drew(at: .seconds(1), animating: true)
        #expect(
            s.decide(now: .seconds(1) + .milliseconds(5), flipPending: false) == .wait(until: .seconds(1) + interval))
        #expect(s.decide(now: .seconds(1) + interval, flipPending: false) == .draw)
    }

    @Test func neverDrawsWhileAFlipIsPending() {
        var s = FrameScheduler(interval: interval)
        s.drew(at: .seconds(1), animating: true)
        #expect(s.decide(now: .seconds(2), flipPending: true) == .wait(until: nil))
        #expect(s.decide(now: .seconds(2), flipPending: false) == .draw)
    }

    @Test func theLastAnimationFrameEndsTheWakeUps() {
        var s = FrameScheduler(interval: interval)
        s.drew(at: .seconds(1), animating: true)
        s.drew(at: .seconds(1) + interval, animating: false)
        #expect(!s.animating)
        #expect(s.decide(now: .seconds(3), flipPending: false) == .wait(until: nil))
    }

    @Test func aChangeAsksForOneMoreFrame() {
        var s = FrameScheduler(interval: interval)
        s.drew(at: .seconds(1), animating: false)
        s.invalidate()
        #expect(s.decide(now: .seconds(2), flipPending: false) == .draw)
        s.drew(at: .seconds(2), animating: false)
        #expect(s.decide(now: .seconds(3), flipPending: false) == .wait(until: nil))
    }
}

/// A screen that only remembers the day it was made for.
private struct DayScreen: Screen {
    var summary: ActivitySummary?
    func draw(into buffer: PixelBuffer, at time: Double) {}
}

/// A screen that moves by itself (like a spinner).
private struct Spinner: Screen {
    func draw(into buffer: PixelBuffer, at time: Double) {}
    var animates: Bool { true }
}

@Suite(.timeLimit(.minutes(10))) struct SceneTests {
    let day = ActivitySummary(
        activeEnergyBurned: .kilocalories(400), activeEnergyBurnedGoal: .kilocalories(500),
        exerciseTime: 15, exerciseTimeGoal: 30, standHours: 6, standHoursGoal: 12)

    func intro() -> RingIntroScene {
        RingIntroScene(summary: day, duration: .milliseconds(900)) { DayScreen(summary: $0) }
    }

    @Test func introEndsOnTheDayAndStopsAnimating() {
        let (screen, animating) = intro().frame(at: .seconds(1))
        #expect(!animating)
        #expect((screen as? DayScreen)?.summary == day)
    }

    @Test func introStartsEmptyAndGrowsWithGoalsKept() throws {
        let first = try #require(intro().frame(at: .zero).screen as? DayScreen)
        #expect(first.summary?.activeEnergyBurned?.value == 0)
        #expect(first.summary?.activeEnergyBurnedGoal?.value == 500)
        let (middle, animating) = intro().frame(at: .milliseconds(450))
        #expect(animating)
        let exercise = try #require((middle as? DayScreen)?.summary?.exerciseTime)
        #expect(exercise > 7.5 && exercise < 15)
    }

    @Test func aDayWithoutSummaryStaysEmpty() {
        #expect(RingIntroScene.scaled(nil, by: 0.5) == nil)
    }

    @Test func easeOutIsMonotonicFromZeroToOne() {
        #expect(RingIntroScene.easeOut(0) == 0)
        #expect(RingIntroScene.easeOut(1) == 1)
        let samples = stride(from: 0.0, through: 1.0, by: 0.1).map(RingIntroScene.easeOut)
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test func aScreenAnimatesWhenItSaysSo() {
        #expect(ScreenScene(Spinner()).frame(at: .seconds(5)).animating)
        #expect(!ScreenScene(DayScreen(summary: day)).frame(at: .seconds(5)).animating)
    }
}
