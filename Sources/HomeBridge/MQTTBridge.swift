import Activity
import Clocks
import Configuration
import ControlSocket
import Controls
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
/// control socket. One poll loop, with the bridge its one source (`EventSource`): the broker's
/// socket (written to as soon as it takes what is queued), the panel's socket, the store's
/// watcher; and the signals.
public final class MQTTBridge: EventSource {
    let configuration: Configuration
    let path: String
    let store: Store
    /// The gauges' topics: each (topic, field) once, with its metric.
    let gauges: [(topic: String, field: String?, metric: String)]
    private(set) var client: MQTTClient!
    private var complaints: [String: Complaints] = [:]
    /// Values the busy store did not take yet, tried again within a bound.
    var pending = PendingValues()
    /// This store's one bridge (nil: made without, by `init`, for tests of the parts).
    private var lock: BridgeLock?
    /// Values written to the store since the start.
    public private(set) var written = 0
    /// Home Assistant's view of the panel (nil: discovery is off).
    let device: HomeAssistantDevice?
    /// The running panel's control socket, only for Home Assistant (nil: discovery is off, and
    /// the bridge takes none of the socket's watch slots).
    let panel: PanelLink?
    /// What the panel said last (nil: not known yet).
    private(set) var panelState: PanelState? {
        didSet { if panelState != oldValue { camera?.changed(now: monotonicNow()) } }
    }
    /// The panel's frame for the Screenshot image (nil: discovery is off).
    let camera: PanelCamera?
    /// Screenshot images published (for tests).
    private(set) var pictures = 0
    private var pictureComplaints = Complaints()
    /// Today's rings as the store has them, and for which day.
    private var watcher: StoreWatcher?
    private var todayShown: CalendarDay?
    /// Each person's rings today (person 1's first), and the people other than person 1, as
    /// the store had them at the last look.
    private var todaySummaries: [(person: Int, summary: ActivitySummary?)] = [(1, nil)]
    private var sharers: [HomeAssistantDevice.Sharer] = []
    private var nextMidnight: Duration?
    private let clock: any LocalClock
    /// What each state topic was given last (published again only when it changes), and what
    /// the discovery was made for.
    private var published: [String: [UInt8]] = [:]
    private var discovered: (screens: [ScreenKind], dimmable: Bool, cycle: Bool, people: [HomeAssistantDevice.Sharer])?
    /// The configuration topics published last (one left out later is removed: empty, retained).
    private var configTopics: Set<String> = []
    /// Home Assistant's `online`s, answered coalesced and paced.
    private(set) var republish = RepublishPacing()
    /// Republishes made for `online`s (for tests).
    private(set) var republished = 0
    /// Refused commands said per command topic (each its own minute), so one topic's junk does not
    /// hide another's; the topics are the device's own few.
    private var commandComplaints: [String: Complaints] = [:]
    /// The machine's figures (diagnostic sensors: for those it had at the start), read again
    /// every `hostEvery` (nil: discovery is off).
    private(set) var hostFacts: HostFacts?
    private var hostShape: HostFacts?
    private var hostAt: Duration?
    var hostEvery: Duration = .seconds(60)
    /// Reads the machine's figures (tests give their own).
    var readHost: () -> HostFacts
    /// Refused commands answered in Home Assistant (for tests).
    private(set) var refusedAnswered = 0
    let log: (String) -> Void

