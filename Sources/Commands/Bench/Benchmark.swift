import Runtime
import DeviceLogic
import Activity
import Configuration
import Controls
import Platform
import Raster
import Screens
import Store
import Text
import Clocks


/// `glance bench`: full frames per screen and size, timed against a full-frame fill of the same
/// buffer in the same run.
public struct Benchmark: Sendable {
    /// What `glance bench` prints, beside the code that prints it (its help's description).
    public static let about = """
        Renders N full frames per screen and size (build with -c release) and prints one line each:
          bench screen=rings size=480x480 frames=200 ms_per_frame=… text_ms_per_frame=…
                fill_ms_per_frame=… ratio=…
        ms_per_frame is the whole frame with its labels; text_ms_per_frame is what the labels cost (the \
        same frame drawn without text, subtracted); the fill is a full-frame colour fill of the same \
        buffer, timed in the same run; ratio = ms_per_frame / fill_ms_per_frame. The day is Move 75 %, \
        Exercise 50 %, Stand 120 % unless given; the gauge a large circular gauge, the progress a circle \
        with label and Cancel hint.

        With --animated, consecutive frames of each animation (the spinner, the sliding bar, the rings \
        filling up, the refresh control's spinner) go through the session glance run runs (the same \
        assembly, on a recording sink, with a made-up clock and a store of its own) and the panel's \
        damage path: each frame draws only what changed since the last one into the picture in memory, \
        and copies onto the next of two buffers (as a flipping panel's) what changed since that buffer's \
        frame; store_reads counts the store's queries after the first frame:
          bench animated=spinner size=480x480 frames=200 fps=30 buffers=2 ms_per_frame=…
                changed_percent=… changed_percent_max=… drawn_percent=… copied_percent=…
                whole_ms_per_frame=… ratio=…
        changed_percent is the share of the picture a frame changed (what is presented), drawn_percent \
        the share drawn, copied_percent the share copied onto the buffer, each averaged over the frames \
        after the first (drawn whole); whole_ms_per_frame the same frames drawn whole. With --in-place \
        each buffer's part is drawn into it instead (no copy).
        """

    /// The look (name, language, shape, rotation, format) and what is shown, as the command line
    /// gives them.
    public var configuration: Configuration
    public var screens: [ScreenKind]
    public var sizes: [Size]
    public var frames: Int
    public var fill: Bool
    public var noText: Bool
    /// Consecutive frames of each animation through the damage path (`--animated`), at `fps`
    /// (nil: 30, the intro at 60 as a panel draws it), into `buffers` buffers in turn; `whole`
    /// draws every frame whole instead (the reference).
    public var animated: Bool = false
    public var animations: [Animation] = []
    public var fps: Double?
    public var buffers = 2
    public var whole = false
    /// Frames drawn into a picture in memory and copied onto the buffers, as a panel's session
    /// draws them (false: drawn into the buffers in place).
    public var shadow = true
    /// Every frame drawn into a new view of the buffer's pixels, with nothing kept from earlier
    /// frames (`--cold`: a panel's first frame, a reload, a rotation, every `glance render`).
    public var cold = false
    /// The SPI wire's budget (`--wire`): each scene's bytes a frame on 240x240, 320x240 and round
    /// 240 RGB565 panels, the frame rates and shares of the wire they make (`WireBudget`).
    public var wire = false

    /// The animations `--animated` draws.
    public enum Animation: String, Sendable, CaseIterable {
        /// The progress screen's spinner (a circle, the amount of work unknown).
        case spinner
        /// The indeterminate bar's sliding segment.
        case bar
        /// The ring screen filling up as the app starts (900 ms).
        case intro
        /// The refresh control's spinner over the ring screen.
        case refresh
    }

    public static let defaultSizes = [
        Size(width: 480, height: 480), Size(width: 800, height: 480),
        Size(width: 720, height: 1280), Size(width: 240, height: 240),
    ]

