import Controls

extension InputEvent {
    /// `TIME TYPE CODE VALUE` with libevdev's names (`0.016 EV_ABS ABS_MT_POSITION_X 1200`).
    public var named: String { "\(time) \(EventNames.typeName(type)) \(EventNames.codeName(type, code)) \(value)" }
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
