import Activity
import Controls
import Raster
import Screens
import Testing

@testable import DeviceLogic

/// A phone's QR code on the panel (`glance people token NAME --panel`, issue 39): the control
/// socket's `qr WIDTH HEX CAPTION` parsed strictly with its bounds, and shown as a message is (over
/// everything, the first press only dismissing it, its 120 s, the next message replacing it), the
/// log naming whose code it is and never its modules.
@Suite("A phone's QR code: the request, shown as a message", .timeLimit(.minutes(10)))
struct QRCodeRequestTests {
    static let t0 = DeviceLogicTests.t0

    /// A code `width` wide: the three finder patterns at their corners, the rest a pattern of
    /// `seed` (a QR code's look, not one a phone reads: libqrencode is glance-serve's, not here).
    static func matrix(_ width: Int, seed: Int = 7) -> [Bool] {
        var modules = [Bool](repeating: false, count: width * width)
        var state = UInt32(truncatingIfNeeded: seed &* 2_654_435_761 &+ 1)
        for i in modules.indices {
            state = state &* 1_664_525 &+ 1_013_904_223
            modules[i] = state >> 31 == 1
        }
        for (left, top) in [(0, 0), (width - 7, 0), (0, width - 7)] {
            // The finder and its light separator around it.
            for y in -1...7 {
                for x in -1...7 {
                    let (px, py) = (left + x, top + y)
                    guard px >= 0, py >= 0, px < width, py < width else { continue }
                    let ring = max(abs(x - 3), abs(y - 3))
                    modules[py * width + px] = ring != 2 && ring != 4
                }
            }
        }
        return modules
    }

    static func code(_ width: Int = 25, caption: String = "Ann") throws -> PanelQRCode {
        try PanelQRCode.make(width: width, modules: matrix(width), caption: caption).get()
    }

    static func refusal(_ text: String) -> String? {
        refusal(Array(text.utf8))
    }

    static func refusal(_ bytes: [UInt8]) -> String? {
        guard case .failure(let refusal) = PanelRequest.parse(bytes) else { return nil }
        return refusal.reason
    }

    @Test("qr WIDTH HEX CAPTION: every size from 21 to 77 modules reads back; the hex is the modules row by row, high bit first")
    func parsing() throws {
        for width in stride(from: 21, through: 77, by: 4) {
            let code = try Self.code(width, caption: "Zoë 小明")
            let request = code.request
            #expect(request.utf8.count <= PanelQRCode.maximumRequestBytes && request.utf8.count + 1 <= PanelRequest.maximumRequestBytes)
            #expect(try PanelRequest.parse(Array(request.utf8)).get() == .qrCode(code), "\(width)")
            #expect(try PanelRequest.parse(Array((request + "\n").utf8)).get() == .qrCode(code), "\(width): a newline after it")
            #expect(code.modules == Self.matrix(width) && code.dark(0, 0) && !code.dark(1, 1))
        }
        // 21 × 21 = 441 modules: 111 digits, the last one's three bits past the code 0.
        let small = try Self.code(21)
        #expect(small.request.hasPrefix("qr 21 ") && small.request.hasSuffix(" Ann"))
        let hex = small.request.split(separator: " ")[2]
        #expect(hex.count == 111 && hex.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        // The first row: the finder (7 dark), its separator (light), …: 1111 1110 …
        #expect(hex.hasPrefix("fe"), "\(hex.prefix(8))")
        #expect(PanelRequest.qrCode(small).text == small.request)
        // The largest request of all is a qr's, and the socket reads that much.
        #expect(PanelRequest.maximumRequestBytes == PanelQRCode.maximumRequestBytes)
        #expect(PanelQRCode.maximumRequestBytes == "qr 77 ".utf8.count + 1483 + 1 + 128 + 1)
    }