    /// Opens the store (made when missing, as glance run would) for the configuration's broker;
    /// told and an exit status when there is none or the store cannot be opened.
    public static func make(
        configuration: Configuration, database: String?, version: String, clock: any LocalClock = SystemLocalClock(),
        log: @escaping (String) -> Void
    ) -> Result<MQTTBridge, ExitStatus> {
        guard let mqtt = configuration.mqtt else {
            log("no MQTT broker in the configuration: give \"mqtt\": {\"broker\": \"mqtt://HOST:1883\"} (docs/home-assistant.md)")
            return .failure(ExitStatus(Outcome.config))
        }
        return Service.openStore(database ?? configuration.database, log: log).flatMap { opened in
            switch BridgeLock.take(store: opened.path) {
            case .failure(.held(let message)):
                log(message)
                return .failure(ExitStatus(Outcome.temporaryFailure))
            case .failure(.failed(let message, let status)):
                log(message)
                return .failure(ExitStatus(status))
            case .success(let lock):
                let bridge = MQTTBridge(
                    configuration: configuration, mqtt: mqtt, path: opened.path, store: opened.store, version: version, clock: clock,
                    log: log)
                bridge.lock = lock
                return .success(bridge)
            }
        }
    }

    init(
        configuration: Configuration, mqtt: MQTTSetting, path: String, store: Store, version: String, clock: any LocalClock,
        log: @escaping (String) -> Void
    ) {
        self.configuration = configuration
        self.path = path
        self.store = store
        self.clock = clock
        self.log = log
        device =
            configuration.homeAssistant.enabled
            ? HomeAssistantDevice(setting: configuration.homeAssistant, machineId: Self.machineId(), version: version) : nil
        panel =
            device == nil
            ? nil : PanelLink(paths: configuration.run.controlSocket.map { [$0] } ?? ControlSocketLocation.clientPaths(), log: log)
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        readHost = { HostFacts.read(storeFolder: folder.isEmpty ? "." : folder, now: Int64(time(nil))) }
        camera = panel.map { PanelCamera(paths: $0.paths) }
        store.setBusyTimeout(milliseconds: 250)
        var seen: Set<String> = []
        var gauges: [(topic: String, field: String?, metric: String)] = []
        for gauge in configuration.gauges {
            guard case .mqtt(let topic, let field, _, _) = gauge.source else { continue }
            let metric = MQTTTopic.metricName(topic: topic, field: field)
            if seen.insert(metric).inserted { gauges.append((topic, field, metric)) }
        }
        self.gauges = gauges
        var topics = Array(Set(gauges.map(\.topic))).sorted()
        var options = mqtt.clientOptions(log: log)
        if let device {
            topics += device.commandTopics + [device.messageTopic, device.status]
            options.will = MQTTClient.Outgoing(topic: device.availability, payload: HomeAssistantDevice.offline, retain: true)
            do throws(StoreError) {
                watcher = try StoreWatcher(store: store)
            } catch {
                log("\(error.message): today's rings reach Home Assistant when glance mqtt starts again")
            }
        }
        client = MQTTClient(options, topics: topics, receive: { [unowned self] in self.received($0) }, log: log)
        client.onConnect = { [unowned self] in self.connected() }
    }

    /// "glance-", the host name and a part of this process's own: a broker drops an older client
    /// with the same id, and the service and glance watch on one host must not knock each other
    /// off for ever. At most 23 bytes (MQTT 3.1.1 brokers may take no more).
    static func clientId() -> String {
        var name = [CChar](repeating: 0, count: 64)
        gethostname(&name, name.count)
        let host = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        let pid = String(UInt32(getpid()), radix: 36)
        let random = String(UInt32.random(in: 0..<46656), radix: 36)  // 36^3
        let own: String = pid + random
        let room = max(0, 23 - 8 - own.utf8.count)
        let kept: String = String(decoding: Array(host.utf8.prefix(room)), as: UTF8.self)
        return "glance-" + kept + "-" + own
    }

    /// The machine's id (/etc/machine-id), else the host's name: what the device's node is made
    /// from.
    static func machineId() -> String {
        if let text = readSmallFile("/etc/machine-id", limit: 256), let id = text.split(separator: "\n").first, !id.isEmpty {
            return String(id)
        }
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, name.count)
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: Home Assistant

    /// On every connect: online, the discovery, every state.
    private func connected() {
        guard let device else { return }
        client.publish(MQTTClient.Outgoing(topic: device.availability, payload: HomeAssistantDevice.online, retain: true))
        republishAll(now: monotonicNow())
    }