    /// The benchmark `glance bench` runs without options: every screen at every default size,
    /// 200 frames, the fill timed. Empty screens or sizes mean the defaults.
    public init(configuration: Configuration = Configuration(), screens: [ScreenKind] = [], sizes: [Size] = []) {
        self.configuration = configuration
        self.screens = screens
        self.sizes = sizes
        self.frames = 200
        self.fill = true
        self.noText = false
    }

    /// The screens and sizes to draw (the defaults where none were given) and the typical day
    /// where the configuration gives none.
    func resolved() -> Benchmark {
        var b = self
        let show = configuration.show
        if b.screens.isEmpty { b.screens = show.ringsOnly ? [.rings] : [.rings, .gauges, .progress] }
        if b.sizes.isEmpty { b.sizes = Self.defaultSizes }
        if !show.summaryGiven && !show.noSummary { b.configuration.show.summary = Pictures.typicalDay }
        return b
    }

    /// What one benchmark screen shows: the given one, plus a typical gauge or progress.
    func request(for screen: ScreenKind) -> ShowRequest {
        var o = configuration.show
        o.screen = screen
        switch screen {
        case .gauges:
            o.style = o.style ?? "circular"
            if !o.gaugeValueGiven { o.gaugeValue = 72 }
            o.gaugeMinimum = 30
            o.gaugeMaximum = 90
            if o.title.isEmpty { o.title = "CPU temperature" }
            if o.unit.isEmpty { o.unit = "°" }
        case .progress:
            o.style = o.style ?? "circular"
            if o.fraction == nil && !o.indeterminate { o.fraction = 0.41 }
            if o.label.isEmpty { o.label = "Importing health data" }
            o.cancellable = true
        default:
            o.style = nil
            // A fixed time: every frame draws the same picture.
            if o.clockTime == nil { o.clockTime = TimeOfDay(hour: 10, minute: 9) }
        }
        return o
    }

    /// The name on the ring screen: the one given, else one of a typical length.
    var name: String { configuration.name.isEmpty ? "Karan" : configuration.name }

    /// What the panel shows for `request` at `size`, through the one assembly (`HeadlessPanel`):
    /// the bench's look, the request's day, gauge or task, the day and the time fixed; `labels`
    /// false lays the labels out without drawing them (`--no-text`, and the frame the labels'
    /// cost is measured against). `intro`: the ring screen filling up from the first frame.
    func panel(
        _ request: ShowRequest, size: Size, text: FreeTypeTextRenderer?, labels: Bool = true, intro: Bool = false
    ) throws(OutputFailure) -> HeadlessPanel {
        var c = configuration
        c.name = name
        c.show = request
        c.run.intro = intro
        c.screens = [request.screen ?? .rings]
        let settings: Settings
        do {
            settings = try Settings(c)
        } catch {
            throw OutputFailure("the bench's settings: \(error)", status: Outcome.config)
        }
        let systemToday = SystemLocalClock().today()
        let today = request.today?.day(today: systemToday) ?? systemToday
        let day = request.day?.day(today: today) ?? today
        let kind = request.screen ?? .rings
        let data = FixedData(
            days: request.shownSummary.map { [day: $0] } ?? [:], gauges: kind == .gauges ? [request.gauge] : [],
            task: kind == .progress ? request.progress : nil)
        let drawn: (any TextRenderer)? = labels && !noText ? text : text.map { LabelsNotDrawn($0) }
        let sink = PNGSink(size: size, format: format, naming: .latest(""))
        return try HeadlessPanel.make(
            settings, sink: sink, text: drawn, clock: FixedClock(today, time: request.clockTime), data: data
        ).get()
    }

    var rotation: Rotation { configuration.display.rotation }
    var format: PixelFormat { configuration.display.output.format ?? .xrgb8888 }

    public func run(console: Console) -> Outcome {
        resolved().runResolved(console: console)
    }