    @Test("refused whole, with the reason: too large, a bad width, bad hex, stray bits, no finders, a bad caption")
    func refusals() throws {
        let good = try Self.code(25)
        let hex = String(good.request.split(separator: " ")[2])
        let largest = try Self.code(77).request
        let cases: [(String, String)] = [
            // Too large: a code past version 15, a request past the bound.
            ("qr 81 " + String(repeating: "f", count: (81 * 81 + 3) / 4) + " Ann", "at most \(PanelQRCode.maximumRequestBytes) bytes"),
            (largest + String(repeating: "x", count: 200), "at most \(PanelQRCode.maximumRequestBytes) bytes"),
            ("qr 81 ff Ann", "21 to 77 modules in steps of 4"),
            // Widths that are no QR code's, or not a number.
            ("qr 24 \(hex) Ann", "in steps of 4"),
            ("qr 17 ff Ann", "in steps of 4"),
            ("qr 025 \(hex) Ann", "whole number of modules"),
            ("qr -25 \(hex) Ann", "whole number of modules"),
            ("qr 2x \(hex) Ann", "whole number of modules"),
            ("qr 1000 \(hex) Ann", "whole number of modules"),
            // The hex: its length, its digits, the bits past the code.
            ("qr 25 \(hex.dropLast()) Ann", "157 hex digits, not 156"),
            ("qr 25 \(hex)0 Ann", "157 hex digits, not 158"),
            ("qr 25 \(hex.uppercased()) Ann", "lower-case hex digits"),
            ("qr 25 \(hex.dropLast())g Ann", "byte 157 of them is not one"),
            ("qr 25 \(hex.dropLast())1 Ann", "bits past the code are not 0"),
            // Not a QR code: no finder at a corner.
            ("qr 25 " + String(repeating: "0", count: 156) + "8 Ann", "not a QR code"),
            // The caption: missing, too long, a control or reordering character, only spaces.
            ("qr 25 \(hex)", "give WIDTH HEX CAPTION"),
            ("qr", "give WIDTH HEX CAPTION"),
            ("qr 25 \(hex) ", "no caption"),
            ("qr 25 \(hex)    ", "no caption"),
            ("qr 25 \(hex) " + String(repeating: "é", count: 65), "at most 128 bytes"),
            ("qr 25 \(hex) Ann\nBo", "control or reordering character (U+000A) in the caption at byte 3"),
            ("qr 25 \(hex) Ann\tBo", "(U+0009)"),
            ("qr 25 \(hex) \u{1B}[2JAnn", "(U+001B)"),
            ("qr 25 \(hex) Ann\u{85}", "(U+0085)"),
            ("qr 25 \(hex) \u{202E}nnA", "(U+202E)"),
            ("qr 25 \(hex) Ann\u{2066}", "(U+2066)"),
            ("qr 25  \(hex) Ann", "157 hex digits, not 0"),
        ]
        for (text, reason) in cases {
            guard let got = Self.refusal(text) else {
                Issue.record("'\(text.prefix(40))' was taken")
                continue
            }
            #expect(got.contains(reason), "\(text.prefix(40)): \(got)")
            #expect(got.hasPrefix("qr"), "\(got)")
            #expect(!got.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(got)")
            #expect(!got.contains(hex), "the modules are not echoed: \(got.prefix(60))")
        }
        // A caption of bytes that are not UTF-8.
        #expect(Self.refusal(Array("qr 25 \(hex) ".utf8) + [0xC3, 0x28]) == "qr: the caption is not UTF-8")
        // Another word that starts the same is not this request.
        #expect(Self.refusal("qrcode 25")?.hasPrefix("unknown request") == true)
        // The largest caption taken: 128 bytes.
        let most = String(repeating: "é", count: 64)
        #expect((try? PanelRequest.parse(Array("qr 25 \(hex) \(most)".utf8)).get()) == .qrCode(try Self.code(25, caption: most)))
        // make checks as parse does.
        #expect((try? PanelQRCode.make(width: 25, modules: Self.matrix(21), caption: "Ann").get()) == nil)
        #expect((try? PanelQRCode.make(width: 25, modules: Self.matrix(25), caption: "A\nB").get()) == nil)
    }

    @Test("the log says whose code it is, never its modules; the request as the log tells it")
    func described() throws {
        let code = try Self.code(25)
        #expect(PanelRequest.qrCode(code).described == "QR code for Ann (25×25 modules)")
        let c = DeviceLogicTests.controller(DeviceLogicTests.Data())
        #expect(c.request(.qrCode(code), now: Self.t0) == .success(true))
        #expect(c.lines.contains("QR code for Ann shown for 120 s"), "\(c.lines)")
        let hex = String(code.request.split(separator: " ")[2])
        #expect(!c.lines.contains { $0.contains(hex.prefix(16)) })
    }

    static func shown(_ c: TestDevice, at now: Duration) -> QRCodeScreen? {
        c.state.scene(at: now).frame(at: now).screen as? QRCodeScreen
    }

    @Test("shown as a message: over the screen on a blank panel, the first press only dismisses it, 120 s, the next message replaces it")
    func shownAsAMessage() throws {
        let data = DeviceLogicTests.Data()
        let c = DeviceLogicTests.controller(data)
        let light = DeviceLogicTests.Light()
        c.use(light, configured: nil, now: Self.t0)
        #expect(c.update(now: Self.t0 + .seconds(20)) && c.blanked)
        let code = try Self.code(29)
        let at = Self.t0 + .seconds(30)
        #expect(c.request(.qrCode(code), now: at) == .success(true))
        #expect(!c.blanked && light.levels.last == 255, "lit while it shows")
        let screen = try #require(Self.shown(c, at: at))
        #expect(screen.width == 29 && screen.modules == code.modules && screen.name == "Ann")
        #expect(c.message == ShownMessage(text: "Ann", since: at, until: at + .seconds(120), code: code))
        #expect(c.nextDeadline(now: at) == at + .seconds(120))
        // The first press: dismissed, nothing else.
        let pressed = at + .seconds(40)
        #expect(c.feed(MessageTests.press(105, at: pressed), from: MessageTests.keyboard, name: "k", now: pressed))
        #expect(c.message == nil && MessageTests.ends(c) == [.pressed] && c.navigation.day == DeviceLogicTests.day)
        #expect(Self.shown(c, at: pressed) == nil)

        // Its time: 120 s.
        _ = c.request(.qrCode(code), now: at + .seconds(100))
        #expect(!c.update(now: at + .seconds(219)) && c.message != nil)
        #expect(c.update(now: at + .seconds(220)) && c.message == nil && MessageTests.ends(c) == [.pressed, .timeout])

        // A message replaces it, and a code replaces a message.
        _ = c.request(.qrCode(code), now: at + .seconds(300))
        _ = c.request(.message(PanelMessage(text: "Dinner")), now: at + .seconds(301))
        #expect(MessageTests.shown(c, at: at + .seconds(301))?.text == "Dinner" && c.message?.code == nil)
        _ = c.request(.qrCode(try Self.code(25, caption: "Bo")), now: at + .seconds(302))
        #expect(Self.shown(c, at: at + .seconds(302))?.name == "Bo")
        #expect(MessageTests.ends(c) == [.pressed, .timeout, .replaced, .replaced])
    }
}