    /// The discovery and every state, again (a new connection, Home Assistant back).
    private func republishAll(now: Duration) {
        publishDiscovery(force: true)
        published = [:]
        publishStates()
        republish.done(now: now)
    }

    /// Whether the panel has a cycle to switch: one configured (the top-level cycle, or a
    /// schedule window's), or one the panel says it has. Not only the panel's word of the moment:
    /// a window without a cycle would otherwise remove the switch and add it back at its ends.
    var hasCycle: Bool {
        panelState?.cycle != nil || configuration.cycle != nil
            || configuration.schedule.contains { if case .set = $0.cycle { true } else { false } }
    }

    /// The entities' configurations, when they were not published yet for these screens (or
    /// `force`: a new connection, Home Assistant back). An entity no longer there (the cycle
    /// switch) is removed.
    private func publishDiscovery(force: Bool) {
        guard let device, client.connected else { return }
        let screens = HomeAssistantDevice.selectable(
            panel: panelState, configured: configuration.screens, windows: configuration.schedule.compactMap(\.screens))
        let dimmable = panelState?.dimmable ?? true
        let cycle = hasCycle
        let people = sharers
        if !force, let d = discovered, d.screens == screens, d.dimmable == dimmable, d.cycle == cycle, d.people == people { return }
        let messages = device.discovery(screens: screens, dimmable: dimmable, cycle: cycle, host: hostShape, people: people)
        let topics = Set(messages.map(\.topic))
        for gone in configTopics.subtracting(topics).sorted() { client.publish(HomeAssistantDevice.removal(gone)) }
        for message in messages { client.publish(message) }
        configTopics = topics
        discovered = (screens, dimmable, cycle, people)
    }

    /// The state topics that changed.
    private func publishStates() {
        guard let device, client.connected else { return }
        let alive = device.panel(available: panel?.alive == true)
        let host = hostFacts.map { [device.host($0)] } ?? []
        let messages = [alive] + device.states(panel: panelState, cycleSwitch: hasCycle)
            + todaySummaries.map { device.today($0.summary, person: $0.person) } + host
        for message in messages where published[message.topic] != message.payload {
            if client.publish(message) { published[message.topic] = message.payload }
        }
        // A person removed: their retained rings go from the broker with them.
        let people = Set(todaySummaries.map { device.todayTopic(person: $0.person) })
        for topic in published.keys.sorted() where topic.hasPrefix(device.base + "/today_") && !people.contains(topic) {
            if client.publish(HomeAssistantDevice.removal(topic)) { published[topic] = nil }
        }
    }

    /// Today's rings read again (a new day, the store changed).
    private func readToday(now: Duration) {
        guard device != nil else { return }
        let today = clock.today()
        todayShown = today
        let s = clock.secondsUntilMidnight()
        nextMidnight = s.isFinite ? now + .milliseconds(Int64(s * 1000) + 500) : nil
        do throws(StoreError) {
            // What the panel shows for today (the day's own figures, its samples' sums, the
            // standing goals or the configuration's), one function with the panel's; each
            // person's (a household's store), person 1's as before there were people.
            let people = try store.people()
            var summaries: [(person: Int, summary: ActivitySummary?)] = []
            defer { store.person = 1 }
            for person in people.isEmpty ? [1] : people.map(\.id) {
                store.person = person
                summaries.append((person, try store.shownToday(today, defaults: configuration.goals.standing)))
            }
            todaySummaries = summaries
            sharers = people.filter { $0.id != 1 }.map { HomeAssistantDevice.Sharer(id: $0.id, name: $0.name) }
        } catch {
            log("today's rings: \(error.message)")
        }
    }

