import Controls
import Raster
import Testing

@testable import Input

/// A recorded event stream from Tests/InputTests/Fixtures.
func fixture(_ name: String) throws -> [InputEvent] {
    let folder = String(#filePath[..<#filePath.lastIndex(of: "/")!]) + "/Fixtures/"
    // (unwrapped: Debian 13's glibc marks the FILE * of fgets and fclose non-null)
    let file = try #require(fopen(folder + name, "r"), "fixture \(name)")
    defer { fclose(file) }
    var text = ""
    var line = [CChar](repeating: 0, count: 512)
    while fgets(&line, 512, file) != nil { text += String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    return try EventRecording.parse(text)
}

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Recorded streams and key names", .timeLimit(.minutes(10)))
struct RecordingTests {
    @Test("fixtures parse; names go both ways through libevdev's tables")
    func names() throws {
        let events = try fixture("mt-swipe-left.events")
        #expect(events.count == 26)
        #expect(events[1] == InputEvent(time: 0, type: InputEvent.absType, code: InputEvent.absMTTrackingID, value: 41))
        #expect(EventNames.keyCode(named: "KEY_RIGHT") == 106 && EventNames.keyCode(named: "BTN_0") == 0x100)
        #expect(EventNames.codeName(InputEvent.keyType, 28) == "KEY_ENTER")
        #expect(EventNames.keyCode(named: "KEY_NOPE") == nil && EventNames.keyCode(named: "ABS_X") == nil)
        // The kind is the part before the first underscore: a name without one, or with another
        // part there, is no key.
        let slot = try #require(EventNames.code(named: "ABS_MT_SLOT"))
        #expect(slot.type == InputEvent.absType && slot.code == 0x2F)
        #expect(EventNames.code(named: "REL_WHEEL")?.code == 8 && EventNames.code(named: "SYN_REPORT")?.code == 0)
        for name in ["KEY", "_KEY_ENTER", "key_enter", "KEYS_ENTER", ""] { #expect(EventNames.code(named: name) == nil, "\(name)") }
        #expect(throws: EventRecording.ParseError.self) { try EventRecording.parse("0.0 EV_KEY KEY_NOPE 1") }
    }
}

@Suite("Keys: map, long press, repeat", .timeLimit(.minutes(10)))
struct KeyTests {
    static func defaults() throws -> KeyMap { try KeyMap.make(keys: [:]).get() }

    /// Every action the interpreter gives for a stream, ticking the clock along.
    static func actions(_ events: [InputEvent], _ map: KeyMap) -> [Action] {
        var k = KeyInterpreter(map: map)
        var out: [Action] = []
        for e in events where e.type == InputEvent.keyType {
            out += k.tick(time: e.time)
            out += k.key(e.code, value: e.value, time: e.time)
        }
        return out
    }

    @Test("taps act on press; a held Enter becomes today once; day keys repeat; KEY_POWER does nothing")
    func stream() throws {
        let events = try fixture("keys-hold-enter.events")
        #expect(
            Self.actions(events, try Self.defaults()) == [
                .nextDay, .nextDay, .today, .previousDay, .previousDay, .previousDay,
            ])
    }

    @Test("a short Enter selects on release; the long-press deadline is announced")
    func shortSelect() throws {
        var k = KeyInterpreter(map: try Self.defaults())
        let enter = EventNames.keyCode(named: "KEY_ENTER")!
        #expect(k.key(enter, value: 1, time: 10).isEmpty)
        #expect(k.nextDeadline == 10.8)
        #expect(k.tick(time: 10.5).isEmpty)
        #expect(k.key(enter, value: 0, time: 10.6) == [.select])
        #expect(k.nextDeadline == nil)
    }

    @Test("keys remap, unmap and fail on names that are no key names, all of them")
    func remapping() throws {
        let map = try KeyMap.make(
            keys: ["KEY_VOLUMEUP": "nextScreen", "KEY_LEFT": "none"], longPress: [.cancel: .today],
            longPressSeconds: 1.5
        ).get()
        #expect(map.bindings[EventNames.keyCode(named: "KEY_VOLUMEUP")!] == .nextScreen)
        #expect(map.bindings[EventNames.keyCode(named: "KEY_LEFT")!] == nil)
        #expect(map.bindings[EventNames.keyCode(named: "KEY_POWER")!] == nil, "never KEY_POWER by default")
        #expect(map.longPress == [.cancel: .today] && map.longPressSeconds == 1.5)
        let bad = ["KEY_FROBNICATE": "today", "KEY_A": "select", "BTN_X9": "none"]
        guard case .failure(let unknown) = KeyMap.make(keys: bad) else {
            Issue.record("accepted an unknown key")
            return
        }
        #expect(unknown.names == ["BTN_X9", "KEY_FROBNICATE"])
    }

    @Test("two buttons, three buttons and a five-way switch all work with the defaults")
    func layouts() throws {
        let map = try Self.defaults()
        func action(_ name: String) -> Action? { map.bindings[EventNames.keyCode(named: name)!] }
        #expect([action("KEY_LEFT"), action("KEY_ENTER")] == [.previousDay, .select])
        #expect([action("KEY_LEFT"), action("KEY_ENTER"), action("KEY_RIGHT")] == [.previousDay, .select, .nextDay])
        #expect([action("KEY_UP"), action("KEY_DOWN")] == [.previousScreen, .nextScreen])
        #expect([action("BTN_0"), action("BTN_1"), action("BTN_2")] == [.previousDay, .select, .nextDay])
        #expect(map.longPress[.select] == .today)
    }
}

@Suite("Touch: decoding, calibration, gestures", .timeLimit(.minutes(10)))
struct TouchTests {
    static func contacts(_ events: [InputEvent], multitouch: Bool, button: UInt16 = InputEvent.btnTouch) -> [Contact] {
        var d = TouchDecoder(multitouch: multitouch, button: button)
        return events.flatMap { d.feed($0) }
    }

    @Test("MT-B: the first finger is followed; a second finger landing and lifting changes nothing")
    func multitouch() throws {
        let c = Self.contacts(try fixture("mt-swipe-left.events"), multitouch: true)
        #expect(c.map(\.phase) == [.down, .move, .move, .move, .up])
        #expect(c.first?.x == 3200 && c.last?.x == 1000 && c.last?.y == 2100)
    }

    /// Frames of multi-touch events: "SLOT 0, ID 5, X 3000, Y 2000" one frame per string.
    static func frames(_ frames: [String]) -> [InputEvent] {
        let codes: [String: UInt16] = [
            "SLOT": InputEvent.absMTSlot, "ID": InputEvent.absMTTrackingID, "X": InputEvent.absMTPositionX,
            "Y": InputEvent.absMTPositionY,
        ]
        var events: [InputEvent] = []
        for (n, frame) in frames.enumerated() {
            let time = Double(n) / 10
            for part in frame.split(separator: ",") {
                let words = part.split(separator: " ")
                events.append(
                    InputEvent(
                        time: time, type: InputEvent.absType, code: codes[String(words[0])]!, value: Int32(words[1])!))
            }
            events.append(InputEvent(time: time, type: InputEvent.synType, code: InputEvent.synReport, value: 0))
        }
        return events
    }

    static func summary(_ contacts: [Contact]) -> [String] { contacts.map { "\($0.phase) \($0.x),\($0.y)" } }

    @Test(
        "another tracking id in the followed finger's slot is a lift and a new touch, not a move",
        arguments: [
            // A finger lifted and another landed within one frame.
            "ID -1, ID 6, X 500",
            // After a resynchronisation libevdev may give the new id straight away.
            "ID 6, X 500",
        ])
    func retouchInOneFrame(change: String) {
        let c = Self.contacts(
            Self.frames(["SLOT 0, ID 5, X 3000, Y 2000", change, "ID -1"]), multitouch: true)
        #expect(Self.summary(c) == ["down 3000,2000", "up 3000,2000", "down 500,2000", "up 500,2000"])
    }

    @Test("once the followed finger lifts, other fingers, even a new one in its slot, start nothing until all are up")
    func followedLifts() {
        let c = Self.contacts(
            Self.frames([
                "SLOT 0, ID 1, X 1000, Y 1000", "SLOT 1, ID 2, X 2000, Y 2000", "SLOT 0, ID -1",
                "SLOT 0, ID 3, X 3000, Y 3000", "SLOT 0, X 100", "SLOT 1, ID -1", "SLOT 0, ID -1",
                "SLOT 1, ID 4, X 700, Y 800", "SLOT 1, ID -1",
            ]), multitouch: true)
        #expect(Self.summary(c) == ["down 1000,1000", "up 1000,1000", "down 700,800", "up 700,800"])
    }

    @Test("a new id in the followed slot while another finger is down only lifts; nothing starts until all are up")
    func retouchWithOthersDown() {
        let c = Self.contacts(
            Self.frames([
                "SLOT 0, ID 1, X 1000, Y 1000", "SLOT 1, ID 2, X 2000, Y 2000", "SLOT 0, ID 3, X 3000",
                "SLOT 1, ID -1", "SLOT 0, X 200", "SLOT 0, ID -1", "SLOT 0, ID 9, X 50, Y 60",
            ]), multitouch: true)
        #expect(Self.summary(c) == ["down 1000,1000", "up 1000,1000", "down 50,60"])
    }

    @Test("an absolute pointer with BTN_LEFT (qemu's tablet) is touch")
    func tablet() throws {
        let c = Self.contacts(try fixture("tablet-tap.events"), multitouch: false, button: InputEvent.btnLeft)
        #expect(c.map(\.phase) == [.down, .up])
        #expect(c[0].x == 16383 && c[0].time == 1.1)
    }

    @Test("calibration: axis range, swap and invert, then the panel's rotation", arguments: Rotation.allCases)
    func calibration(rotation: Rotation) {
        let panel = Size(width: 800, height: 480)
        let cal = TouchCalibration(
            xRange: 0...4095, yRange: 0...4095, setting: TouchSetting(), panel: panel, rotation: rotation)
        // The raw top-left corner is the panel's; in the picture it is wherever the rotation put
        // the picture pixel that is drawn there.
        for (rx, ry, px, py) in [(0, 0, 0, 0), (4095, 0, 799, 0), (4095, 4095, 799, 479), (2048, 1024, 400, 120)] {
            let p = cal.point(x: Int32(rx), y: Int32(ry))
            // Which picture pixel lands on panel pixel (px, py)?
            let logical = rotation.logicalSize(forPanel: panel)
            var found: (Int, Int)?
            for y in [Int(p.y) - 1, Int(p.y), Int(p.y) + 1] {
                for x in [Int(p.x) - 1, Int(p.x), Int(p.x) + 1]
                where x >= 0 && y >= 0 && x < logical.width && y < logical.height {
                    let q = rotation.panelPoint(x: x, y: y, panel: panel)
                    if abs(q.x - px) <= 1 && abs(q.y - py) <= 1 { found = (x, y) }
                }
            }
            #expect(found != nil, "\(rotation): raw (\(rx), \(ry)) → picture \(p) should show panel (\(px), \(py))")
        }
        var swapped = TouchSetting()
        swapped.swapXY = true
        swapped.invertX = true
        let s = TouchCalibration(xRange: 100...1100, yRange: 0...500, setting: swapped, panel: panel, rotation: .none)
        let p = s.point(x: 100, y: 500)  // x at its minimum, y at its maximum
        #expect(p.x == 0 && p.y == 0, "swap then invert: \(p)")
    }

    @Test(
        "gestures: tap, long press, and swipes in four directions",
        arguments: [
            ((100, 100), (102, 101), 0.1, Gesture.tap(Point(x: 100, y: 100))),
            ((300, 200), (120, 210), 0.2, .swipe(.left)),
            ((100, 200), (300, 190), 0.2, .swipe(.right)),
            ((200, 400), (210, 100), 0.2, .swipe(.up)),
            ((200, 100), (190, 400), 0.2, .swipe(.down)),
        ])
    func gestures(from: (Float, Float), to: (Float, Float), duration: Double, expected: Gesture) {
        var g = GestureRecognizer(pictureSize: Size(width: 480, height: 480))
        _ = g.contact(.down, at: Point(x: from.0, y: from.1), time: 0)
        _ = g.contact(.move, at: Point(x: to.0, y: to.1), time: duration / 2)
        #expect(g.contact(.up, at: Point(x: to.0, y: to.1), time: duration) == expected)
    }

    @Test("a finger held still becomes a long press at its deadline, and nothing on lifting")
    func longPress() {
        var g = GestureRecognizer(pictureSize: Size(width: 480, height: 480), longPressSeconds: 0.8)
        _ = g.contact(.down, at: Point(x: 50, y: 50), time: 3)
        #expect(g.nextDeadline == 3.8)
        #expect(g.tick(time: 3.5) == nil)
        #expect(g.tick(time: 3.8) == .longPress(Point(x: 50, y: 50)))
        #expect(g.tick(time: 4.0) == nil)
        #expect(g.contact(.up, at: Point(x: 50, y: 50), time: 4.2) == nil)
        // Moving first cancels it.
        _ = g.contact(.down, at: Point(x: 50, y: 50), time: 5)
        _ = g.contact(.move, at: Point(x: 90, y: 50), time: 5.1)
        #expect(g.nextDeadline == nil && g.tick(time: 6) == nil)
    }
}

@Suite("Pull to refresh", .timeLimit(.minutes(10)))
struct PullDownTests {
    @Test("a swipe down from the top of the picture is a pull down; from lower down it is a swipe")
    func pullDown() {
        var g = GestureRecognizer(pictureSize: Size(width: 480, height: 480))
        _ = g.contact(.down, at: Point(x: 240, y: 30), time: 0)
        _ = g.contact(.move, at: Point(x: 242, y: 120), time: 0.1)
        #expect(g.contact(.up, at: Point(x: 242, y: 160), time: 0.2) == .pullDown)
        _ = g.contact(.down, at: Point(x: 240, y: 200), time: 1)
        _ = g.contact(.move, at: Point(x: 242, y: 300), time: 1.1)
        #expect(g.contact(.up, at: Point(x: 242, y: 330), time: 1.2) == .swipe(.down))
        _ = g.contact(.down, at: Point(x: 240, y: 30), time: 2)
        _ = g.contact(.move, at: Point(x: 380, y: 60), time: 2.1)
        #expect(g.contact(.up, at: Point(x: 400, y: 60), time: 2.2) == .swipe(.right), "sideways from the top is a swipe")
    }
}
