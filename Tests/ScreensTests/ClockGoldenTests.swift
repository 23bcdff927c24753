import Activity
import Raster
import Screens
import Testing
import Text

/// The time: the ring screen's header and the clock screen, at every size and shape, in both
/// languages and both formats. The time is fixed (15:05 or 9:41), so the goldens stay the same.
@Suite("Clock: the ring screen's time and the clock screen", .timeLimit(.minutes(20)))
struct ClockGoldenTests {
    static let afternoon = TimeOfDay(hour: 15, minute: 5)!
    static let morning = TimeOfDay(hour: 9, minute: 41)!

    static func formatName(_ twelveHour: Bool) -> String { twelveHour ? "12h" : "24h" }

    @Test("the time in words: 12-hour and 24-hour, English after, Chinese before the digits")
    func text() {
        let en = AppLocale.english.strings, zh = AppLocale.simplifiedChinese.strings
        #expect(en.clockText(ClockFace(time: Self.afternoon, twelveHour: true)).line == "3:05 PM")
        #expect(en.clockText(ClockFace(time: Self.afternoon, twelveHour: false)).line == "15:05")
        #expect(en.clockText(ClockFace(time: Self.morning, twelveHour: false)).line == "09:41")
        #expect(en.clockText(ClockFace(time: TimeOfDay(hour: 0, minute: 7)!, twelveHour: true)).line == "12:07 AM")
        #expect(en.clockText(ClockFace(time: TimeOfDay(hour: 12, minute: 0)!, twelveHour: true)).line == "12:00 PM")
        #expect(zh.clockText(ClockFace(time: Self.afternoon, twelveHour: true)).line == "下午 3:05")
        #expect(zh.clockText(ClockFace(time: Self.morning, twelveHour: true)).line == "上午 9:41")
        #expect(zh.clockText(ClockFace(time: Self.afternoon, twelveHour: false)).line == "15:05")
    }

    @Test("the usual format: by the language and the region of LC_TIME")
    func usual() {
        let cases: [(AppLocale, String?, ClockFormat)] = [
            (.english, "en_US.UTF-8", .twelveHour), (.english, "en_GB.UTF-8", .twentyFourHour),
            (.english, "en_AU", .twelveHour), (.english, "en_IE.UTF-8", .twentyFourHour), (.english, nil, .twelveHour),
            (.english, "C.UTF-8", .twelveHour), (.english, "de_DE.UTF-8", .twelveHour),
            (.simplifiedChinese, "zh_CN.UTF-8", .twentyFourHour), (.simplifiedChinese, "en_US.UTF-8", .twentyFourHour),
        ]
        for (locale, environment, expected) in cases {
            #expect(ClockFormat.usual(for: locale, environment: environment) == expected, "\(locale) \(environment ?? "nil")")
        }
    }

    static func ringContent(_ locale: AppLocale, twelveHour: Bool, clockOnTiny: Bool = false) -> RingScreenContent {
        RingScreenContent(
            name: locale == .english ? "Karan" : "小林", day: ScreenGoldenTests.today, today: ScreenGoldenTests.today,
            summary: ScreenGoldenTests.todaySummary, week: ScreenGoldenTests.week,
            clock: ClockFace(time: afternoon, twelveHour: twelveHour), clockOnTiny: clockOnTiny)
    }

    @Test("ring screen with the time at every size", arguments: AppLocale.allCases, LayoutCheck.sizes.indices)
    func ringHeader(locale: AppLocale, sizeIndex: Int) throws {
        let (size, shape) = LayoutCheck.sizes[sizeIndex]
        let text = try ScreenGoldenTests.renderer(locale)
        // English on a 12-hour clock, Chinese on a 24-hour one (the usual ways); the other way
        // round in the layout check below.
        let twelveHour = locale == .english
        let screen = RingScreen(content: Self.ringContent(locale, twelveHour: twelveHour),
                                context: ScreenContext(text: text, locale: locale, shape: shape))
        GoldenImage.expectMatches(
            FrameComposer(panel: size).render(screen),
            named: "screen-rings-time-\(ScreenGoldenTests.sizeName(size, shape))-\(locale.rawValue)-\(Self.formatName(twelveHour))")
    }

