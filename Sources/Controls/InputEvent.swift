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

    /// `TIME TYPE CODE VALUE` in numbers (Input's `named` gives libevdev's names).
    public var description: String { "\(time) \(type) \(code) \(value)" }
}

