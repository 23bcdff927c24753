import Clocks
import DeviceLogic
import Activity
import Configuration
import Feeds
import Platform
import Screens
import Store


/// The gauges' values from their sources — the store's metrics (MQTT topics among them, which
/// glance mqtt writes into the store), files, commands — with when each value came, so a value
/// that stopped coming shows as stale (dimmed, with its age). Everything runs in the session's
/// poll loop: the commands' pidfds and pipes; files and commands are read only while the gauge
/// screen is shown.
public final class GaugeFeed {
    struct Slot {
        let setting: GaugeSetting
        var reading = GaugeReading()
        /// When the value came (seconds since 1970).
        var at: Double?
        /// The source is failing (a command that fails or hangs): its last value shows stale.
        var failing = false
        /// When a file or command was last read or started (the loop's clock).
        var lastRead: Duration?
        var running: (process: ChildProcess, since: Duration)?
        /// What came from the source and could not be used (payloads with no number, numbers out
        /// of range after the scale): how many, and the last one's problem. A record of fixed size
        /// however many distinct junk messages anyone publishes.
        var complaints = Complaints()
        /// What the panel was last told of the value's age: nil while fresh, else its age label's
        /// value (`Strings.ageShown`). A change of it is a change to draw.
        var toldAge: Int?
    }

    /// What gauge values of `at` (seconds since 1970) show at `wall`: their age when stale (the
    /// source failing, or older than `staleAfter`), and in how many seconds that next changes —
    /// the moment it goes stale, or its age label's next step (nil: never, a value that is never
    /// stale). Pure: the feed's deadlines and its gauges both come from it.
    static func staleness(at: Double, staleAfter: Double?, failing: Bool, wall: Double) -> (age: Double?, changesIn: Double?) {
        let elapsed = max(0, wall - at)
        if failing || staleAfter.map({ elapsed > $0 }) == true { return (elapsed, Strings.nextAgeChange(elapsed)) }
        guard let staleAfter else { return (nil, nil) }
        // Stale once past staleAfter: the deadline just after it.
        return (nil, staleAfter - (wall - at))
    }

    /// How late after a staleness or an age step the loop wakes: its timer is never early, but
    /// the wall clock is read a moment after the loop's own.
    static let stalenessMargin = Duration.milliseconds(1)

    private var slots: [Slot]
    /// Files and commands are read while the gauge screen is on the panel.
    public private(set) var shown = false
    /// The wall clock, in seconds since 1970 (with their fraction: a value goes stale on time,
    /// not at the next whole second).
    private let wallClock: () -> Double
    private let log: (String) -> Void

    public init(
        settings: [GaugeSetting], wallClock: @escaping () -> Double = wallClockNow,
        log: @escaping (String) -> Void
    ) {
        slots = settings.map { Slot(setting: $0) }
        self.wallClock = wallClock
        self.log = log
    }

    /// The store changed (or was first opened): its metrics are read again.
    public func readMetrics(_ store: Store) -> Bool {
        var changed = false
        for i in slots.indices {
            var reading: GaugeReading
            switch slots[i].setting.source {
            case .metric(let name): reading = GaugeSource.metric(name: name).read(store: store)
            case .mqtt(let topic, let field, let scale, _):
                // The metric glance mqtt writes the topic's number into, scaled here.
                reading = GaugeSource.metric(name: MQTTTopic.metricName(topic: topic, field: field)).read(store: store)
                if reading.value == nil, reading.problem != nil {
                    reading.problem = "topic \(topic): no value from glance mqtt yet (systemctl enable --now glance-mqtt)"
                }
                if let v = reading.value {
                    reading.value = scaled(i, v, scale: scale)
                    if reading.value == nil { reading.problem = "topic \(topic): \(NumberText.plain(v)) is out of range after the scale" }
                }
            default: continue
            }
            if reading != slots[i].reading { changed = true }
            slots[i].reading = reading
            // Any Int64 another writer left (2^63 - 1): a moment in the years 1 to 9999.
            slots[i].at = reading.updated.map(StoredTime.seconds)
            if let problem = reading.problem { complain(i, problem) }
        }
        return changed
    }

    /// The gauge screen is on the panel (or no longer): files and commands are read only while it
    /// is. True when that changed a value.
    public func show(_ shown: Bool, now: Duration) -> Bool {
        guard shown != self.shown else { return false }
        self.shown = shown
        if !shown {
            // A command still running is let go: the screen it was for has gone.
            for i in slots.indices {
                slots[i].running?.process.stop()
                slots[i].running = nil
            }
            return false
        }
        return readDue(now: now)
    }

