/// One evdev event: when (seconds, the kernel's timestamp), type, code, value.
public struct InputEvent: Sendable, Hashable, CustomStringConvertible {
    public var time: Double
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(time: Double, type: UInt16, code: UInt16, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }

    // Types and codes from linux/input-event-codes.h (a stable kernel ABI).
    public static let synType: UInt16 = 0x00, keyType: UInt16 = 0x01, relType: UInt16 = 0x02, absType: UInt16 = 0x03
    public static let synReport: UInt16 = 0, synDropped: UInt16 = 3
    public static let absX: UInt16 = 0x00, absY: UInt16 = 0x01
    public static let absMTSlot: UInt16 = 0x2F, absMTPositionX: UInt16 = 0x35, absMTPositionY: UInt16 = 0x36
    public static let absMTTrackingID: UInt16 = 0x39
    public static let btnLeft: UInt16 = 0x110, btnTouch: UInt16 = 0x14A

    public var isSynReport: Bool { type == Self.synType && code == Self.synReport }

    public var description: String {
        "\(time) \(EventNames.typeName(type)) \(EventNames.codeName(type, code)) \(value)"
    }
}

/// Recorded event streams as text, one event per line: `TIME TYPE CODE VALUE`, names as libevdev
/// prints them (`0.016 EV_ABS ABS_MT_POSITION_X 1200`); `#` starts a comment. Fixtures for tests,
/// and what `evtest` shows, so real devices' streams can be pasted in.
public enum EventRecording {
    public struct ParseError: Error, CustomStringConvertible {
        public let line: Int
        public let message: String
        public var description: String { "line \(line): \(message)" }
    }

    public static func parse(_ text: String) throws(ParseError) -> [InputEvent] {
        var events: [InputEvent] = []
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if words.isEmpty { continue }
            guard words.count == 4, let time = Double(words[0]) else {
                throw ParseError(line: n + 1, message: "expected TIME TYPE CODE VALUE")
            }
            guard let type = EventNames.type(named: String(words[1])) else {
                throw ParseError(line: n + 1, message: "unknown event type \(words[1])")
            }
            let code: UInt16
            if let c = UInt16(words[2]) {
                code = c
            } else if let (t, c) = EventNames.code(named: String(words[2])), t == type {
                code = c
            } else {
                throw ParseError(line: n + 1, message: "unknown code \(words[2]) for \(words[1])")
            }
            guard let value = Int32(words[3]) else { throw ParseError(line: n + 1, message: "bad value \(words[3])") }
            events.append(InputEvent(time: time, type: type, code: code, value: value))
        }
        return events
    }
}