    func runResolved(console: Console) -> Outcome {
        let locale = configuration.locale ?? AppLocale(environment: environmentLanguage())
        var text: FreeTypeTextRenderer?
        if screens.contains(where: { request(for: $0).needsText }) || (wire && !configuration.show.ringsOnly) {
            do {
                text = try loadFonts(file: configuration.fontFile, cjkFile: configuration.cjkFontFile, locale: locale)
            } catch {
                console.complain(error.message)
                return Outcome.unavailable
            }
        }
        do throws(OutputFailure) {
            return try measure(text: text, locale: locale, console: console)
        } catch {
            console.complain(error.message)
            return error.status
        }
    }

    /// Every line asked for, printed as it is measured; the first panel that cannot be made (a
    /// system error: no descriptors left, say) ends it.
    private func measure(text: FreeTypeTextRenderer?, locale: AppLocale, console: Console) throws(OutputFailure) -> Outcome {
        if wire {
            for line in try wireLines(text: text, locale: locale) {
                let status = console.result(line)
                if status != .ok { return status }
            }
            return Outcome.ok
        }
        if animated {
            let list = animations.isEmpty ? Animation.allCases : animations
            for animation in list {
                for size in sizes {
                    switch animatedLine(animation, size, text: text, locale: locale) {
                    case .success(let line):
                        let status = console.result(line)
                        if status != .ok { return status }
                    case .failure(let failure):
                        console.complain(failure.message)
                        return failure.status
                    }
                }
            }
            return Outcome.ok
        }
        for screen in screens {
            for size in sizes {
                let status = console.result(try line(screen, size, text: text, locale: locale))
                if status != Outcome.ok { return status }
            }
        }
        return Outcome.ok
    }

    /// The frames of `animation` at `fps` at `size`: the screen of frame i and its time, as the
    /// panel shows them (`panel`).
    func frames(_ animation: Animation, size: Size, text: FreeTypeTextRenderer?, fps: Double) throws(OutputFailure)
        -> (count: Int, frame: (Int) -> (any Screen, Double))
    {
        switch animation {
        case .spinner, .bar:
            var o = request(for: .progress)
            o.fraction = nil
            o.indeterminate = true
            o.style = animation == .spinner ? ProgressStyle.circular.rawValue : ProgressStyle.bar.rawValue
            let screen = try panel(o, size: size, text: text).screen(at: 0)
            return (frames, { (screen, Double($0) / fps) })
        case .intro:
            let intro = try panel(request(for: .rings), size: size, text: text, intro: true)
            // Until the scene stops moving: 55 frames at 60 fps.
            let count = min(frames, Int((RingIntroScene.standardDuration.inSeconds * fps).rounded(.up)) + 1)
            return (count, { i in
                let t = Double(i) / fps
                return (intro.screen(at: t), t)
            })
        case .refresh:
            let rings = try panel(request(for: .rings), size: size, text: text)
            _ = rings.assembly.controller.send(.refreshShown(.running), now: rings.start)
            let overlay = rings.screen(at: 0)
            return (frames, { (overlay, Double($0) / fps) })
        }
    }

