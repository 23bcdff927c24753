internal import CMosquitto
import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An MQTT client on libmosquitto, driven by the caller's poll loop: wait for `descriptor`
/// (read), call `handle()`; call `service(now:)` when `nextDeadline` comes (keep-alives, queued
/// writes, a reconnect). No thread of its own; it never blocks beyond a host name lookup when
/// connecting (give the broker as an address to avoid even that).
///
/// The broker going away is told once; it is tried again with backoff (1 s doubling to 60 s) and
/// the subscriptions are made again on every connect.
public final class MQTTClient {
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

        public init(host: String, port: Int, tls: Bool, clientId: String, keepAlive: Int = 60) {
            self.host = host
            self.port = port
            self.tls = tls
            self.clientId = clientId
            self.keepAlive = keepAlive
        }
    }

    public let options: Options
    public let topics: [String]
    private var handle_: OpaquePointer?
    private let onMessage: (String, [UInt8]) -> Void
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

    public init(
        _ options: Options, topics: [String], onMessage: @escaping (String, [UInt8]) -> Void,
        log: @escaping (String) -> Void
    ) {
        self.options = options
        self.topics = topics
        self.onMessage = onMessage
        self.log = log
        Self.initialise
        let context = Unmanaged.passUnretained(self).toOpaque()
        handle_ = mosquitto_new(options.clientId, true, context)
        guard let m = handle_ else {
            log("MQTT: cannot make a client (out of memory?)")
            return
        }
        mosquitto_connect_callback_set(m, connectCallback)
        mosquitto_disconnect_callback_set(m, disconnectCallback)
        mosquitto_message_callback_set(m, messageCallback)
        if let username = options.username { mosquitto_username_pw_set(m, username, options.password) }
        if options.tls {
            // The given CA, else the system's certificates.
            let rc = mosquitto_tls_set(
                m, options.caFile, options.caFile == nil ? "/etc/ssl/certs" : nil, options.certificateFile, options.keyFile,
                nil)
            if rc != 0 { log("MQTT TLS: \(Self.text(rc))") }
        }
    }

    deinit {
        if let m = handle_ {
            if connected { mosquitto_disconnect(m) }
            mosquitto_destroy(m)
        }
    }

    private static let initialise: Void = { _ = mosquitto_lib_init() }()

    /// The socket to wait on, while there is one.
    public var descriptor: FileDescriptor? {
        guard let m = handle_ else { return nil }
        let fd = mosquitto_socket(m)
        return fd >= 0 ? FileDescriptor(rawValue: fd) : nil
    }

    /// Starts connecting (at once, or when the backoff says).
    public func start(now: Duration) {
        guard let m = handle_, !connected, !connecting else { return }
        connecting = true
        let rc = mosquitto_connect_async(m, options.host, Int32(options.port), Int32(options.keepAlive))
        if rc != 0 {
            connecting = false
            lost("cannot connect: \(Self.text(rc))", now: now)
            return
        }
        lastMisc = now
        flush()
    }

    /// The socket became readable: packets in (messages, acknowledgements).
    public func handle(now: Duration) {
        guard let m = handle_, descriptor != nil else { return }
        let rc = mosquitto_loop_read(m, 16)
        if rc != 0 && rc != Int32(MOSQ_ERR_SUCCESS.rawValue) {
            connected = false
            connecting = false
            lost(refusal ?? Self.text(rc), now: now)
            return
        }
        flush()
    }

    /// Keep-alives, a reconnect that is due, writes still queued.
    public func service(now: Duration) {
        guard let m = handle_ else { return }
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

    /// When `service` must run: the next keep-alive (half the interval), a retry, or soon while
    /// writes wait.
    public func nextDeadline(now: Duration) -> Duration? {
        if let retryAt { return retryAt }
        guard let m = handle_, connected || connecting else { return nil }
        if mosquitto_want_write(m) { return now + .milliseconds(20) }
        return (lastMisc ?? now) + .seconds(Double(options.keepAlive) / 2)
    }

    private func flush() {
        guard let m = handle_, descriptor != nil else { return }
        if mosquitto_want_write(m) { _ = mosquitto_loop_write(m, 16) }
    }

    private func lost(_ why: String, now: Duration) {
        if !toldAway {
            toldAway = true
            log("MQTT broker \(options.host):\(options.port): \(why); trying again, the gauges keep their last values")
        }
        if let m = handle_ { mosquitto_disconnect(m) }
        retryAt = now + retryDelay
        retryDelay = min(retryDelay * 2, .seconds(60))
    }

    func connectResult(_ rc: Int32) {
        connecting = false
        guard rc == 0 else {
            refusal = "the broker refused the connection: \(String(cString: mosquitto_connack_string(rc)))"
            return
        }
        connected = true
        refusal = nil
        retryDelay = .seconds(1)
        if toldAway { log("MQTT broker \(options.host):\(options.port): connected again") }
        toldAway = false
        guard let m = handle_ else { return }
        for topic in topics { _ = mosquitto_subscribe(m, nil, topic, 0) }
    }

    func disconnected(_ rc: Int32) {
        connected = false
        connecting = false
    }

    func message(_ topic: String, _ payload: [UInt8]) { onMessage(topic, payload) }

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
    client(obj)?.message(String(cString: topic), payload)
}