    /// Every file and command read again now (the refresh control).
    public func refresh(now: Duration) -> Bool {
        for i in slots.indices where slots[i].running == nil { slots[i].lastRead = nil }
        return shown ? readDue(now: now) : false
    }

    public var descriptors: [FileDescriptor] {
        slots.flatMap { $0.running?.process.descriptors ?? [] }
    }

    /// Handles what became readable and what is due; true when a value (or a staleness) changed.
    public func handle(ready: [FileDescriptor], now: Duration) -> Bool {
        var changed = false
        for i in slots.indices {
            guard let (process, since) = slots[i].running else { continue }
            let setting = slots[i].setting
            guard case .command(let arguments, let pattern, let scale, _, _, let timeout) = setting.source else { continue }
            if now - since >= .milliseconds(Int64(timeout * 1000)) {
                process.stop()
                slots[i].running = nil
                changed = fail(i, "\(arguments[0]) took longer than \(NumberText.plain(timeout)) s and was stopped") || changed
                continue
            }
            guard let status = process.poll() else { continue }
            slots[i].running = nil
            guard status.succeeded else {
                changed = fail(i, "\(arguments[0]) \(status.description)") || changed
                continue
            }
            let output = String(decoding: process.output, as: UTF8.self)
            guard let number = Self.number(in: output, pattern: pattern) else {
                changed = fail(i, "\(arguments[0]): no number in its output\(pattern.map { " matching \($0)" } ?? "")") || changed
                continue
            }
            guard let value = scaled(i, number, scale: scale) else {
                changed = fail(i, "\(arguments[0]): \(NumberText.plain(number)) is out of range after the scale") || changed
                continue
            }
            changed = receive(i, value) || changed
        }
        if shown { changed = readDue(now: now) || changed }
        return ageChanged() || changed
    }

    /// Whether a shown value went stale, or its age label stepped on, since the panel was last
    /// told: what the staleness deadlines wake the loop for.
    private func ageChanged() -> Bool {
        let wall = wallClock()
        var changed = false
        for i in slots.indices {
            var told: Int?
            if let at = slots[i].at, slots[i].reading.value != nil,
                let age = Self.staleness(at: at, staleAfter: slots[i].setting.staleAfter, failing: slots[i].failing, wall: wall).age
            {
                told = Strings.ageShown(age)
            }
            if told != slots[i].toldAge {
                slots[i].toldAge = told
                changed = true
            }
        }
        return changed && shown
    }

    /// The earliest of: a file or command due, a command's timeout, a value going stale, a stale value's age label changing.
    public func nextDeadline(now: Duration) -> Duration? {
        var deadlines: [Duration] = []
        let wall = wallClock()
        for slot in slots {
            switch slot.setting.source {
            case .file(_, _, _, let interval), .command(_, _, _, _, let interval, _):
                guard shown else { continue }
                if let (_, since) = slot.running, case .command(_, _, _, _, _, let timeout) = slot.setting.source {
                    deadlines.append(since + .milliseconds(Int64(timeout * 1000)))
                } else if slot.running == nil {
                    deadlines.append(slot.lastRead.map { $0 + .milliseconds(Int64(interval * 1000)) } ?? now)
                }
            default: break
            }
            if shown, let at = slot.at, slot.reading.value != nil,
                let next = Self.staleness(at: at, staleAfter: slot.setting.staleAfter, failing: slot.failing, wall: wall).changesIn
            {
                // At most a day ahead (then asked again): a time stored far in the future (another
                // writer's clock, 2^63 - 1) would not fit in a Duration.
                deadlines.append(now + .nanoseconds(Int64((min(max(0, next), 86_400) * 1e9).rounded(.up))) + Self.stalenessMargin)
            }
        }
        return deadlines.min()
    }