    /// One animation at one size through the session `glance run` drives (`Assembly.make`: the
    /// controller, its data, the loop's turns), on a sink that keeps no copies, with a made-up
    /// clock that moves one frame interval a turn: time per frame, the share of the picture each
    /// frame changed and drew (the first frame, drawn whole, aside) and the store's reads.
    func animatedLine(_ animation: Animation, _ size: Size, text: FreeTypeTextRenderer?, locale: AppLocale)
        -> Result<String, OutputFailure>
    {
        // Drawn in place, or whole (the reference): the painter alone (a session draws into its
        // picture what changed).
        guard shadow, !whole else { return Result { () throws(OutputFailure) in try painterLine(animation, size, text: text, locale: locale) } }
        let fps = self.fps ?? (animation == .intro ? 60 : 30)
        let measured: SessionRun
        switch runSession(animation, size, text: text, fps: fps) {
        case .success(let run): measured = run
        case .failure(let failure): return .failure(failure)
        }
        let request = self.request(for: animation == .spinner || animation == .bar ? .progress : .rings)
        let pct = { (x: Double) in NumberText.fixed(100 * x, decimals: 1) }
        let ms = { (x: Double) in NumberText.fixed(x, decimals: 3) }
        let after = max(1, measured.frames - 1)
        var line = "bench animated=\(animation.rawValue)\(request.ringsOnly && animation == .intro ? " rings_only=1" : "")"
            + " size=\(size) frames=\(measured.frames) fps=\(NumberText.fixed(fps, decimals: 0)) buffers=\(max(1, buffers))"
            + " ms_per_frame=\(ms(measured.ms / Double(max(1, measured.frames))))"
            + " changed_percent=\(pct(measured.changed / Double(after))) changed_percent_max=\(pct(measured.changedMax))"
            + " drawn_percent=\(pct(measured.drawn / Double(after)))"
            + (measured.intoPicture ? " copied_percent=\(pct(measured.copied / Double(after)))" : "")
            + " store_reads=\(measured.storeReads)"
        if fill {
            // The same frames drawn whole by the painter, for the ratio.
            let each: Double
            do throws(OutputFailure) {
                each = try painted(animation, size, text: text, locale: locale, keepsFrames: false).ms
            } catch {
                return .failure(error)
            }
            line += " whole_ms_per_frame=\(ms(each)) ratio=\(ms(measured.ms / Double(max(1, measured.frames)) / max(each, 1e-9)))"
        }
        return .success(line)
    }

    /// What one run of a session measured: frames presented and milliseconds in all; over the
    /// frames after the first, the shares of the picture changed, drawn and copied (summed), the
    /// largest change, and the store's reads (queries: none while the store does not change).
    struct SessionRun {
        var frames = 0
        var ms = 0.0
        var changed = 0.0, drawn = 0.0, copied = 0.0, changedMax = 0.0
        var intoPicture = true
        var storeReads = 0

        /// A frame after the first (one change to the tally: the bench's own cost per frame is
        /// counted with the session's).
        mutating func add(changed: Double, redrawn: Double) {
            self.changed += changed
            changedMax = max(changedMax, changed)
            // Into a picture, the change is drawn and the buffer's part copied; in place, the
            // buffer's part is drawn.
            if intoPicture {
                drawn += changed
                copied += redrawn
            } else {
                drawn += redrawn
            }
        }
    }

    /// Runs `animation` as `glance run` would show it at `fps`: the settings the command line
    /// gives, with the animation's screens, no dimming, the intro for `.intro`; the day (and the
    /// spinner's task) in a store of its own, in a new folder under TMPDIR, removed after.
    func runSession(_ animation: Animation, _ size: Size, text: FreeTypeTextRenderer?, fps: Double)
        -> Result<SessionRun, OutputFailure>
    {
        var c = configuration
        c.name = name
        let progress = animation == .spinner || animation == .bar
        c.screens = progress ? [.progress, .rings] : [.rings]
        c.show.screen = nil
        c.run.intro = animation == .intro
        c.idle = IdleSchedule(dimAfter: nil, blankAfter: nil, dimLevel: 1)
        c.cycle = nil
        c.schedule = []
        let settings: Settings
        do {
            settings = try Settings(c)
        } catch {
            return .failure(OutputFailure("\(error)", status: Outcome.config))
        }
        let rings = request(for: .rings)
        let systemToday = SystemLocalClock().today()
        let today = rings.today?.day(today: systemToday) ?? systemToday
        let clock = FixedClock(today, time: rings.clockTime)
        // The spinner's task and the day come from a store, as on a device; the bar's task from
        // the command line (a store's task is drawn as a circle).
        if animation == .bar {
            var task = request(for: .progress)
            task.fraction = nil
            task.indeterminate = true
            task.style = ProgressStyle.bar.rawValue
            let data = FixedData(days: rings.shownSummary.map { [today: $0] } ?? [:], task: task.progress)
            return drive(animation, size, settings: settings, text: text, clock: clock, data: data, store: nil, fps: fps)
        }
        let task = animation == .spinner ? request(for: .progress).label : nil
        return BenchStore.with(day: today, summary: rings.shownSummary, task: task) { store in
            drive(animation, size, settings: settings, text: text, clock: clock, data: store, store: store, fps: fps)
        }
    }

