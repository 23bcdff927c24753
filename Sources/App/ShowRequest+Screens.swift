import DeviceLogic
import Activity
import Configuration
import Screens
import Clocks

extension ShowRequest {
    /// The request with `summary` as the day's (nil: a day without one).
    package func with(summary: ActivitySummary?) -> ShowRequest {
        var o = self
        if let summary {
            o.summary = summary
            o.noSummary = false
        } else {
            o.noSummary = true
        }
        return o
    }

    /// Whether the screen draws text (and so needs fonts).
    package var needsText: Bool { !(ringsOnly && (screen ?? .rings) == .rings) }

    /// The time the clock shows: the one given, else the system's.
    var shownTime: TimeOfDay { clockTime ?? SystemLocalClock().timeOfDay() }

    /// The screen as given: the day (with no week), the gauge or the task.
    package func makeScreen(with maker: ScreenMaker, today systemToday: CalendarDay) -> any Screen {
        let today = self.today?.day(today: systemToday) ?? systemToday
        let shown = day?.day(today: today) ?? today
        switch screen ?? .rings {
        case .gauges: return maker.gaugeScreen([gauge], page: page)
        case .progress: return maker.progressScreen(progress)
        case .rings:
            return maker.ringScreen(
                day: shown, today: today, summary: shownSummary, data: FixedData(days: [:]), time: shownTime, page: page)
        case .clock:
            return maker.clockScreen(day: shown, summary: shownSummary, time: shownTime)
        }
    }
}
