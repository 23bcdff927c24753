
import Raster

/// A finger (or the tablet's button) on the surface, in the device's raw coordinates.
public struct Contact: Sendable, Equatable {
    public enum Phase: Sendable, Equatable { case down, move, up }
    public var phase: Phase
    public var x: Int32
    public var y: Int32
    public var time: Double
}

/// Decodes evdev touch reports into contacts for the first finger: multi-touch protocol B
/// (slots, tracking ids, -1 on lift), or ABS_X/ABS_Y with BTN_TOUCH, or (qemu's tablet) with
/// BTN_LEFT. Contacts come out on SYN_REPORT, when a frame is complete.
///
/// The finger followed is a tracking id in a slot: another id in that slot (a finger lifted and
/// another landed within one frame, or a resynchronisation) is that finger lifting, then a new
/// one landing. Once the followed finger lifts while others stay down, no finger is followed
/// until all are up.
public struct TouchDecoder: Sendable {
    /// Decode ABS_MT_* (and ignore the single-touch emulation such devices also send).
    public let multitouch: Bool
    /// BTN_TOUCH, or BTN_LEFT for an absolute pointer.
    public let button: UInt16

    private var slot: Int32 = 0
    private var slots: [Int32: (id: Int32, x: Int32, y: Int32)] = [:]
    /// The finger followed: its slot and tracking id.
    private var followed: (slot: Int32, id: Int32)?
    /// In this frame, the followed finger's slot was given another tracking id (or -1).
    private var followedEnded = false
    /// The followed finger lifted while others stayed down: nothing starts until all are up.
    private var waitingForAllUp = false
    private var x: Int32 = 0
    private var y: Int32 = 0
    private var pressed = false
    private var wasDown = false
    private var lastX: Int32 = 0
    private var lastY: Int32 = 0

    public init(multitouch: Bool, button: UInt16 = InputEvent.btnTouch) {
        self.multitouch = multitouch
        self.button = button
    }

    /// A finger (or the button) is down, as of the last frame.
    public var isTouching: Bool { wasDown }

    /// The contacts a frame makes, when `e` completes one (SYN_REPORT): none, one, or the
    /// followed finger's up and a new finger's down.
    public mutating func feed(_ e: InputEvent) -> [Contact] {
        if multitouch {
            if e.type == InputEvent.absType {
                switch e.code {
                case InputEvent.absMTSlot: slot = e.value
                case InputEvent.absMTTrackingID:
                    if let f = followed, f.slot == slot, e.value != f.id { followedEnded = true }
                    // The slot keeps its position: the kernel sends only values that change,
                    // also when the next finger in the slot lands.
                    slots[slot] = (e.value, slots[slot]?.x ?? 0, slots[slot]?.y ?? 0)
                case InputEvent.absMTPositionX: slots[slot, default: (-1, 0, 0)].x = e.value
                case InputEvent.absMTPositionY: slots[slot, default: (-1, 0, 0)].y = e.value
                default: break
                }
            }
            guard e.isSynReport else { return [] }
            return multitouchFrame(time: e.time)
        }
        if e.type == InputEvent.absType {
            if e.code == InputEvent.absX { x = e.value }
            if e.code == InputEvent.absY { y = e.value }
        } else if e.type == InputEvent.keyType && e.code == button {
            pressed = e.value != 0
        }
        guard e.isSynReport else { return [] }
        defer { wasDown = pressed }
        if pressed && !wasDown { return [down(x, y, e.time)] }
        if !pressed && wasDown { return [up(e.time)] }
        return pressed ? move(x, y, e.time) : []
    }

    /// The frame is complete: what did the followed finger do?
    private mutating func multitouchFrame(time: Double) -> [Contact] {
        defer { followedEnded = false }
        let active = slots.filter { $0.value.id >= 0 }
        if let f = followed {
            if !followedEnded, let s = active[f.slot], s.id == f.id { return move(s.x, s.y, time) }
            // The followed finger lifted. A new finger in its slot starts a contact only if it is
            // the only finger down; otherwise nothing starts until all are up.
            followed = nil
            var contacts = [up(time)]
            if active.count == 1, let s = active[f.slot] {
                followed = (f.slot, s.id)
                contacts.append(down(s.x, s.y, time))
            } else if !active.isEmpty {
                waitingForAllUp = true
            }
            return contacts
        }
        if waitingForAllUp {
            if active.isEmpty { waitingForAllUp = false }
            return []
        }
        guard let first = active.min(by: { $0.key < $1.key }) else { return [] }
        followed = (first.key, first.value.id)
        return [down(first.value.x, first.value.y, time)]
    }

    private mutating func down(_ x: Int32, _ y: Int32, _ time: Double) -> Contact {
        (lastX, lastY) = (x, y)
        return Contact(phase: .down, x: x, y: y, time: time)
    }