    @Test("the time on the ring screen: in the header wherever there is one, instead of the day on a tiny panel only when asked")
    func ringHeaderPlacement() throws {
        for locale in AppLocale.allCases {
            let text = try ScreenGoldenTests.renderer(locale)
            for (size, shape) in LayoutCheck.sizes {
                for twelveHour in [false, true] {
                    for onTiny in [false, true] {
                        let content = Self.ringContent(locale, twelveHour: twelveHour, clockOnTiny: onTiny)
                        let line = locale.strings.clockText(content.clock!).line
                        let probe = LayoutProbe()
                        let screen = RingScreen(content: content, context: ScreenContext(text: text, locale: locale, shape: shape, probe: probe))
                        _ = FrameComposer(panel: size).render(screen)
                        let what = "rings with time \(size) \(shape) \(locale) \(twelveHour ? "12h" : "24h") tiny:\(onTiny)"
                        LayoutCheck.check(probe, size: size, shape: shape, what)
                        let context = ScreenContext(text: text, locale: locale, shape: shape)
                        let timeShown = RingLayoutKind.showsTime(size: size, context: context, clockOnTiny: onTiny)
                        #expect(timeShown == (onTiny || RingLayoutKind.choose(for: size, shape: shape) != .tiny
                                              || RingLayoutKind.paged(size: size, shape: shape, scale: TypeScale(size: size, context: context))))
                        let shown = probe.texts.contains { $0.text == line }
                        #expect(shown == timeShown, "\(what): the time \(shown ? "is" : "is not") drawn")
                        // The day too, but where the time is asked for in its place; a page's one
                        // line holds both where they fit, else today's time alone.
                        let paged = RingLayoutKind.paged(size: size, shape: shape, scale: TypeScale(size: size, context: context))
                        let dayShown = probe.texts.contains { $0.text == locale.strings.today }
                        if !paged {
                            #expect(dayShown == !(onTiny && RingLayoutKind.choose(for: size, shape: shape) == .tiny),
                                    "\(what): the day \(dayShown ? "is" : "is not") drawn")
                        } else if onTiny {
                            #expect(!dayShown, "\(what): the day is drawn where the time was asked for instead")
                        }
                    }
                }
            }
        }
    }

    @Test("a tiny panel told to show the time shows it instead of the day", arguments: AppLocale.allCases)
    func tinyTime(locale: AppLocale) throws {
        let screen = RingScreen(content: Self.ringContent(locale, twelveHour: true, clockOnTiny: true),
                                context: ScreenContext(text: try ScreenGoldenTests.renderer(locale), locale: locale))
        GoldenImage.expectMatches(FrameComposer(panel: Size(width: 240, height: 240)).render(screen),
                                  named: "screen-rings-time-instead-240x240-\(locale.rawValue)-12h")
    }

    static func clockContent(twelveHour: Bool) -> ClockScreenContent {
        ClockScreenContent(face: ClockFace(time: afternoon, twelveHour: twelveHour), day: ScreenGoldenTests.today,
                           summary: ScreenGoldenTests.todaySummary)
    }

    @Test("clock screen at every size, both formats", arguments: AppLocale.allCases, LayoutCheck.sizes.indices)
    func clockScreen(locale: AppLocale, sizeIndex: Int) throws {
        let (size, shape) = LayoutCheck.sizes[sizeIndex]
        let text = try ScreenGoldenTests.renderer(locale)
        for twelveHour in [false, true] {
            let probe = LayoutProbe()
            let screen = ClockScreen(content: Self.clockContent(twelveHour: twelveHour),
                                     context: ScreenContext(text: text, locale: locale, shape: shape, probe: probe))
            let frame = FrameComposer(panel: size).render(screen)
            let what = "clock \(size) \(shape) \(locale) \(Self.formatName(twelveHour))"
            LayoutCheck.check(probe, size: size, shape: shape, what)
            #expect(probe.ringGroups.count == 1, "\(what): the day's rings")
            let face = locale.strings.clockText(ClockFace(time: Self.afternoon, twelveHour: twelveHour))
            let digits = try #require(probe.texts.first { $0.text == face.digits }?.box, "\(what): no digits")
            // Large: the time is what the screen is for.
            #expect(digits.height >= 0.2 * Float(min(size.width, size.height)), "\(what): the time is small: \(digits)")
            #expect(probe.ringGroups.allSatisfy { digits.maxY <= $0.rect.y || digits.maxX <= $0.rect.x }, "\(what): time over the rings")
            if let period = face.period {
                let part = try #require(probe.texts.first { $0.text == period }?.box, "\(what): no \(period)")
                // English writes the part of the day after the digits, Chinese before them.
                #expect(locale == .english ? part.x > digits.maxX : part.maxX < digits.x, "\(what): \(period) on the wrong side")
            }
            GoldenImage.expectMatches(
                frame, named: "screen-clock-\(ScreenGoldenTests.sizeName(size, shape))-\(locale.rawValue)-\(Self.formatName(twelveHour))")
        }
    }
}
