import Activity
import Configuration
import Feeds
import MQTT
import Platform
import Store

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `glance mqtt`: the network side of the home, in its own process. It subscribes to the gauges'
/// topics and writes each number into the store as a metric (`MQTTTopic.metricName`: a gauge
/// then reads it as any other metric, stale by the metric's time), and it shows the panel to
/// Home Assistant (`HomeAssistantDevice`) and hands its commands to the running panel over the
/// control socket. One poll loop: the broker's socket, the panel's socket, the store's watcher,
/// the signals.
public final class MQTTBridge {
    let configuration: Configuration
    let path: String
    let store: Store
    /// The gauges' topics: each (topic, field) once, with its metric.
    let gauges: [(topic: String, field: String?, metric: String)]
    private(set) var client: MQTTClient!
    private var complaints: [String: GaugeFeed.Complaints] = [:]
    /// Values written to the store since the start.
    public private(set) var written = 0
    let log: (String) -> Void

    /// Opens the store (made when missing, as glance run would) for the configuration's broker;
    /// told and an exit status when there is none or the store cannot be opened.
    public static func make(configuration: Configuration, database: String?, log: @escaping (String) -> Void)
        -> Result<MQTTBridge, ExitStatus>
    {
        guard let mqtt = configuration.mqtt else {
            log("no MQTT broker in the configuration: give \"mqtt\": {\"broker\": \"mqtt://HOST:1883\"} (docs/home-assistant.md)")
            return .failure(ExitStatus(Outcome.config))
        }
        let mask = umask(0o007)
        defer { umask(mask) }
        do throws(OutputFailure) {
            let path = try storePath(database ?? configuration.database)
            do throws(StoreError) {
                let store = try Store(path: path)
                return .success(MQTTBridge(configuration: configuration, mqtt: mqtt, path: path, store: store, log: log))
            } catch {
                throw OutputFailure(error.message, status: error.exitStatus)
            }
        } catch {
            log(error.message)
            return .failure(ExitStatus(error.status))
        }
    }

    init(configuration: Configuration, mqtt: MQTTSetting, path: String, store: Store, log: @escaping (String) -> Void) {
        self.configuration = configuration
        self.path = path
        self.store = store
        self.log = log
        store.setBusyTimeout(milliseconds: 250)
        var seen: Set<String> = []
        var gauges: [(topic: String, field: String?, metric: String)] = []
        for gauge in configuration.gauges {
            guard case .mqtt(let topic, let field, _, _) = gauge.source else { continue }
            let metric = MQTTTopic.metricName(topic: topic, field: field)
            if seen.insert(metric).inserted { gauges.append((topic, field, metric)) }
        }
        self.gauges = gauges
        let topics = Array(Set(gauges.map(\.topic))).sorted()
        client = MQTTClient(mqtt.clientOptions(log: log), topics: topics, receive: { [unowned self] in self.received($0) }, log: log)
    }

    // MARK: Gauges

    func received(_ message: MQTTClient.Incoming) {
        for gauge in gauges where gauge.topic == message.topic {
            let problem: String
            switch Payload.number(message.payload, field: gauge.field) {
            case .success(let x) where abs(x) <= Metric.limit:
                do throws(StoreError) {
                    try store.setMetric(gauge.metric, value: x)
                    written += 1
                    continue
                } catch {
                    problem = "the store: \(error.message)"
                }
            case .success(let x): problem = "\(NumberText.plain(x)) is beyond ±10^15"
            case .failure(let p): problem = p.message
            }
            var c = complaints[gauge.metric] ?? GaugeFeed.Complaints()
            if let line = c.line("topic \(gauge.topic): \(problem); ignored", now: monotonicNow()) { log(Quote.logLine(line)) }
            complaints[gauge.metric] = c
        }
    }

    // MARK: The loop

    /// Runs until SIGTERM, SIGINT or SIGHUP (or `stop` becomes readable, for tests).
    public func run(stop: FileDescriptor? = nil) -> Outcome {
        var signals: SignalReceiver?
        if stop == nil {
            do {
                signals = try SignalReceiver([SIGINT, SIGTERM, SIGHUP])
            } catch {
                log(error.description)
                return Outcome.software
            }
        }
        let loop: EventLoop
        do {
            loop = try EventLoop(signals: signals)
        } catch {
            log(error.description)
            return Outcome.software
        }
        log("\(gauges.count) gauge topic\(gauges.count == 1 ? "" : "s") from \(client.options.host):\(client.options.port) into \(path)")
        if let systemd = SystemdNotifier() { try? systemd.ready(status: "bridging \(client.options.host):\(client.options.port)") }
        client.start(now: monotonicNow())
        let ended: Outcome? = try? loop.run(
            watching: { [unowned self] in self.watched + (stop.map { [$0] } ?? []) },
            turn: { [unowned self] (wakeup) throws(SystemError) -> EventLoop.Next<Outcome> in
                if let signal = wakeup.signals.first {
                    finish()
                    log("\(SignalReceiver.name(signal)): stopped")
                    return .end(Outcome.ok)
                }
                if let stop, wakeup.ready.contains(stop) {
                    finish()
                    return .end(Outcome.ok)
                }
                return .wait(until: turn(now: wakeup.now, ready: wakeup.ready))
            },
            failed: { [log] error in
                log(error.description)
                return error
            })
        return ended ?? Outcome.ioError
    }

    var watched: [FileDescriptor] { client.descriptor.map { [$0] } ?? [] }

    /// One turn: what became readable, what is due; the next deadline.
    func turn(now: Duration, ready: [FileDescriptor]) -> Duration? {
        if let fd = client.descriptor, ready.contains(fd) { client.handle(now: now) }
        if let due = client.nextDeadline(now: now), due <= now { client.service(now: now) }
        return client.nextDeadline(now: now)
    }

    func finish() { client.stop(last: nil) }
}

extension MQTTSetting {
    /// The client's options for this broker (its password read from its file; told when it
    /// cannot be read, and connected without).
    func clientOptions(log: (String) -> Void) -> MQTTClient.Options {
        var options = MQTTClient.Options(host: host, port: port, tls: tls, clientId: clientId ?? GaugeFeed.clientId(), keepAlive: keepAlive)
        options.caFile = caFile
        options.certificateFile = certificateFile
        options.keyFile = keyFile
        options.username = username
        if let file = passwordFile {
            if let text = readSmallFile(file, limit: 4096) {
                options.password = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).first.map(String.init) ?? ""
            } else {
                log("mqtt.passwordFile \(file): cannot read it: \(String(cString: strerror(errno))); connecting without")
            }
        }
        return options
    }
}