    /// The gauges as they are now.
    public func gauges() -> [Gauge] {
        let wall = wallClock()
        return slots.map { slot in
            let setting = slot.setting
            var value = slot.reading.value
            switch setting.source {
            case .file(_, _, let offset, _), .mqtt(_, _, _, let offset), .command(_, _, _, let offset, _, _):
                if let v = value { value = v + offset }
            case .metric: break
            }
            // The range: the configuration's, else the source's (a metric's), else 0…100; one that
            // mixes both the wrong way round is the configuration's (checked when it was read).
            var low = setting.givenMinimum ?? slot.reading.minimum ?? setting.minimum
            var high = setting.givenMaximum ?? slot.reading.maximum ?? setting.maximum
            if !(high > low) { (low, high) = (setting.minimum, setting.maximum) }
            let age = slot.at.flatMap { at in
                value == nil ? nil : Self.staleness(at: at, staleAfter: setting.staleAfter, failing: slot.failing, wall: wall).age
            }
            return Gauge(
                style: setting.style, value: value, minimum: low, maximum: high, title: setting.title,
                unit: setting.unit.isEmpty ? (slot.reading.unit ?? "") : setting.unit, tint: setting.tint, age: age,
                decimals: setting.decimals)
        }
    }

    // MARK: Reading

    /// Reads the files that are due and starts the commands that are.
    private func readDue(now: Duration) -> Bool {
        var changed = false
        for i in slots.indices where slots[i].running == nil {
            let setting = slots[i].setting
            switch setting.source {
            case .file(let path, let scale, _, let interval):
                let source = GaugeSource.file(path: path, scale: scale, interval: .milliseconds(Int64(interval * 1000)))
                guard source.isDue(lastRead: slots[i].lastRead, now: now, storeChanged: false) else { continue }
                slots[i].lastRead = now
                let reading = source.read(store: nil)
                if let v = reading.value, scaled(i, v, scale: 1) != nil {
                    changed = receive(i, v) || changed
                } else if let v = reading.value {
                    changed = fail(i, "\(path): \(NumberText.plain(v)) is out of range after the offset") || changed
                } else if let problem = reading.problem {
                    changed = fail(i, "\(problem); check the gauge's source.file in the configuration") || changed
                }
            case .command(let arguments, _, _, _, let interval, _):
                if let last = slots[i].lastRead, now < last + .milliseconds(Int64(interval * 1000)) { continue }
                slots[i].lastRead = now
                do {
                    slots[i].running = (try ChildProcess(arguments, captureOutput: true), now)
                } catch {
                    changed = fail(i, "\(arguments[0]) could not start: \(error)") || changed
                }
            default: continue
            }
        }
        return changed
    }

    /// `x × scale` when that and the gauge's offset give a number a gauge takes (GaugeValue), else
    /// nil: 1e308 × 10 is refused, and the last good value stays.
    private func scaled(_ i: Int, _ x: Double, scale: Double) -> Double? {
        var offset = 0.0
        switch slots[i].setting.source {
        case .file(_, _, let o, _), .mqtt(_, _, _, let o), .command(_, _, _, let o, _, _): offset = o
        case .metric: break
        }
        guard GaugeValue.scaled(x, scale: scale, offset: offset) != nil, let value = GaugeValue.scaled(x, scale: scale) else { return nil }
        return value
    }


    /// A new value for gauge `i`: fresh again.
    private func receive(_ i: Int, _ value: Double) -> Bool {
        let wasStale = gauges()[i].age != nil
        let before = (slots[i].reading.value, slots[i].failing)
        slots[i].reading = GaugeReading(value: value)
        slots[i].at = wallClock()
        if slots[i].failing { log("gauge \(i + 1) (\(slots[i].setting.title)): values again") }
        slots[i].failing = false
        return before.0 != value || before.1 || wasStale
    }

    /// Gauge `i`'s source failed: its last value (if any) shows stale; said once.
    private func fail(_ i: Int, _ why: String) -> Bool {
        complain(i, why)
        guard !slots[i].failing else { return false }
        slots[i].failing = true
        return slots[i].reading.value != nil
    }

    /// The number in a command's output: the first group of `pattern` (or its whole match), else
    /// the first number.
    static func number(in output: String, pattern: String?) -> Double? {
        guard let pattern else { return Payload.firstNumber(in: output[...]) }
        guard let text = ExtendedRegex.firstGroup(of: pattern, in: output) else { return nil }
        return Payload.firstNumber(in: text[...])
    }

    /// A problem of gauge `i`'s, logged as `Complaints` allows, on one line whatever it quotes.
    private func complain(_ i: Int, _ problem: String) {
        let message = "gauge \(i + 1) (\(slots[i].setting.title)): \(problem)"
        if let line = slots[i].complaints.line(message, now: monotonicNow()) { log(Quote.logLine(line)) }
    }
}