    private func up(_ time: Double) -> Contact { Contact(phase: .up, x: lastX, y: lastY, time: time) }

    private mutating func move(_ x: Int32, _ y: Int32, _ time: Double) -> [Contact] {
        guard x != lastX || y != lastY else { return [] }
        (lastX, lastY) = (x, y)
        return [Contact(phase: .move, x: x, y: y, time: time)]
    }
}

/// From a device's raw axis values to a point in the picture the screens draw: the axis range
/// (EVIOCGABS), then swap and invert as configured, then the panel's rotation, so a touch lands
/// where the finger is on a rotated panel.
public struct TouchCalibration: Sendable, Equatable {
    public var xRange: ClosedRange<Int32>
    public var yRange: ClosedRange<Int32>
    public var setting: TouchSetting
    /// The panel's size (before rotation) and how the picture is turned onto it.
    public var panel: Size
    public var rotation: Rotation

    public init(
        xRange: ClosedRange<Int32>, yRange: ClosedRange<Int32>, setting: TouchSetting, panel: Size, rotation: Rotation
    ) {
        self.xRange = xRange
        self.yRange = yRange
        self.setting = setting
        self.panel = panel
        self.rotation = rotation
    }

    public func point(x: Int32, y: Int32) -> Point {
        func unit(_ v: Int32, _ r: ClosedRange<Int32>) -> Float {
            let span = Float(r.upperBound) - Float(r.lowerBound)
            return span > 0 ? min(max((Float(v) - Float(r.lowerBound)) / span, 0), 1) : 0
        }
        var nx = unit(x, xRange)
        var ny = unit(y, yRange)
        if setting.swapXY { swap(&nx, &ny) }
        if setting.invertX { nx = 1 - nx }
        if setting.invertY { ny = 1 - ny }
        return rotation.picturePoint(panelX: nx * Float(panel.width), panelY: ny * Float(panel.height), panel: panel)
    }
}

/// What a finger did.
public enum Gesture: Sendable, Equatable {
    case tap(Point)
    case longPress(Point)
    case swipe(SwipeDirection)
    /// A swipe down that starts at the top of the picture: asks for fresh data (pull to refresh).
    case pullDown
}

/// The direction the finger moved.
public enum SwipeDirection: String, Sendable, Equatable {
    case left, right, up, down
}

/// Tap, long press and swipes from one finger's contacts (in picture coordinates).
///
/// Pure: fed contacts and the time; `nextDeadline` says when a held finger becomes a long press.
public struct GestureRecognizer: Sendable {
    /// Movement (px) that still counts as a finger held still.
    public var slop: Float
    /// Movement (px) that makes a swipe.
    public var swipeDistance: Float
    public var longPressSeconds: Double
    /// A swipe down starting above this (px from the top) is a pull down.
    public var pullZone: Float

    private var start: (point: Point, time: Double)?
    private var moved = false
    private var longDone = false
    private var last: Point?

    /// Distances relative to the picture's short side: 4 % holds still, 12 % swipes.
    public init(pictureSize: Size, longPressSeconds: Double = 0.8) {
        let short = Float(min(pictureSize.width, pictureSize.height))
        slop = max(6, short * 0.04)
        swipeDistance = max(20, short * 0.12)
        pullZone = Float(pictureSize.height) * 0.15
        self.longPressSeconds = longPressSeconds
    }

    public mutating func contact(_ phase: Contact.Phase, at p: Point, time: Double) -> Gesture? {
        switch phase {
        case .down:
            start = (p, time)
            moved = false
            longDone = false
            last = p
            return nil
        case .move:
            guard let s = start else { return nil }
            last = p
            if distance(p, s.point) > slop { moved = true }
            return nil
        case .up:
            guard let s = start else { return nil }
            defer { start = nil }
            if longDone { return nil }
            let end = last ?? p
            let dx = end.x - s.point.x
            let dy = end.y - s.point.y
            if max(abs(dx), abs(dy)) >= swipeDistance {
                if abs(dx) < abs(dy) && dy > 0 && s.point.y <= pullZone { return .pullDown }
                return abs(dx) >= abs(dy) ? .swipe(dx < 0 ? .left : .right) : .swipe(dy < 0 ? .up : .down)
            }
            return moved ? nil : .tap(s.point)
        }
    }

    /// A finger held still until now becomes a long press (once).
    public mutating func tick(time: Double) -> Gesture? {
        guard let s = start, !moved, !longDone, time >= s.time + longPressSeconds else { return nil }
        longDone = true
        return .longPress(s.point)
    }

    public var nextDeadline: Double? {
        guard let s = start, !moved, !longDone else { return nil }
        return s.time + longPressSeconds
    }

    private func distance(_ a: Point, _ b: Point) -> Float {
        let dx = a.x - b.x
        let dy = a.y - b.y
        return (dx * dx + dy * dy).squareRoot()
    }
}
