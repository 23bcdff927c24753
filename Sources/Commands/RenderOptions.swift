import Activity
import Raster
import Screens

/// What to draw and how the panel takes it: the options `render` and `bench` share.
struct ScreenOptions {
    var screen = "rings"
    var sizes: [Size] = []
    var rotation = Rotation.none
    var format = PixelFormat.xrgb8888
    var summary: ActivitySummary? = ActivitySummary()
    var summaryGiven = false
    var noSummary = false

    /// Consumes `option` if it is one of these; false if it is not.
    mutating func parse(_ option: String, _ args: inout Arguments) throws(UsageError) -> Bool {
        switch option {
        case "--screen":
            let name = try args.value(for: option)
            guard Self.screens.contains(name) else {
                throw UsageError("--screen '\(name)': expected one of \(Self.screens.joined(separator: ", "))")
            }
            screen = name
        case "--size":
            for part in try args.value(for: option).split(separator: ",", omittingEmptySubsequences: false) {
                sizes.append(try Parse.size(String(part), option: option))
            }
        case "--rotate": rotation = try Parse.rotation(try args.value(for: option), option: option)
        case "--format": format = try Parse.format(try args.value(for: option), option: option)
        case "--move":
            let (v, g) = try Parse.energy(try args.value(for: option), option: option)
            summary?.activeEnergyBurned = v
            summary?.activeEnergyBurnedGoal = g
            summaryGiven = true
        case "--move-time":
            let (v, g) = try Parse.valueGoal(try args.value(for: option), option: option)
            summary?.moveTime = v
            summary?.moveTimeGoal = g
            summary?.moveMode = .moveTime
            summaryGiven = true
        case "--exercise":
            let (v, g) = try Parse.valueGoal(try args.value(for: option), option: option)
            summary?.exerciseTime = v
            summary?.exerciseTimeGoal = g
            summaryGiven = true
        case "--stand":
            let (v, g) = try Parse.valueGoal(try args.value(for: option), option: option)
            summary?.standHours = v
            summary?.standHoursGoal = g
            summaryGiven = true
        case "--no-summary":
            noSummary = true
        default:
            return false
        }
        return true
    }

    /// Checks the combination once every option is read.
    mutating func finish() throws(UsageError) {
        if noSummary {
            if summaryGiven {
                throw UsageError("--no-summary draws a day without data; drop --move/--move-time/--exercise/--stand")
            }
            summary = nil
        }
    }

    static let screens = ["rings"]

    func makeScreen() -> any Screen {
        RingScreen(summary: summary)
    }
}
