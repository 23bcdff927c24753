import HTTP
import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The network side's HTTP servers (glance serve, glance web) run the one way: the signals taken,
/// the server made on `address` (its failure said, with `taken` when the port is in use, as the
/// exit status it stands for), `announce` told the port, systemd told it is ready, then the one
/// poll loop until a signal or `stop`; on the way out the server stops and `flush` says what the
/// refusals' budget left unsaid.
enum HTTPService {
    static func run(
        address: HTTPServer.Address, tls: (key: String, certificate: String)?, limits: HTTPServer.Limits, stop: FileDescriptor?,
        status: String, taken: String, log: @escaping (String) -> Void, flush: @escaping () -> String?,
        head: @escaping HTTPServer.Head, complete: @escaping HTTPServer.Complete, library: @escaping (String) -> Void,
        announce: (Int) -> Void
    ) -> Outcome {
        let signals: SignalReceiver?
        switch Service.signals(stop: stop, log: log) {
        case .success(let s): signals = s
        case .failure(let failure): return failure.code
        }
        let server: HTTPServer
        do {
            server = try HTTPServer(listen: address, tls: tls, limits: limits, head: head, complete: complete, log: library)
        } catch {
            log("\(error)" + (error.errno.rawValue == EADDRINUSE ? taken : ""))
            return error.errno.rawValue == EACCES ? Outcome.noPermission : Outcome.unavailable
        }
        announce(server.port)
        if let systemd = SystemdNotifier() { try? systemd.ready(status: status) }
        return Service.run(
            signals: signals, stop: stop, log: log, sources: [server],
            stopped: { signal in
                server.stop()
                if let unsaid = flush() { log(unsaid) }
                if let signal { log("\(SignalReceiver.name(signal)): stopped") }
            })
    }
}
