internal import CMosquitto
import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An MQTT client on libmosquitto, one of the caller's poll loop's sources (`EventSource`): its
/// socket is polled for reading, and for writing too while libmosquitto has bytes queued
/// (`mosquitto_want_write`), so what is published goes out as soon as the socket takes it; its
/// deadline is the next keep-alive or reconnect. No thread of its own; it never blocks beyond a
/// host name lookup when connecting (give the broker as an address to avoid even that).
///
/// The broker going away is told once; it is tried again with backoff (1 s doubling to 60 s) and
/// the subscriptions are made again on every connect.
///
/// Messages are bounded before they arrive: the client speaks MQTT 5 and tells the broker its
/// Maximum Packet Size, so the broker drops a larger message for it instead of sending it
/// (libmosquitto 2.0's own client takes in a whole packet, up to 256 MB, whatever its size; it
/// has no option to bound that). libmosquitto 2.0 sends CONNECT properties only from its blocking
/// connect, so the TCP connection is first tried without blocking, in the caller's loop, and the
/// blocking connect is made only once the broker answered (it then takes a moment, not a TCP
/// timeout). A broker that speaks only MQTT 3.1.1 is spoken to in 3.1.1, said once: then a large
/// message is taken in before it is dropped.
public final class MQTTClient: EventSource {
    public struct Options: Sendable {
        public var host: String
        public var port: Int
        public var tls: Bool
        public var caFile: String?
        public var certificateFile: String?
        public var keyFile: String?
        public var username: String?
        public var password: String?
        public var clientId: String
        public var keepAlive: Int
        /// The largest packet taken from the broker (MQTT 5's Maximum Packet Size): a payload of
        /// 64 KiB (what the client hands on) with its topic and headers.
        public var maximumPacket = 65536 + 4096
        /// What the broker publishes for this client when it goes away without saying goodbye (its
        /// last will): a retained "offline" on an availability topic, say.
        public var will: Outgoing?

        public init(host: String, port: Int, tls: Bool, clientId: String, keepAlive: Int = 60) {
            self.host = host
            self.port = port
            self.tls = tls
            self.clientId = clientId
            self.keepAlive = keepAlive
        }
    }

    /// A message to publish (QoS 1).
    public struct Outgoing: Sendable, Equatable {
        public var topic: String
        public var payload: [UInt8]
        public var retain: Bool
        public init(topic: String, payload: [UInt8], retain: Bool) {
            self.topic = topic
            self.payload = payload
            self.retain = retain
        }
    }

    /// A message that came: its topic, payload (at most 64 KiB), and whether the broker kept it
    /// (a retained message, sent as a subscription starts, not as it was published).
    public struct Incoming: Sendable, Equatable {
        public var topic: String
        public var payload: [UInt8]
        public var retained: Bool
    }

    public let options: Options
    public let topics: [String]
    private var handle_: OpaquePointer?
    private let onMessage: (Incoming) -> Void
    /// Called on every connect, after the subscriptions are asked for (what is published on
    /// connect: availability, discovery).
    public var onConnect: (() -> Void)?
    private let log: (String) -> Void
    /// Connected (CONNACK accepted).
    public private(set) var connected = false
    private var connecting = false
    private var retryAt: Duration?
    private var retryDelay = Duration.seconds(1)
    private var lastMisc: Duration?
    /// Told that the broker is away (once an outage).
    private var toldAway = false
    private var refusal: String?
    /// MQTT 5 (with the Maximum Packet Size) until a broker says it speaks only 3.1.1.
    public private(set) var speaksV5 = true
    /// The TCP connection tried without blocking before the blocking MQTT 5 connect.
    private var probe: (fd: Int32, since: Duration)?
    /// Connections lost or refused since the start (a broker that keeps dropping the client, say
    /// for another with the same client id).
    public private(set) var losses = 0

    public convenience init(
        _ options: Options, topics: [String], onMessage: @escaping (String, [UInt8]) -> Void,
        log: @escaping (String) -> Void
    ) {
        self.init(options, topics: topics, receive: { onMessage($0.topic, $0.payload) }, log: log)
    }

