/// How bright the panel is to be, and how: what the backlight is set to, and what is left for
/// the picture to do (a panel without a backlight, or with one that is only on or off).
public struct LightPlan: Sendable, Equatable {
    /// The backlight's brightness (nil: there is no backlight).
    public var backlight: Int?
    /// The picture's brightness, 0...1 (1: as drawn).
    public var picture: Double

    public init(backlight: Int?, picture: Double) {
        self.backlight = backlight
        self.picture = picture
    }

    /// `wanted` (0...1 of full brightness) on a backlight of `maximum` levels (nil: none). A PWM
    /// light takes the level (never off while something is wanted); an on/off one (maximum 1) is
    /// on, with the picture dimmed below full; without a light the picture does it all.
    public static func make(wanted: Double, maximum: Int?) -> LightPlan {
        let wanted = min(max(0, wanted.isNaN ? 1 : wanted), 1)
        guard let maximum else { return LightPlan(backlight: nil, picture: wanted) }
        if wanted == 0 { return LightPlan(backlight: 0, picture: 1) }
        if maximum <= 1 { return LightPlan(backlight: maximum, picture: wanted) }
        return LightPlan(backlight: min(maximum, max(1, Int((wanted * Double(maximum)).rounded()))), picture: 1)
    }
}
