#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What the services (`glance serve`, `glance mqtt`) share: their signals and their one poll loop
/// until one comes (and their store, opened as their units run them: `openStore`, in Store).
package enum Service {
    /// SIGINT, SIGTERM and SIGHUP taken by a signalfd (nil with `stop`: tests stop the loop that
    /// way). Made before any library starts a thread: the signals must be blocked in all of them.
    package static func signals(stop: FileDescriptor?, log: (String) -> Void) -> Result<SignalReceiver?, ExitStatus> {
        guard stop == nil else { return .success(nil) }
        do {
            return .success(try SignalReceiver([SIGINT, SIGTERM, SIGHUP]))
        } catch {
            log(error.description)
            return .failure(ExitStatus(Outcome.software))
        }
    }

    /// Turns until one of `signals` (or `stop` becomes readable), when `stopped` is called with
    /// the signal (nil: `stop`). Each turn hands what became ready to `sources` and sleeps until
    /// the earliest of their deadlines.
    package static func run(
        signals: SignalReceiver?, stop: FileDescriptor?, log: @escaping (String) -> Void, sources: [any EventSource],
        stopped: (Int32?) -> Void
    ) -> Outcome {
        let loop: EventLoop
        do {
            loop = try EventLoop(signals: signals)
        } catch {
            log(error.description)
            return Outcome.software
        }
        let ended: Outcome? = try? loop.run(
            watching: { sources.interests + (stop.map { [Interest($0)] } ?? []) },
            turn: { (wakeup) throws(SystemError) -> EventLoop.Next<Outcome> in
                if let signal = wakeup.signals.first {
                    stopped(signal)
                    return .end(Outcome.ok)
                }
                if let stop, wakeup.ready.contains(stop) {
                    stopped(nil)
                    return .end(Outcome.ok)
                }
                _ = sources.handle(ready: wakeup.ready, now: wakeup.now)
                return .wait(until: sources.nextDeadline(now: wakeup.now))
            },
            failed: { error in
                log(error.description)
                return error
            })
        return ended ?? Outcome.ioError
    }
}
