import Activity
import Raster
import Screens
import Testing
import Text

/// Goldens of the household's screens (issue 39): the family screen and the competition's
/// standings at 240x240 (square and round), 320x240, 800x480 and 720x1280, for one to four
/// people, in English and Simplified Chinese. Where a screen is in pages, its first page (and,
/// for four people, the page of the stale person).
@Suite("Household goldens (family, competition)", .timeLimit(.minutes(20)))
struct HouseholdGoldenTests {
    @Test("family screen", arguments: AppLocale.allCases, FamilyCase.sizes.indices)
    func family(locale: AppLocale, sizeIndex: Int) throws {
        let (size, shape) = FamilyCase.sizes[sizeIndex]
        let text = try LayoutCheck.renderer(locale)
        for count in 1...4 {
            let screen = FamilyScreen(members: FamilyCase.members(locale, count: count),
                                      context: ScreenContext(text: text, locale: locale, shape: shape))
            let name = "family-\(count)-\(FamilyCase.sizeName(size, shape))-\(locale.rawValue)"
            GoldenImage.expectMatches(FrameComposer(panel: size).render(screen), named: name)
            if count == 4 && screen.pageCount(for: size) > 1 {
                GoldenImage.expectMatches(FrameComposer(panel: size).render(screen.showing(page: 2)), named: name + "-page3")
            }
        }
    }

    @Test("competition screen", arguments: AppLocale.allCases, FamilyCase.sizes.indices)
    func competition(locale: AppLocale, sizeIndex: Int) throws {
        let (size, shape) = FamilyCase.sizes[sizeIndex]
        let text = try LayoutCheck.renderer(locale)
        let context = ScreenContext(text: text, locale: locale, shape: shape)
        for count in 1...4 {
            let screen = CompetitionScreen(content: CompetitionCase.running(locale, count: count), context: context)
            let name = "competition-\(count)-\(FamilyCase.sizeName(size, shape))-\(locale.rawValue)"
            GoldenImage.expectMatches(FrameComposer(panel: size).render(screen), named: name)
            if count == 4 && screen.pageCount(for: size) > 1 {
                GoldenImage.expectMatches(FrameComposer(panel: size).render(screen.showing(page: 1)), named: name + "-page2")
            }
        }
        // The week over: the winner, and two tied for the win.
        for count in [2, 4] {
            let screen = CompetitionScreen(content: CompetitionCase.finished(locale, count: count), context: context)
            GoldenImage.expectMatches(FrameComposer(panel: size).render(screen),
                                      named: "competition-final-\(count)-\(FamilyCase.sizeName(size, shape))-\(locale.rawValue)")
        }
    }
}
