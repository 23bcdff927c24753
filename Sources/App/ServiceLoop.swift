import Platform
import Store

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What the services (`glance serve`, `glance mqtt`) share: their store opened as their units run
/// them, and their one poll loop until a signal.
package enum Service {
    /// The store at `given` (else the default place), made when missing, as the unit runs it
    /// (UMask=0007): a store made here, its folder, -wal and -shm (SQLite gives them the
    /// database's mode) are for the owner and group glance only, whatever umask the shell that
    /// started it had. Told and an exit status when it cannot be opened.
    package static func openStore(_ given: String?, log: (String) -> Void) -> Result<(path: String, store: Store), ExitStatus> {
        let mask = umask(0o007)
        defer { umask(mask) }
        do throws(OutputFailure) {
            let path = try storePath(given)
            do throws(StoreError) {
                return .success((path, try Store(path: path)))
            } catch {
                throw OutputFailure(error.message, status: error.exitStatus)
            }
        } catch {
            log(error.message)
            return .failure(ExitStatus(error.status))
        }
    }

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
    /// the signal (nil: `stop`). `turn` handles what became readable and says the next deadline.
    package static func run(
        signals: SignalReceiver?, stop: FileDescriptor?, log: @escaping (String) -> Void, watching: () -> [FileDescriptor],
        turn: (EventLoop.Wakeup) -> Duration?, stopped: (Int32?) -> Void
    ) -> Outcome {
        let loop: EventLoop
        do {
            loop = try EventLoop(signals: signals)
        } catch {
            log(error.description)
            return Outcome.software
        }
        let ended: Outcome? = try? loop.run(
            watching: { watching() + (stop.map { [$0] } ?? []) },
            turn: { (wakeup) throws(SystemError) -> EventLoop.Next<Outcome> in
                if let signal = wakeup.signals.first {
                    stopped(signal)
                    return .end(Outcome.ok)
                }
                if let stop, wakeup.ready.contains(stop) {
                    stopped(nil)
                    return .end(Outcome.ok)
                }
                return .wait(until: turn(wakeup))
            },
            failed: { error in
                log(error.description)
                return error
            })
        return ended ?? Outcome.ioError
    }
}