    public init(
        _ options: Options, topics: [String], receive: @escaping (Incoming) -> Void, log: @escaping (String) -> Void
    ) {
        self.options = options
        self.topics = topics
        self.onMessage = receive
        self.log = log
        Self.initialise
        let context = Unmanaged.passUnretained(self).toOpaque()
        handle_ = mosquitto_new(options.clientId, true, context)
        guard let m = handle_ else {
            log("MQTT: cannot make a client (out of memory?)")
            return
        }
        _ = mosquitto_int_option(m, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5)
        mosquitto_connect_callback_set(m, connectCallback)
        mosquitto_disconnect_callback_set(m, disconnectCallback)
        mosquitto_message_callback_set(m, messageCallback)
        if let username = options.username { mosquitto_username_pw_set(m, username, options.password) }
        if let will = options.will {
            let rc = will.payload.withUnsafeBytes {
                mosquitto_will_set(m, will.topic, Int32(will.payload.count), $0.baseAddress, 1, will.retain)
            }
            if rc != 0 { log("MQTT last will on \(will.topic): \(Self.text(rc))") }
        }
        if options.tls {
            // The given CA, else the system's certificates.
            let rc = mosquitto_tls_set(
                m, options.caFile, options.caFile == nil ? "/etc/ssl/certs" : nil, options.certificateFile, options.keyFile,
                nil)
            if rc != 0 { log("MQTT TLS: \(Self.text(rc))") }
        }
    }

    deinit {
        if let probe { close(probe.fd) }
        if let m = handle_ {
            if connected { mosquitto_disconnect(m) }
            mosquitto_destroy(m)
        }
    }

    private static let initialise: Void = { _ = mosquitto_lib_init() }()

    /// The socket to wait on, while there is one.
    public var descriptor: FileDescriptor? {
        guard let m = handle_, probe == nil else { return nil }
        let fd = mosquitto_socket(m)
        return fd >= 0 ? FileDescriptor(rawValue: fd) : nil
    }

    /// Starts connecting (at once, or when the backoff says).
    public func start(now: Duration) {
        guard let m = handle_, !connected, !connecting else { return }
        connecting = true
        guard speaksV5 else {
            let rc = mosquitto_connect_async(m, options.host, Int32(options.port), Int32(options.keepAlive))
            if rc != 0 {
                connecting = false
                lost("cannot connect: \(Self.text(rc))", now: now, advice: Self.checkBroker)
                return
            }
            lastMisc = now
            flush()
            return
        }
        switch Self.tcpConnect(options.host, options.port) {
        case .failed(let why):
            connecting = false
            lost("cannot connect: \(why)", now: now, advice: Self.checkBroker)
        case .started(let fd):
            probe = (fd, now)
            checkProbe(now: now)
        }
    }

    /// A TCP connection to `host`:`port` started without blocking (a name is looked up, as
    /// libmosquitto would): its socket, or why it failed at once.
    enum TCPConnect { case started(Int32), failed(String) }

