import Activity
import QRCode
import Raster
import Screens
import Testing
import Text

/// A phone's QR code on the panel (`glance people token NAME --panel`): black on white with its
/// quiet zone, every module the same whole number of pixels (2 or more wherever the code fits at
/// 2), inside a round panel's circle, the caption (the name, "Scan with the iPhone's camera")
/// legible under the rule (12′ at the eye) and clear of the code; goldens looked at.
@Suite("QR code screen", .timeLimit(.minutes(10)))
struct QRCodeScreenTests {
    /// A person's deep link as glance people makes it (a made-up token).
    static let link =
        "com.HealthExport://automation?url=http%3A%2F%2F192.168.1.20%3A8127%2Fv1%2Fhealth-auto-export"
        + "&name=Glance%20Ann&format=json&datatype=healthmetrics&headers=Authorization,Bearer%20Jq3xv_0-LZ8aYtq5mWc1sNd2Rk9pUe4o"

    static func code(_ text: String = link) throws -> (width: Int, modules: [Bool]) {
        try #require(QRCode.modules(text))
    }

    static func screen(
        _ code: (width: Int, modules: [Bool]), name: String = "Ann", _ locale: AppLocale = .english, shape: PanelShape = .rectangle,
        probe: LayoutProbe? = nil
    ) throws -> QRCodeScreen {
        QRCodeScreen(
            width: code.width, modules: code.modules, name: name,
            context: ScreenContext(text: try ScreenGoldenTests.renderer(locale), locale: locale, shape: shape, probe: probe))
    }

    @Test("libqrencode's code of a person's link: version 9 at the lowest level, kept at the highest level of that size")
    func modules() throws {
        let code = try Self.code()
        #expect(code.width == 53 && code.modules.count == 53 * 53)
        // A short text fits version 1 at the highest level.
        #expect(try Self.code("glance").width == 21)
    }

    @Test("goldens: a person's code at 240x240, round 240 (English and Chinese), 320x240 and 800x480")
    func goldens() throws {
        let code = try Self.code()
        for (size, locale, shape, name) in [
            (Size(width: 240, height: 240), AppLocale.english, PanelShape.rectangle, "qr-240x240-en"),
            (Size(width: 240, height: 240), .english, .round, "qr-240x240-round-en"),
            (Size(width: 240, height: 240), .simplifiedChinese, .round, "qr-240x240-round-zh-Hans"),
            (Size(width: 320, height: 240), .simplifiedChinese, .rectangle, "qr-320x240-zh-Hans"),
            (Size(width: 800, height: 480), .english, .rectangle, "qr-800x480-en"),
        ] {
            let screen = try Self.screen(code, name: locale == .english ? "Ann" : "小明", locale, shape: shape)
            GoldenImage.expectMatches(FrameComposer(panel: size).render(screen), named: name)
        }
    }