    /// The session's frames, turn by turn on a made-up clock from a start of its own.
    private func drive(
        _ animation: Animation, _ size: Size, settings: Settings, text: FreeTypeTextRenderer?, clock: FixedClock,
        data: any DataSource, store: StoreData?, fps: Double
    ) -> Result<SessionRun, OutputFailure> {
        let interval = Duration.nanoseconds(Int64((1e9 / fps).rounded()))
        let sink = RecordingSink(size: size, format: format, frameInterval: interval, buffers: max(1, buffers))
        sink.keepsPictures = false
        let t0 = Duration.seconds(1000)
        let assembly: Assembly
        switch Assembly.make(settings, sink: sink, parts: .init(text: .some(text), clock: clock, data: data, now: t0), log: { _ in }) {
        case .success(let made): assembly = made
        case .failure(let failure): return .failure(failure)
        }
        // The refresh commands running (the spinner over the ring screen), as long as the bench draws.
        if animation == .refresh { assembly.controller.send(.refreshShown(.running), now: t0) }
        let session = assembly.session
        var run = SessionRun()
        run.intoPicture = session.composer.drawsIntoPicture
        let pixels = Double(session.composer.pictureSize.width * session.composer.pictureSize.height)
        var readsBefore = 0
        session.onDrawn = { _, frame in
            guard sink.presented > 0 else {
                readsBefore = store?.queries ?? 0
                return
            }
            let changed = Double(frame.change?.area ?? Int(pixels)) / pixels
            run.add(changed: changed, redrawn: Double(frame.redraw?.area ?? Int(pixels)) / pixels)
        }
        // The intro stops by itself (55 frames at 60 fps); the others run for `frames`.
        var failure: OutputFailure?
        run.ms = Self.measure {
            var now = t0
            while sink.presented < frames {
                // What the loop asks before each sleep, then the turn it wakes for.
                _ = session.watched
                do throws(OutputFailure) {
                    guard case .wait(let deadline) = try session.turn(now: now, ready: [], signals: []),
                        let deadline, deadline - now <= interval
                    else { break }
                    now = deadline
                } catch {
                    failure = error
                    break
                }
            }
        }
        if let failure { return .failure(failure) }
        run.frames = sink.presented
        run.storeReads = (store?.queries ?? 0) - readsBefore
        return .success(run)
    }

    /// One animation at one size through the painter alone: drawn into the buffers in place
    /// (`--in-place`: a session always draws into a picture), or every frame whole (`--whole`,
    /// the reference: straight onto the buffers).
    func painterLine(_ animation: Animation, _ size: Size, text: FreeTypeTextRenderer?, locale: AppLocale) throws(OutputFailure) -> String {
        let request = self.request(for: animation == .spinner || animation == .bar ? .progress : .rings)
        let fps = self.fps ?? (animation == .intro ? 60 : 30)
        let measured = try painted(animation, size, text: text, locale: locale, keepsFrames: !whole)
        let pct = { (x: Double) in NumberText.fixed(100 * x, decimals: 1) }
        let ms = { (x: Double) in NumberText.fixed(x, decimals: 3) }
        let mean = { (xs: [Double]) in xs.isEmpty ? 1 : xs.reduce(0, +) / Double(xs.count) }
        var line = "bench animated=\(animation.rawValue)\(request.ringsOnly && animation == .intro ? " rings_only=1" : "")"
            + " size=\(size) frames=\(measured.count) fps=\(NumberText.fixed(fps, decimals: 0)) buffers=\(max(1, buffers))"
            + (whole ? " whole=1" : "")
            + " ms_per_frame=\(ms(measured.ms))"
            + " changed_percent=\(pct(mean(measured.changed))) changed_percent_max=\(pct(measured.changed.max() ?? 1))"
            + " drawn_percent=\(pct(mean(measured.drawn)))"
            + (measured.intoPicture ? " copied_percent=\(pct(mean(measured.copied)))" : "")
        if fill && !whole {
            // The same frames drawn whole, for the ratio.
            let reference = try painted(animation, size, text: text, locale: locale, keepsFrames: false)
            line += " whole_ms_per_frame=\(ms(reference.ms)) ratio=\(ms(measured.ms / max(reference.ms, 1e-9)))"
        }
        return line
    }

