/// Something the one poll loop waits on, in one shape: descriptors it wants polled for reading,
/// writing or both (`interests`), and a time by which it must be asked again even when none
/// became ready (a long press, a retry, a keep-alive, the next minute). The loop hands it the
/// descriptors that became ready; a source that asked for both tries its reads and its writes
/// without blocking, and one that has nothing to write asks for reading only (so an idle loop
/// sleeps).
public protocol EventSource: AnyObject {
    /// What to poll, and for what; asked before every wait.
    var interests: [Interest] { get }
    /// When it must be asked again without an event, if ever (CLOCK_MONOTONIC).
    func nextDeadline(now: Duration) -> Duration?
    /// Handles what became ready among `ready` (maybe none of its own: a deadline passed);
    /// true when something changed that its owner should act on.
    func handle(ready: [FileDescriptor], now: Duration) -> Bool
}

/// A source that only reads: its `descriptors`, each polled for reading (most are: input
/// devices, inotify, a child's output, the control socket).
public protocol ReadingSource: EventSource {
    var descriptors: [FileDescriptor] { get }
}

extension ReadingSource {
    public var interests: [Interest] { descriptors.map { Interest($0) } }
}

/// The earlier of two deadlines (nil: none), for the turns that ask every source each frame:
/// no array built to take the smallest of two or three.
@inlinable
public func earliest(_ a: Duration?, _ b: Duration?) -> Duration? {
    guard let a else { return b }
    guard let b else { return a }
    return min(a, b)
}

extension Sequence where Element == any EventSource {
    /// Every source's interests.
    public var interests: [Interest] { flatMap(\.interests) }

    /// The earliest of the sources' deadlines.
    public func nextDeadline(now: Duration) -> Duration? { compactMap { $0.nextDeadline(now: now) }.min() }

    /// Hands `ready` to every source; true when one of them changed something.
    public func handle(ready: [FileDescriptor], now: Duration) -> Bool {
        var changed = false
        for source in self where source.handle(ready: ready, now: now) { changed = true }
        return changed
    }
}

/// The one poll loop of a process (the panel's session, `glance serve`, `glance mqtt`): it sleeps
/// in poll(2) until a watched descriptor is ready (readable, or writable where a source asked
/// for that: `Interest`), a signal comes (a signalfd, so signals are handled in
/// ordinary code) or the deadline the last turn asked for passes (a timerfd), then hands what
/// happened to the turn, which says how long to sleep next or that the loop ends.
///
/// The turn's decisions are a function of the time and what became readable, both given as
/// values, so a loop can be tested by calling the turn with a made-up clock.
public final class EventLoop {
    /// What the turn asks for next.
    public enum Next<Ending> {
        /// Sleep until an event, or until the deadline (nil: no timer).
        case wait(until: Duration?)
        case end(Ending)
    }

    /// What woke the loop.
    public struct Wakeup: Sendable {
        public var now: Duration
        /// The watched descriptors that became ready (the signals' and the timer's not among them).
        public var ready: [FileDescriptor]
        /// The signals that came, in order.
        public var signals: [Int32]
    }

    public let signals: SignalReceiver?
    private let timer: MonotonicTimer

    /// A loop that takes `signals` (nil: none: a process whose parent stops it another way).
    public init(signals: SignalReceiver?) throws(SystemError) {
        self.signals = signals
        timer = try MonotonicTimer()
    }

    /// Turns until the turn ends the loop: `watched` is asked for the interests before every
    /// sleep; the first turn comes at once, with nothing ready.
    public func run<Ending, Failure: Error>(
        watching watched: () -> [Interest],
        turn: (Wakeup) throws(Failure) -> Next<Ending>,
        failed: (SystemError) -> Failure
    ) throws(Failure) -> Ending {
        var wakeup = Wakeup(now: monotonicNow(), ready: [], signals: [])
        while true {
            switch try turn(wakeup) {
            case .end(let ending): return ending
            case .wait(let deadline):
                do throws(SystemError) {
                    wakeup = try wait(watching: watched(), until: deadline)
                } catch {
                    throw failed(error)
                }
            }
        }
    }

    /// Sleeps until one of `interests` is ready, a signal comes, or `deadline` passes.
    public func wait(watching interests: [Interest], until deadline: Duration?) throws(SystemError) -> Wakeup {
        let before = monotonicNow()
        if let deadline {
            try timer.schedule(after: max(deadline - before, .microseconds(100)))
        } else {
            try timer.cancel()
        }
        let own = [signals?.descriptor, timer.descriptor].compactMap { $0 }.map { Interest($0) }
        let ready = try waitForReady(own + interests)
        var received: [Int32] = []
        if let signals, ready.contains(signals.descriptor) {
            while let signal = try? signals.next() { received.append(signal) }
        }
        if ready.contains(timer.descriptor) { _ = try? timer.acknowledge() }
        return Wakeup(
            now: monotonicNow(), ready: ready.filter { $0 != timer.descriptor && $0 != signals?.descriptor }, signals: received)
    }
}

extension EventLoop.Next: Equatable where Ending: Equatable {}
extension EventLoop.Next: Sendable where Ending: Sendable {}