    /// Whether every corner of `box` is inside the picture (and a round panel's circle).
    static func inside(_ box: Rect, _ size: Size, _ shape: PanelShape) -> Bool {
        guard box.x >= 0, box.y >= 0, box.maxX <= Float(size.width), box.maxY <= Float(size.height) else { return false }
        guard shape == .round else { return true }
        let r = Float(min(size.width, size.height)) / 2, cx = Float(size.width) / 2, cy = Float(size.height) / 2
        return [(box.x, box.y), (box.maxX, box.y), (box.x, box.maxY), (box.maxX, box.maxY)].allSatisfy { x, y in
            (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r + 0.01
        }
    }

    @Test(
        "everywhere: whole-pixel modules (2 px wherever the code fits at 2), the quiet zone, inside the circle, the caption legible and clear",
        arguments: [
            Size(width: 240, height: 240), Size(width: 320, height: 240), Size(width: 240, height: 320), Size(width: 480, height: 480),
            Size(width: 800, height: 480), Size(width: 720, height: 1280), Size(width: 1280, height: 720), Size(width: 128, height: 128),
        ])
    func everywhere(_ size: Size) throws {
        let texts = [
            "glance", Self.link, Self.link + "&x=" + String(repeating: "%E5%B0%8F", count: 40), String(repeating: "a", count: 510),
        ]
        var codes: [(width: Int, modules: [Bool])] = []
        for text in texts { codes.append(try Self.code(text)) }
        #expect(codes.map(\.width) == [21, 53, 73, 77], "versions 1, 9, 14 and 15")
        for locale in AppLocale.allCases {
            for shape in PanelShape.allCases where shape == .rectangle || size.width == size.height {
                for name in ["Ann", "Maximilian Alexander-Wolfgang", "小明"] {
                    for code in codes {
                        let probe = LayoutProbe()
                        let screen = try Self.screen(code, name: name, locale, shape: shape, probe: probe)
                        let what = "\(size) \(shape) \(locale.rawValue) \(name) \(code.width)"
                        let layout = screen.layout(for: size)
                        let side = code.width + 2 * QRCodeScreen.quietZone
                        #expect(layout.code.width == side * layout.module && layout.code.height == layout.code.width, "\(what)")
                        let room = Float(min(size.width, size.height)) / (shape == .round ? Float(2).squareRoot() : 1)
                        if Float(side * 2) <= room { #expect(layout.module >= 2, "\(what): \(layout.module) px a module") }
                        let box = Rect(
                            x: Float(layout.code.x), y: Float(layout.code.y), width: Float(layout.code.width), height: Float(layout.code.height))
                        #expect(Self.inside(box, size, shape), "\(what): the code at \(layout.code)")
                        // Drawn: each module's pixels all its colour; the quiet zone white.
                        let picture = FrameComposer(panel: size).render(screen)
                        #expect(Self.modulesMatch(picture, layout, code), "\(what)")
                        #expect(Self.quietZoneWhite(picture, layout), "\(what)")
                        // The caption: legible (12′), inside, clear of the white square, the hint whole.
                        let runs = probe.runs.filter { $0.element.hasPrefix("qr.") }
                        #expect(runs.count == layout.lines.count, "\(what)")
                        for run in runs {
                            #expect(Self.inside(run.box, size, shape), "\(what): '\(run.text)' at \(run.box)")
                            let apart = run.box.maxY <= box.y || run.box.y >= box.maxY || run.box.maxX <= box.x || run.box.x >= box.maxX
                            #expect(apart, "\(what): '\(run.text)' at \(run.box) over the code \(box)")
                        }
                        let explained = Explanation(
                            of: screen, size: size, shape: shape, viewing: Viewing(),
                            capRatio: try ScreenGoldenTests.renderer(locale).capRatio, at: 0)
                        #expect(explained.illegible.isEmpty, "\(what): \(explained.illegible.map(\.text))")
                        if layout.hint {
                            let hint = layout.lines.filter { $0.element.hasPrefix("qr.hint.") }.map(\.text).joined()
                            let said = locale.strings.scanWithIPhoneCamera
                            #expect(hint.filter { !$0.isWhitespace } == said.filter { !$0.isWhitespace }, "\(what): \(hint)")
                        }
                        if size.width >= 240 && size.height >= 240 && code.width <= 57 {
                            #expect(layout.lines.first?.element == "qr.name", "\(what): the name is said")
                            #expect(layout.module >= 2, "\(what)")
                        }
                    }
                }
            }
        }
    }

    /// Every module drawn as a square of its colour, `module` pixels a side, where the layout
    /// says it is.
    static func modulesMatch(_ picture: PixelBuffer, _ layout: QRCodeScreen.Layout, _ code: (width: Int, modules: [Bool])) -> Bool {
        for y in 0..<code.width {
            for x in 0..<code.width {
                let (px, py) = layout.origin(x, y)
                let colour: Color = code.modules[y * code.width + x] ? .black : .white
                for dy in 0..<layout.module {
                    for dx in 0..<layout.module where picture.color(x: px + dx, y: py + dy) != colour { return false }
                }
            }
        }
        return true
    }

    /// The quiet zone (four modules around the code, inside the white square) white.
    static func quietZoneWhite(_ picture: PixelBuffer, _ layout: QRCodeScreen.Layout) -> Bool {
        let quiet = QRCodeScreen.quietZone * layout.module
        let c = layout.code
        for y in c.y..<c.maxY {
            for x in c.x..<c.maxX {
                let inQuiet = x < c.x + quiet || x >= c.maxX - quiet || y < c.y + quiet || y >= c.maxY - quiet
                if inQuiet && picture.color(x: x, y: y) != .white { return false }
            }
        }
        return true
    }

    @Test("as large as the panel allows: the module sizes of a person's code, and the caption's place")
    func sizes() throws {
        let code = try Self.code()
        func layout(_ w: Int, _ h: Int, _ shape: PanelShape = .rectangle, _ locale: AppLocale = .english) throws -> QRCodeScreen.Layout {
            try Self.screen(code, locale, shape: shape).layout(for: Size(width: w, height: h))
        }
        let square = try layout(240, 240)
        #expect(square.module == 2 && square.hint, "\(square)")
        // A round 240 panel holds the code at 2 px and the name over it; the hint, at the smallest
        // legible size, would need two lines where the circle leaves room for one: left out.
        let round = try layout(240, 240, .round)
        #expect(round.module == 2 && !round.hint && round.lines.map(\.text) == ["Ann"], "\(round)")
        #expect(round.lines[0].room.maxY <= Float(round.code.y), "over the code")
        // Wide panels: beside the code, where its modules are larger so.
        let wide = try layout(800, 480)
        #expect(wide.module == 7 && wide.hint && wide.lines.allSatisfy { $0.room.x >= Float(wide.code.maxX) }, "\(wide)")
        let small = try layout(320, 240)
        #expect(small.module == 3 && small.lines.allSatisfy { $0.room.x >= Float(small.code.maxX) }, "\(small)")
        // Tall: under it.
        let tall = try layout(720, 1280)
        #expect(tall.module == 11 && tall.lines.allSatisfy { $0.room.y >= Float(tall.code.maxY) }, "\(tall)")
        // The same code and name again: nothing to draw; another: all of it.
        let a = try Self.screen(code)
        let b = QRCodeScreen(width: code.width, modules: code.modules, name: "Ann", context: a.context)
        let c = QRCodeScreen(width: code.width, modules: code.modules, name: "Bo", context: a.context)
        #expect(a.changes(since: b, at: 0, now: 1, size: Size(width: 240, height: 240)) == Damage())
        #expect(a.changes(since: c, at: 0, now: 1, size: Size(width: 240, height: 240)) == nil)
    }
}