    static func tcpConnect(_ host: String, _ port: Int) -> TCPConnect {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var found: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &found)
        guard rc == 0, let first = found else { return .failed(String(cString: gai_strerror(rc))) }
        defer { freeaddrinfo(found) }
        let fd = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failed(String(cString: strerror(errno))) }
        if connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) != 0 && errno != EINPROGRESS {
            let why = String(cString: strerror(errno))
            close(fd)
            return .failed(why)
        }
        return .started(fd)
    }

    /// The probe's outcome, if it has one: the broker answered (the MQTT 5 connect follows at
    /// once), it refused, or it did not answer within 10 s.
    private func checkProbe(now: Duration) {
        guard let (fd, since) = probe, let m = handle_ else { return }
        var item = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        let ready = poll(&item, 1, 0) == 1
        if !ready {
            guard now - since >= .seconds(10) else { return }
            close(fd)
            probe = nil
            connecting = false
            lost("cannot connect: no answer within 10 s", now: now, advice: Self.checkBroker)
            return
        }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
        close(fd)
        probe = nil
        guard error == 0 else {
            connecting = false
            lost("cannot connect: \(String(cString: strerror(error)))", now: now, advice: Self.checkBroker)
            return
        }
        var properties: OpaquePointer?
        _ = mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_MAXIMUM_PACKET_SIZE.rawValue), UInt32(options.maximumPacket))
        let rc = mosquitto_connect_bind_v5(m, options.host, Int32(options.port), Int32(options.keepAlive), nil, properties)
        mosquitto_property_free_all(&properties)
        if rc != 0 {
            connecting = false
            lost("cannot connect: \(Self.text(rc))", now: now, advice: Self.checkBroker)
            return
        }
        lastMisc = now
        flush()
    }

    /// The socket became ready: packets in (messages, acknowledgements; libmosquitto reads
    /// without blocking and takes "nothing yet" as success), then queued writes out.
    public func handle(now: Duration) {
        guard let m = handle_, descriptor != nil else { return }
        let rc = mosquitto_loop_read(m, 16)
        if rc != 0 && rc != Int32(MOSQ_ERR_SUCCESS.rawValue) {
            connected = false
            connecting = false
            lost(refusal ?? Self.text(rc), now: now, advice: refusal == nil ? nil : Self.checkCredentials)
            return
        }
        flush()
    }

    /// Keep-alives, a reconnect that is due, writes still queued.
    public func service(now: Duration) {
        guard let m = handle_ else { return }
        if probe != nil {
            checkProbe(now: now)
            return
        }
        if let retryAt, now >= retryAt, !connected, !connecting {
            self.retryAt = nil
            start(now: now)
            return
        }
        if connected || connecting {
            let rc = mosquitto_loop_misc(m)
            lastMisc = now
            if rc != 0, connected {
                connected = false
                lost(Self.text(rc), now: now)
                return
            }
            flush()
        }
    }

    /// When `service` must run: the next keep-alive (half the interval), a retry, or the end of
    /// the wait for the broker to answer a connect. Queued writes need no deadline: the socket is
    /// polled for writing while they wait (`interests`).
    public func nextDeadline(now: Duration) -> Duration? {
        if let probe { return probe.since + .seconds(10) }
        if let retryAt { return retryAt }
        guard handle_ != nil, connected || connecting else { return nil }
        return (lastMisc ?? now) + .seconds(Double(options.keepAlive) / 2)
    }

    /// What to poll: the connect under way, for writing (the socket becomes writable when the
    /// broker answers or refuses); else the socket, for reading, and for writing while
    /// libmosquitto has bytes queued.
    public var interests: [Interest] {
        if let probe { return [Interest(FileDescriptor(rawValue: probe.fd), read: false, write: true)] }
        guard let m = handle_, let fd = descriptor else { return [] }
        return [Interest(fd, read: true, write: mosquitto_want_write(m))]
    }

    /// What became ready (the connect's answer, packets in, room for queued writes) and what is
    /// due (keep-alives, a reconnect, the connect's time out). Messages go to the client's
    /// callbacks; always false.
    public func handle(ready: [FileDescriptor], now: Duration) -> Bool {
        if let probe, ready.contains(FileDescriptor(rawValue: probe.fd)) {
            checkProbe(now: now)
        } else if let fd = descriptor, ready.contains(fd) {
            handle(now: now)
        }
        if let due = nextDeadline(now: now), due <= now { service(now: now) }
        return false
    }

    /// Publishes `message` (QoS 1) while connected; false when not connected or refused (too
    /// large, a bad topic): the caller publishes again on the next connect.
    @discardableResult
    public func publish(_ message: Outgoing) -> Bool {
        guard let m = handle_, connected else { return false }
        let rc = message.payload.withUnsafeBytes {
            mosquitto_publish(m, nil, message.topic, Int32(message.payload.count), $0.baseAddress, 1, message.retain)
        }
        if rc != 0 {
            log("MQTT publish \(message.topic): \(Self.text(rc))")
            return false
        }
        flush()
        return true
    }

    /// Says goodbye: `last` published (QoS 0, written before the DISCONNECT), then the
    /// connection closed: the broker then sends no last will.
    public func stop(last: Outgoing?) {
        guard let m = handle_, connected else { return }
        if let last {
            _ = last.payload.withUnsafeBytes {
                mosquitto_publish(m, nil, last.topic, Int32(last.payload.count), $0.baseAddress, 0, last.retain)
            }
        }
        mosquitto_disconnect(m)
        for _ in 0..<4 where mosquitto_want_write(m) { _ = mosquitto_loop_write(m, 16) }
        connected = false
    }

    private func flush() {
        guard let m = handle_, descriptor != nil else { return }
        if mosquitto_want_write(m) { _ = mosquitto_loop_write(m, 16) }
    }

    /// What to do about a broker that cannot be reached, and one that refuses.
    static let checkBroker = "check mqtt.broker in the configuration (host and port) and that the broker runs"
    static let checkCredentials = "check mqtt.username and mqtt.passwordFile, and the broker's access list"

    /// The connection lost or never made: told once (until it is made again), with `advice`.
    private func lost(_ why: String, now: Duration, advice: String? = nil) {
        losses += 1
        if !toldAway {
            toldAway = true
            let then = advice.map { "; \($0)" } ?? ""
            log("MQTT broker \(options.host):\(options.port): \(why); trying again, the gauges keep their last values\(then)")
        }
        if let m = handle_ { mosquitto_disconnect(m) }
        retryAt = now + retryDelay
        retryDelay = min(retryDelay * 2, .seconds(60))
    }

    func connectResult(_ rc: Int32) {
        connecting = false
        if speaksV5, rc == Int32(MQTT_RC_UNSUPPORTED_PROTOCOL_VERSION.rawValue) || rc == Int32(CONNACK_REFUSED_PROTOCOL_VERSION.rawValue),
            let m = handle_
        {
            // A 3.1.1 broker: spoken to in 3.1.1 from now on, at once.
            speaksV5 = false
            _ = mosquitto_int_option(m, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311)
            log("MQTT broker \(options.host):\(options.port) speaks MQTT 3.1.1 only: messages over \(options.maximumPacket) bytes are taken in before they are dropped")
            retryAt = monotonicNow()
            retryDelay = .seconds(1)
            mosquitto_disconnect(m)
            return
        }
        guard rc == 0 else {
            let reason = speaksV5 ? mosquitto_reason_string(rc) : mosquitto_connack_string(rc)
            refusal = "the broker refused the connection: \(reason.map { String(cString: $0) } ?? "code \(rc)")"
            return
        }
        connected = true
        refusal = nil
        retryDelay = .seconds(1)
        if toldAway { log("MQTT broker \(options.host):\(options.port): connected again") }
        toldAway = false
        guard let m = handle_ else { return }
        for topic in topics { _ = mosquitto_subscribe(m, nil, topic, 0) }
        onConnect?()
        flush()
    }

    func disconnected(_ rc: Int32) {
        connected = false
        connecting = false
    }

    func message(_ message: Incoming) { onMessage(message) }

    static func text(_ rc: Int32) -> String {
        if rc == Int32(MOSQ_ERR_ERRNO.rawValue) { return String(cString: strerror(errno)) }
        return String(cString: mosquitto_strerror(rc))
    }
}

private func client(_ obj: UnsafeMutableRawPointer?) -> MQTTClient? {
    obj.map { Unmanaged<MQTTClient>.fromOpaque($0).takeUnretainedValue() }
}

private let connectCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int32) -> Void = { _, obj, rc in
    client(obj)?.connectResult(rc)
}

private let disconnectCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int32) -> Void = { _, obj, rc in
    client(obj)?.disconnected(rc)
}

private let messageCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafePointer<mosquitto_message>?) -> Void = {
    _, obj, message in
    guard let message, let topic = message.pointee.topic else { return }
    let count = Int(message.pointee.payloadlen)
    var payload: [UInt8] = []
    if count > 0, let bytes = message.pointee.payload {
        payload = Array(UnsafeRawBufferPointer(start: bytes, count: min(count, 65536)))
    }
    client(obj)?.message(MQTTClient.Incoming(topic: String(cString: topic), payload: payload, retained: message.pointee.retain))
}
