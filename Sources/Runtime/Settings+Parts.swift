import Raster
import Activity
import Configuration
import DeviceLogic
import Input
import Platform
import Screens
import Store
import Text
import Clocks


/// The language the environment asks for: the first set of LC_ALL, LC_MESSAGES, LANG.
public func environmentLanguage() -> String? { firstSet(["LC_ALL", "LC_MESSAGES", "LANG"]) }

/// How the environment writes the time: the first set of LC_ALL, LC_TIME, LANG.
public func environmentTimeLocale() -> String? { firstSet(["LC_ALL", "LC_TIME", "LANG"]) }

/// The first of `names` the environment sets to something (the C library's order for locales).
private func firstSet(_ names: [String]) -> String? {
    names.lazy.compactMap { environmentVariable($0) }.first { !$0.isEmpty }
}

/// The fonts for a language: Inter (or `file`), and for Chinese a CJK face (or `cjkFile`).
/// FontError names what is missing and the Debian package that has it.
public func loadFonts(file: String?, cjkFile: String?, locale: AppLocale) throws(FontError) -> FreeTypeTextRenderer {
    var fonts = FreeTypeTextRenderer.Fonts(file: file)
    if locale == .simplifiedChinese {
        fonts.languages = [.simplifiedChinese]
        if let cjkFile { fonts.languageFiles[.simplifiedChinese] = cjkFile }
    }
    return try FreeTypeTextRenderer(fonts: fonts)
}

extension Settings {
    /// The language of the labels.
    public var resolvedLocale: AppLocale { configuration.locale ?? AppLocale(environment: environmentLanguage()) }

    /// Whether anything shown draws text (the rings alone need no fonts).
    public var needsText: Bool {
        configuration.show.needsText || content.map { !$0.gauges.isEmpty || $0.task != nil } ?? false
    }

    /// The fonts, when anything shown needs them. `report` is told when a face opened on first
    /// use cannot be (its text is then written in the primary face): every caller says where.
    public func loadText(report: ((String) -> Void)?) throws(FontError) -> FreeTypeTextRenderer? {
        guard needsText else { return nil }
        let text = try loadFonts(file: configuration.fontFile, cjkFile: configuration.cjkFontFile, locale: resolvedLocale)
        text.report = report
        return text
    }

    /// How the time is written: as configured, else as the language and region usually do.
    public var resolvedClockFormat: ClockFormat {
        configuration.clock.format ?? ClockFormat.usual(for: resolvedLocale, environment: environmentTimeLocale())
    }

    /// How the screens are drawn, with these fonts, on a display whose own diagonal is
    /// `measured` inches (from DRM; nil: not known, or not a display).
    public func maker(text: (any TextRenderer)?, measured: Double? = nil) -> ScreenMaker {
        let c = configuration
        var maker = ScreenMaker(text: text, locale: resolvedLocale, shape: c.display.shape, name: c.name, ringsOnly: c.show.ringsOnly)
        maker.clockFormat = resolvedClockFormat
        maker.clockOnTiny = c.clock.onTiny
        maker.viewing = c.display.viewing(measured: measured)
        maker.staleAfter = c.household.staleAfter * 3600
        maker.competitionStart = c.household.start
        maker.competitionEnd = c.household.end
        maker.competitionPeople = c.household.people
        return maker
    }

    /// The calendar and the clock: the system's, but for the day and the time fixed on the
    /// command line.
    public func makeClock() -> any LocalClock {
        fixedToday == nil && fixedTime == nil ? SystemLocalClock() : FixedClock(day: fixedToday, time: fixedTime)
    }

    /// The app's brain for a panel of `panel` pixels: the configured screens, drawn with `text`,
    /// from `data`, with the idle times, the intro and the day to start on. `glance run`, `glance
    /// watch` and the tests all make it here.
    func makeController(
        panel: Size, text: (any TextRenderer)?, data: any DataSource, clock: LocalClock, now: Duration = monotonicNow(),
        measured: Double? = nil, log: @escaping (String) -> Void
    ) -> PanelController {
        let device = DeviceState(
            screens: screenOrder, maker: maker(text: text, measured: measured), data: data, router: makeRouter(panel: panel),
            idle: configuration.idle, cycle: makeCycle(now: now), clock: clock, intro: configuration.run.intro, now: now,
            hints: { $0.hints(devices: $1) })
        let controller = PanelController(
            device: device, data: data, watchClockChanges: fixedToday == nil || fixedTime == nil, now: now, log: log)
        if let day = configuration.show.day?.day(today: clock.today()), day != clock.today() {
            controller.send(.showDay(day), now: now)
        }
        if configuration.show.page > 0 { controller.send(.showPage(configuration.show.page), now: now) }
        controller.send(.follow(hours), now: now)
        return controller
    }

    /// The input devices, when input is read: opened, and watched for new ones.
    public func makeInputHub(log: @escaping (String) -> Void) -> InputHub? {
        let run = configuration.run
        return run.readInput
            ? InputHub(directory: run.inputDirectory, grab: configuration.grabInput, wanted: keyMap.codes, log: log) : nil
    }

    /// Input into commands, for a panel of `panel` pixels mounted as configured.
    public func makeRouter(panel: Size) -> InputRouter {
        InputRouter(keyMap: keyMap, touch: configuration.touch, panel: panel, rotation: rotation)
    }

    /// The refresh control, where there are commands and input to ask for them.
    public func makeRefresher(hub: InputHub?, log: @escaping (String) -> Void) -> Refresher? {
        !configuration.refresh.isEmpty && hub != nil ? Refresher(commands: configuration.refresh, log: log) : nil
    }

    /// The screens turning by themselves from `now`, where configured.
    public func makeCycle(now: Duration) -> ScreenCycle? {
        configuration.cycle.map { ScreenCycle($0, now: now) }
    }

    /// A store that cannot be used, as the app's failure: its message and exit status.
    static func storeFailure(_ error: StoreError) -> OutputFailure {
        let hint = [.missing, .permission, .cannotCreate].contains(error.kind)
            ? "\ngive another store with --db PATH, or check the folder's permissions" : ""
        return OutputFailure(error.message + hint, status: error.exitStatus)
    }

    /// What there is to show: the command line's day, gauge or task, else the store (followed as
    /// it changes).
    /// `access`: `.create` for glance run and watch (a new device starts with an empty store, and
    /// watch may be started before the import that fills it); the store is checked as for writing.
    /// `problems`: where the data's own problems go as they come (a broker that cannot be reached,
    /// a gauge's file missing; nil: `log`). `checkLater`: the store's check is left to
    /// `Assembly.finishOpening()` (glance run: after the first frame).
    public func openData(
        today: CalendarDay, access: Store.Access = .create, checkLater: Bool = false, log: @escaping (String) -> Void,
        problems: ((String) -> Void)? = nil
    ) -> Result<any DataSource, OutputFailure> {
        if let content { return .success(content.data(today: today)) }
        do throws(OutputFailure) {
            let path = try storePath(configuration.database)
            do throws(StoreError) {
                let data = try StoreData(
                    path: path, access: access, gauges: configuration.gauges, goals: configuration.goals.standing,
                    checkLater: checkLater, log: problems ?? log)
                log("data from the store \(path)")
                return .success(data)
            } catch {
                throw Self.storeFailure(error)
            }
        } catch {
            return .failure(error)
        }
    }
}
