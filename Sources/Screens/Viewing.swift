/// The rule every layout keeps, in minutes of arc at the eye of the capitals' height (ISO
/// 9241-303 asks 16′ at the least and 20–22′ preferred for reading; a glance from where people
/// sit needs the preferred): the figures a screen is for (the rings' three figures, a gauge's
/// value, the clock's time, the progress percentage, a message's lines, each person's figures on
/// the family screen, the competition's totals) at least 20′, every other
/// text at least 12′.
public enum Legibility {
    public static let figureArcMinutes = 20.0
    public static let textArcMinutes = 12.0
    /// No text is drawn smaller than this many pixels to the em whatever the viewing (glyphs need
    /// pixels to be drawn at all).
    public static let pixelFloor: Float = 12
    /// The capitals' height over the em of the fonts Glance ships (Inter: 2048 of 2816 units),
    /// when the renderer cannot say.
    public static let usualCapRatio: Float = 0.727

    /// The elements whose text is a screen's primary figure.
    public static func isFigure(_ element: String) -> Bool {
        element == "clock.time" || element == "progress.percent" || element.hasPrefix("message.line.")
            || (element.hasPrefix("rings.figure.") && element.hasSuffix(".value"))
            || (element.hasPrefix("gauge.") && element.hasSuffix(".value"))
            || (element.hasPrefix("family.") && element.hasSuffix(".value"))
            || (element.hasPrefix("competition.") && element.hasSuffix(".total"))
    }
}