    private func command(_ message: MQTTClient.Incoming, _ device: HomeAssistantDevice) {
        // A command kept by the broker is an old one (someone published it retained): never acted on.
        if message.retained {
            complainCommand("\(message.topic): a retained message, ignored (commands are acted on as they come)", topic: message.topic)
            return
        }
        let parsed =
            message.topic == device.messageTopic
            ? device.messageRequest(message.payload) : device.request(topic: message.topic, payload: message.payload)
        switch parsed {
        case .failure(let refusal):
            complainCommand("\(message.topic): \(refusal.reason); ignored", topic: message.topic)
            answerRefused(PanelLink.Refusal(topic: message.topic, asked: String(decoding: message.payload.prefix(16), as: UTF8.self), reason: refusal.reason), device)
        case .success(let request):
            if panel?.send(request, topic: message.topic) != true {
                complainCommand(
                    "\(message.topic): \(request.described): the panel is not running (glance run); ignored", topic: message.topic)
                answerRefused(
                    PanelLink.Refusal(topic: message.topic, asked: request.described, reason: "the panel is not running (glance run)"), device)
            }
        }
    }

    /// A command not taken, answered in Home Assistant: the Refused command event says which and
    /// why, and every state is published again, so an entity Home Assistant showed as changed
    /// goes back to what the panel shows.
    private func answerRefused(_ refusal: PanelLink.Refusal, _ device: HomeAssistantDevice) {
        guard client.connected else { return }
        refusedAnswered += 1
        client.publish(device.refused(topic: refusal.topic, asked: refusal.asked, reason: refusal.reason))
        published = [:]
        publishStates()
    }

    /// Said at most once a minute per command topic (the device's own, a fixed few: `received`
    /// hands only those here), so each topic's refusal is heard.
    private func complainCommand(_ line: String, topic: String) {
        var c = commandComplaints[topic] ?? Complaints()
        if let said = c.line(line, now: monotonicNow()) { log(Quote.logLine(said)) }
        commandComplaints[topic] = c
    }

    // MARK: Gauges

    func received(_ message: MQTTClient.Incoming) {
        if let device {
            if message.topic == device.status {
                // A retained `online` is Home Assistant's state when the bridge subscribed: the
                // connect published everything already. A live one asks for it again, paced.
                if message.payload == HomeAssistantDevice.online, !message.retained { republish.ask() }
                return
            }
            if device.commandTopics.contains(message.topic) || message.topic == device.messageTopic {
                command(message, device)
                return
            }
        }
        for gauge in gauges where gauge.topic == message.topic {
            let problem: String
            switch Payload.number(message.payload, field: gauge.field) {
            case .success(let x) where abs(x) <= Metric.limit:
                do throws(StoreError) {
                    try store.setMetric(gauge.metric, value: x)
                    written += 1
                    pending.written(metric: gauge.metric)
                    continue
                } catch where error.kind == .busy {
                    // Another process holds the store's write lock: the latest value kept, tried again.
                    pending.failed(metric: gauge.metric, topic: gauge.topic, value: x, now: monotonicNow())
                    continue
                } catch {
                    problem = "the store: \(error.message)"
                }
            case .success(let x): problem = "\(NumberText.plain(x)) is beyond ±10^15"
            case .failure(let p): problem = p.message
            }
            var c = complaints[gauge.metric] ?? Complaints()
            if let line = c.line("topic \(gauge.topic): \(problem); ignored", now: monotonicNow()) { log(Quote.logLine(line)) }
            complaints[gauge.metric] = c
        }
    }

    /// The values the busy store did not take, tried again when due; the first still busy ends
    /// the turn's tries (the others would wait as long). One past the limit is given up, said.
    func retryPending(now: Duration) {
        for (metric, value) in pending.due(now: now) {
            do throws(StoreError) {
                try store.setMetric(metric, value: value.value)
                written += 1
                pending.written(metric: metric)
            } catch where error.kind == .busy {
                let at = monotonicNow()
                if pending.expired(value, now: at) {
                    pending.written(metric: metric)
                    log(
                        Quote.logLine(
                            "topic \(value.topic): the store stayed busy for \(Int(pending.limit.inSeconds)) s (another process "
                                + "holds its write lock); the value \(NumberText.plain(value.value)) was not written, the next one is tried"))
                } else {
                    pending.failed(metric: metric, topic: value.topic, value: value.value, now: at)
                }
                return
            } catch {
                pending.written(metric: metric)
                log(Quote.logLine("topic \(value.topic): the store: \(error.message); ignored"))
            }
        }
    }