    /// The animation's frames through the painter (`keepsFrames` false: each drawn whole):
    /// milliseconds per frame, and per frame after the first the shares changed, drawn and copied.
    func painted(_ animation: Animation, _ size: Size, text: FreeTypeTextRenderer?, locale: AppLocale, keepsFrames: Bool)
        throws(OutputFailure)        -> (count: Int, ms: Double, changed: [Double], drawn: [Double], copied: [Double], intoPicture: Bool)
    {
        let composer = FrameComposer(panel: size, rotation: rotation, format: format, shadow: shadow)
        let fps = self.fps ?? (animation == .intro ? 60 : 30)
        let (count, frame) = try frames(animation, size: size, text: text, fps: fps)
        let targets = (0..<max(1, buffers)).map { _ in PixelBuffer(width: size.width, height: size.height, format: format) }
        let pixels = Double(composer.pictureSize.width * composer.pictureSize.height)
        var painter = FramePainter(composer: composer)
        var changed: [Double] = [], drawn: [Double] = [], copied: [Double] = []
        let ms = Self.measure {
            for i in 0..<count {
                let (screen, time) = frame(i)
                let target = targets[i % targets.count]
                guard keepsFrames else {
                    // The reference: every frame drawn whole.
                    composer.compose(screen, into: target, at: time)
                    continue
                }
                let f = painter.paint(screen, at: time, into: target, animating: i < count - 1)
                guard i > 0 else { continue }
                changed.append(Double(f.change?.area ?? Int(pixels)) / pixels)
                let redrawn = Double(f.redraw?.area ?? Int(pixels)) / pixels
                // Into a picture, the change is drawn and the buffer's part copied; in place,
                // the buffer's part is drawn.
                if composer.drawsIntoPicture {
                    drawn.append(Double(f.change?.area ?? Int(pixels)) / pixels)
                    copied.append(redrawn)
                } else {
                    drawn.append(redrawn)
                }
            }
        }
        return (count, ms / Double(count), changed, drawn, copied, composer.drawsIntoPicture)
    }

    /// One screen at one size, measured.
    func line(_ kind: ScreenKind, _ size: Size, text: FreeTypeTextRenderer?, locale: AppLocale) throws(OutputFailure) -> String {
        let request = self.request(for: kind)
        let composer = FrameComposer(panel: size, rotation: rotation, format: format)
        let target = PixelBuffer(width: size.width, height: size.height, format: format)
        let withText = request.needsText && !noText
        let screen = try panel(request, size: size, text: text).screen(at: 0)
        // Cold: the same pixels, but a buffer of its own each frame (nothing cached with it).
        let frameTarget = {
            cold ? PixelBuffer(wrapping: target.base, width: size.width, height: size.height, stride: target.stride, format: target.format) : target
        }
        let bare = try panel(request, size: size, text: text, labels: false).screen(at: 0)
        // Alternate the two in rounds and keep each one's fastest round: the machine is shared
        // and noisy, and the difference of two times is what the labels cost.
        let rounds = withText ? min(5, frames) : 1
        var best = Double.infinity, bestBare = Double.infinity
        var done = 0
        for round in 0..<rounds {
            let n = frames / rounds + (round < frames % rounds ? 1 : 0)
            let start = done
            best = min(best, Self.measure { for i in start..<(start + n) { composer.compose(screen, into: frameTarget(), at: Double(i) / 60) } } / Double(n))
            if withText {
                bestBare = min(
                    bestBare, Self.measure { for i in start..<(start + n) { composer.compose(bare, into: frameTarget(), at: Double(i) / 60) } } / Double(n))
            }
            done += n
        }
        let ms = { (x: Double) in NumberText.fixed(x, decimals: 3) }
        var line = "bench screen=\(kind.rawValue)\(request.ringsOnly && kind == .rings ? " rings_only=1" : "")"
            + "\(noText ? " text=0" : "")\(cold ? " cold=1" : "") size=\(size) frames=\(frames)"
        line += " ms_per_frame=\(ms(best))"
        if withText { line += " text_ms_per_frame=\(ms(max(0, best - bestBare)))" }
        if fill {
            let colors = [Color(hex: 0x102030), Color(hex: 0x203040)]
            let fillMs = Self.measure { for i in 0..<frames { target.fill(colors[i & 1]) } } / Double(frames)
            line += " fill_ms_per_frame=\(ms(fillMs)) ratio=\(ms(best / max(fillMs, 1e-9)))"
        }
        if rotation != .none || format != .xrgb8888 {
            line += " rotate=\(rotation.degrees) format=\(format.rawValue)"
        }
        return line
    }