    // MARK: The loop

    /// Runs until SIGTERM, SIGINT or SIGHUP (or `stop` becomes readable, for tests).
    public func run(stop: FileDescriptor? = nil) -> Outcome {
        let signals: SignalReceiver?
        switch Service.signals(stop: stop, log: log) {
        case .success(let s): signals = s
        case .failure(let status): return status.code
        }
        log("\(gauges.count) gauge topic\(gauges.count == 1 ? "" : "s") from \(client.options.host):\(client.options.port) into \(path)")
        if let systemd = SystemdNotifier() { try? systemd.ready(status: "bridging \(client.options.host):\(client.options.port)") }
        begin(now: monotonicNow())
        return Service.run(
            signals: signals, stop: stop, log: log, sources: [self],
            stopped: { signal in
                finish()
                if let signal { log("\(SignalReceiver.name(signal)): stopped") }
            })
    }

    /// Today read, the panel and the broker connected to (or tried).
    func begin(now: Duration) {
        readToday(now: now)
        if device != nil {
            hostFacts = readHost()
            hostShape = hostFacts
            hostAt = now + hostEvery
        }
        panel?.connect(now: now)
        client.start(now: now)
    }

    /// The broker's socket (for writing too while messages wait), the panel's, the store's watcher.
    public var interests: [Interest] {
        var interests = client.interests
        if let fd = panel?.descriptor { interests.append(Interest(fd)) }
        if let fd = camera?.descriptor { interests.append(Interest(fd)) }
        if let watcher { interests.append(Interest(FileDescriptor(rawValue: watcher.fileDescriptor))) }
        return interests
    }

    /// One turn: what became ready, what is due. Always false: what changed is published here.
    public func handle(ready: [FileDescriptor], now: Duration) -> Bool {
        _ = client.handle(ready: ready, now: now)
        retryPending(now: now)
        if let panel {
            if let fd = panel.descriptor, ready.contains(fd) {
                let (states, refused) = panel.receive(now: now)
                for state in states { panelState = state }
                if let device { for refusal in refused { answerRefused(refusal, device) } }
                // How each message went, as the Message dismissed event (lost while the broker is
                // away: an event is not kept).
                for end in panel.takeMessageEnds() where client.connected { if let device { client.publish(device.dismissed(end)) } }
            }
            panel.checkAlive(now: now)
            if panel.descriptor == nil, let at = panel.retryAt, now >= at { panel.connect(now: now) }
        }
        if let camera, let device {
            if let fd = camera.descriptor, ready.contains(fd), let answer = camera.receive() {
                switch answer {
                case .success(let png):
                    if client.connected, client.publish(device.screenshot(png)) { pictures += 1 }
                case .failure(let failure):
                    if let line = pictureComplaints.line("the Screenshot image: \(failure)", now: now) { log(Quote.logLine(line)) }
                }
            }
            camera.turn(now: now, panelAlive: client.connected && panel?.alive == true)
        }
        if let watcher, watcher.changed() { readToday(now: now) }
        if let m = nextMidnight, now >= m { readToday(now: now) }
        if let at = hostAt, now >= at {
            hostFacts = readHost()
            hostAt = now + hostEvery
        }
        if client.connected, republish.due(now: now) {
            republished += 1
            republishAll(now: now)
        }
        publishDiscovery(force: false)
        publishStates()
        return false
    }

    /// The earliest of the broker's keep-alive or retry, the panel's retry, midnight and the
    /// store's recheck.
    public func nextDeadline(now: Duration) -> Duration? {
        var next = client.nextDeadline(now: now)
        let deadlines: [Duration?] = [
            panel.flatMap { $0.descriptor == nil ? $0.retryAt : $0.keepAliveDeadline }, nextMidnight, watcher.flatMap(Self.recheck),
            client.connected ? republish.deadline : nil, pending.deadline, hostAt, camera?.deadline,
        ]
        for deadline in deadlines {
            if let deadline { next = next.map { min($0, deadline) } ?? deadline }
        }
        return next
    }

    static func recheck(_ watcher: StoreWatcher) -> Duration? {
        let ms = watcher.pollTimeout
        return ms < 0 ? nil : monotonicNow() + .milliseconds(Int64(ms))
    }

    /// Stopped: offline said, the connection closed (the broker then sends no last will).
    func finish() {
        client.stop(last: device.map { MQTTClient.Outgoing(topic: $0.availability, payload: HomeAssistantDevice.offline, retain: true) })
    }
}

extension MQTTSetting {
    /// The client's options for this broker (its password read from its file; told when it
    /// cannot be read, and connected without).
    func clientOptions(log: (String) -> Void) -> MQTTClient.Options {
        var options = MQTTClient.Options(host: host, port: port, tls: tls, clientId: clientId ?? MQTTBridge.clientId(), keepAlive: keepAlive)
        options.caFile = caFile
        options.certificateFile = certificateFile
        options.keyFile = keyFile
        options.username = username
        if let file = passwordFile {
            if let text = readSmallFile(file, limit: 4096) {
                options.password = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).first.map(String.init) ?? ""
            } else {
                log(
                    "mqtt.passwordFile \(file): cannot read it: \(String(cString: strerror(errno))); connecting without a password; "
                        + "make it readable by the user glance mqtt runs as (glance-net, in group glance: chgrp glance, chmod 0640)")
            }
        }
        return options
    }
}

/// The running panel's control socket, from the bridge: `watch` on connect, then commands on the
/// same connection; tried again every second while there is no panel. The panel answers each
/// command in turn (`ok` or `refused …`) and tells its state when it changes; a panel silent for
/// `keepAlive` is asked its `state`, and one that does not answer within `answerWithin` is taken
/// for gone (its loop stuck: systemd's watchdog restarts it), the connection closed and tried
/// again. So `alive` is what the panel's availability says in Home Assistant.
final class PanelLink {
    let paths: [String]
    private var socket: PacketSocket?
    private(set) var retryAt: Duration?
    private var toldAway = false
    private var refusals = Complaints()
    private let log: (String) -> Void
    /// When the panel was last heard (nil: not since the connection was made).
    private var heard: Duration?
    /// When a `state` was asked for because the panel was silent (nil: none is outstanding).
    private var asked: Duration?
    /// The messages the panel said went since `takeMessageEnds`, in order.
    private var messageEnds: [MessageEnd] = []
    /// The commands sent and not answered yet, oldest first: (command topic, what was asked).
    private var sent: [(topic: String, asked: String)] = []
    /// A silent panel is asked its state after this long, and taken for gone when it has not
    /// answered within `answerWithin` (so Home Assistant shows it unavailable within 40 s).
    var keepAlive: Duration = .seconds(30)
    var answerWithin: Duration = .seconds(10)
    /// At most this many commands wait for their answers (older ones are forgotten: their answers
    /// then come unnamed).
    static let maximumSent = 32

    /// A command the panel did not take: the topic it came on, what it asked, the panel's reason.
    struct Refusal: Equatable {
        let topic: String
        let asked: String
        let reason: String
    }

    init(paths: [String], log: @escaping (String) -> Void) {
        self.paths = paths
        self.log = log
    }

    var descriptor: FileDescriptor? { socket?.descriptor }
    var connected: Bool { socket != nil }
    /// Connected, and the panel heard on this connection (it answers `watch` with its state).
    var alive: Bool { socket != nil && heard != nil }