    /// Milliseconds `body` takes, on the monotonic clock.
    static func measure(_ body: () -> Void) -> Double {
        let start = monotonicNow()
        body()
        return (monotonicNow() - start).inMilliseconds
    }
}

/// A store of the bench's own, in a new folder under TMPDIR (else /tmp): the day and maybe a
/// running task in it, read through `StoreData` as `glance run` reads its store; the folder is
/// removed once the body is done with it (and has let go of the store).
enum BenchStore {
    static let file = "bench.db"

    static func with<R>(
        day: CalendarDay, summary: ActivitySummary?, task: String?, _ body: (StoreData) -> Result<R, OutputFailure>
    ) -> Result<R, OutputFailure> {
        let folder: String
        do throws(SystemError) {
            folder = try Folders.scratch("glance-bench")
        } catch {
            return .failure(OutputFailure("cannot make a folder for the bench's store: \(error)", status: Outcome.cannotCreate))
        }
        defer { Folders.remove(folder, files: ["", "-wal", "-shm", "-journal"].map { file + $0 }) }
        return open(folder + "/" + file, day: day, summary: summary, task: task).flatMap(body)
    }

    private static func open(_ path: String, day: CalendarDay, summary: ActivitySummary?, task: String?)
        -> Result<StoreData, OutputFailure>
    {
        do throws(StoreError) {
            // Written through a connection of its own, closed before the app's opens: the app
            // starts on a store that is not changing, as a device does between imports.
            do {
                let store = try Store(path: path)
                try store.setSummary(summary, for: day)
                if let task { try store.startTask("import", total: nil, description: task, cancellable: true) }
            }
            return .success(try StoreData(path: path, gauges: [], log: { _ in }))
        } catch {
            return .failure(OutputFailure("the bench's store \(path): \(error.message)", status: error.exitStatus))
        }
    }
}

/// Text laid out as the fonts measure it, but not drawn: a frame's layout without its labels'
/// pixels (what `glance bench` measures the labels' cost against, and `--no-text`).
final class LabelsNotDrawn: TextRenderer {
    let fonts: any TextRenderer
    init(_ fonts: any TextRenderer) { self.fonts = fonts }
    func measure(_ text: String, _ style: TextStyle) -> TextMetrics { fonts.measure(text, style) }
    func draw(_ text: String, _ style: TextStyle, color: Color, at origin: Point, into buffer: PixelBuffer, clip: IntRect?) {}
    func canRender(_ text: String) -> Bool { fonts.canRender(text) }
    var capRatio: Float { fonts.capRatio }
    func lineBreaks(_ text: String, language: String) -> [LineBreak] { fonts.lineBreaks(text, language: language) }
}