    func connect(now: Duration) {
        for path in paths {
            guard let s = try? PacketSocket.connect(to: path) else { continue }
            guard (try? s.send(Array(PanelRequest.watch.text.utf8))) != nil else { continue }
            socket = s
            retryAt = nil
            heard = nil
            asked = now
            sent = []
            log("the panel's control socket \(path): connected\(toldAway ? " again" : "")")
            toldAway = false
            return
        }
        if !toldAway {
            toldAway = true
            log("no running panel answers (\(paths.joined(separator: ", "))): Home Assistant's commands wait for glance run")
        }
        retryAt = now + .seconds(1)
    }

    /// Sends `request`, come on `topic`; false when there is no panel (or it cannot take it now).
    func send(_ request: PanelRequest, topic: String = "") -> Bool {
        guard let socket, (try? socket.send(Array(request.text.utf8), nonblocking: true)) != nil else { return false }
        sent.append((topic, request.described))
        if sent.count > Self.maximumSent { sent.removeFirst(sent.count - Self.maximumSent) }
        return true
    }

    /// The states that came, and the commands refused (each logged too, at most once a minute).
    func receive(now: Duration) -> (states: [PanelState], refused: [Refusal]) {
        guard let socket else { return ([], []) }
        var states: [PanelState] = []
        var refused: [Refusal] = []
        for _ in 0..<32 {
            let message: (bytes: [UInt8], fd: FileDescriptor?)?
            do {
                message = try socket.receive(capacity: 512, nonblocking: true)
            } catch {
                message = ([], nil)
            }
            guard let message else { break }
            message.fd?.close()
            if message.bytes.isEmpty {
                gone(now: now, why: "the panel went away: Home Assistant's commands wait for it")
                break
            }
            heard = now
            asked = nil
            let text = String(decoding: message.bytes, as: UTF8.self)
            if let state = PanelState(text: text) {
                states.append(state)
            } else if text == "ok" {
                if !sent.isEmpty { sent.removeFirst() }
            } else if let end = MessageEnd(line: text) {
                messageEnds.append(end)
                if messageEnds.count > Self.maximumSent { messageEnds.removeFirst() }
            } else if text.hasPrefix("refused ") {
                let reason = String(text.dropFirst("refused ".count))
                if !sent.isEmpty {
                    let command = sent.removeFirst()
                    refused.append(Refusal(topic: command.topic, asked: command.asked, reason: reason))
                }
                if let line = refusals.line("the panel " + text, now: now) { log(Quote.logLine(line)) }
            }
        }
        return (states, refused)
    }

    /// The messages the panel said went (`message dismissed …`) since the last call, in order.
    func takeMessageEnds() -> [MessageEnd] {
        defer { messageEnds = [] }
        return messageEnds
    }

    /// The keep-alive: a `state` asked of a panel silent for `keepAlive`; one that does not answer
    /// within `answerWithin` is let go (and tried again in a second).
    func checkAlive(now: Duration) {
        guard let socket else { return }
        if let asked {
            if now - asked >= answerWithin {
                gone(now: now, why: "the panel did not answer for \(NumberText.plain(answerWithin.inSeconds)) s: taken for gone, connecting again")
            }
        } else if now - (heard ?? now) >= keepAlive {
            if (try? socket.send(Array(PanelRequest.state.text.utf8), nonblocking: true)) != nil {
                asked = now
            } else {
                gone(now: now, why: "the panel takes no more requests: taken for gone, connecting again")
            }
        }
    }

    /// When the keep-alive acts next (nil: no connection).
    var keepAliveDeadline: Duration? {
        guard socket != nil else { return nil }
        if let asked { return asked + answerWithin }
        return heard.map { $0 + keepAlive }
    }

    private func gone(now: Duration, why: String) {
        log(why)
        socket = nil
        heard = nil
        asked = nil
        sent = []
        toldAway = true
        retryAt = now + .seconds(1)
    }
}
