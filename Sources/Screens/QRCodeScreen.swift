import Activity
import Raster

/// A QR code on the panel in place of whatever it shows, as a message is (`glance people token
/// NAME --panel`: the code that sets up a person's phone), with its caption: the person's name
/// and "Scan with the iPhone's camera".
///
/// The code is black on white with its quiet zone of four modules (the white square), every
/// module the same whole number of pixels (never scaled unevenly, so a phone's camera finds a
/// grid), as large as the panel holds it with the caption: first the largest module of 2 px or
/// more with the whole caption at its designed size, else at the legibility rule's smallest
/// (`Legibility.textArcMinutes`), else with the name alone, else the code alone; only then
/// 1 px, with what of the caption fits. The caption goes under the code; on a round panel, the name may go
/// over it and the rest under it; on a wide panel beside it, where that makes the modules larger.
/// On a round panel the white square and every line stay inside the circle.
public struct QRCodeScreen: ContextScreen {
    /// Modules a side.
    public let width: Int
    /// Row-major, `width` × `width`, true where dark.
    public let modules: [Bool]
    /// Whose phone it sets up.
    public let name: String
    public var context: ScreenContext

    public init(width: Int, modules: [Bool], name: String, context: ScreenContext) {
        self.width = width
        self.modules = modules.count == width * width ? modules : Array(repeating: false, count: width * width)
        self.name = name
        self.context = context
    }

    /// The quiet zone, in modules, each side (ISO/IEC 18004's).
    public static let quietZone = 4

    /// A line of the caption as placed.
    public struct Line: Sendable, Equatable {
        public var text: String
        /// The name whole, where it was cut with "…".
        public var full: String?
        public var size: Float
        public var weight: FontWeight
        public var baseline: Float
        /// The room it is centred in (its height the line's ascent and descent).
        public var room: Rect
        public var element: String
    }

    /// Where the code and the caption go in a picture.
    public struct Layout: Sendable, Equatable {
        /// Pixels a module a side.
        public var module: Int
        /// The white square: the code and its quiet zone.
        public var code: IntRect
        public var lines: [Line]
        /// The caption says the hint as well as the name.
        public var hint: Bool

        /// The top left pixel of the module at column `x`, row `y`.
        public func origin(_ x: Int, _ y: Int) -> (x: Int, y: Int) {
            (code.x + (QRCodeScreen.quietZone + x) * module, code.y + (QRCodeScreen.quietZone + y) * module)
        }
    }

    /// The caption's designed sizes, fractions of the short side (never under the smallest
    /// legible text).
    static let nameSize: Float = 0.085
    static let hintSize: Float = 0.05
    static let leading: Float = 1.2
    /// The most lines the hint is wrapped to.
    static let hintLines = 3

    /// How the caption goes around the code.
    enum Arrangement: CaseIterable { case under, split, beside }

    public func layout(for size: Size) -> Layout {
        let scale = TypeScale(size: size, context: context)
        let text = TextLayout(context, scale: scale)
        let side = width + 2 * Self.quietZone
        let largest = max(1, min(size.width, size.height) / side)
        let short = Float(min(size.width, size.height))
        let designed = (max(scale.floor, short * Self.nameSize), max(scale.floor, short * Self.hintSize))
        let smallest = (scale.floor, scale.floor)
        let arrangements: [Arrangement] =
            context.shape == .round ? [.split, .under] : size.width > size.height ? [.under, .beside] : [.under]
        func first(_ modules: [Int], _ captions: [(hint: Bool, sizes: (Float, Float))]) -> Layout? {
            for m in modules {
                for caption in captions {
                    for arrangement in arrangements {
                        if let layout = place(m, arrangement, hint: caption.hint, sizes: caption.sizes, size: size, text: text) {
                            return layout
                        }
                    }
                }
            }
            return nil
        }
        // (On a small panel the designed sizes are the smallest: tried once.)
        let sizes = designed == smallest ? [designed] : [designed, smallest]
        let whole = sizes.map { (hint: true, sizes: $0) }
        let named = sizes.map { (hint: false, sizes: $0) }
        let large = largest >= 2 ? Array((2...largest).reversed()) : []
        if let layout = first(large, whole) ?? first(large, named) { return layout }
        // Modules of 2 px without the caption rather than of 1 px with it: a camera needs them.
        let code = alone(largest, size: size)
        if code.module >= 2 { return code }
        return first([1], whole + named) ?? code
    }

    /// The code alone, as large as it goes, in the middle.
    func alone(_ largest: Int, size: Size) -> Layout {
        var m = largest
        let side = width + 2 * Self.quietZone
        if context.shape == .round {
            // The square's diagonal within the circle.
            while m > 1, Float(side * m) * Float(2).squareRoot() > Float(min(size.width, size.height)) { m -= 1 }
        }
        let s = side * m
        return Layout(
            module: m, code: IntRect(x: (size.width - s) / 2, y: (size.height - s) / 2, width: s, height: s), lines: [], hint: false)
    }

    /// The code at `m` px a module with the caption arranged so, or nil where it does not fit.
    func place(
        _ m: Int, _ arrangement: Arrangement, hint: Bool, sizes: (name: Float, hint: Float), size: Size, text: TextLayout
    ) -> Layout? {
        let w = Float(size.width), h = Float(size.height)
        let s = (width + 2 * Self.quietZone) * m
        let margin = max(4, Float(min(size.width, size.height)) * 0.03)
        let gap = max(4, Float(min(size.width, size.height)) * 0.025)
        let round = context.shape == .round
        let radius = min(w, h) / 2
        let nameStyle = TextStyle(size: sizes.name, weight: .semibold)
        let hintStyle = TextStyle(size: sizes.hint, weight: .regular)
        let hintText = context.strings.scanWithIPhoneCamera
        let nameMetrics = text.lineMetrics(name, nameStyle)
        let hintMetrics = text.lineMetrics(hintText, hintStyle)
        let nameHeight = nameMetrics.ascent + nameMetrics.descent
        let hintHeight = hintMetrics.ascent + hintMetrics.descent
        let hintStep = sizes.hint * Self.leading
        guard Float(s) <= w, Float(s) <= h else { return nil }

        /// The room across a line whose box runs from `top` to `bottom`: the panel less its
        /// margins, or the circle's chord at the edge farther from the middle; nil where none.
        func room(top: Float, bottom: Float, x0: Float = 0, x1: Float? = nil) -> Rect? {
            guard top >= (round ? 0 : margin / 2), bottom <= h - (round ? 0 : margin / 2) else { return nil }
            if round {
                let d = max(abs(top - h / 2), abs(bottom - h / 2))
                let inner = radius - margin
                guard d < inner else { return nil }
                let half = (inner * inner - d * d).squareRoot()
                return Rect(x: w / 2 - half, y: top, width: 2 * half, height: bottom - top)
            }
            let left = max(x0, margin), right = min(x1 ?? w, w - margin)
            guard right > left else { return nil }
            return Rect(x: left, y: top, width: right - left, height: bottom - top)
        }

        /// The name on the line whose box starts at `top`: cut with "…" where it is wider than
        /// its room (never to nothing: then nil).
        func nameLine(top: Float, x0: Float = 0, x1: Float? = nil) -> Line? {
            guard let r = room(top: top, bottom: top + nameHeight, x0: x0, x1: x1) else { return nil }
            let shown = text.truncated(name, nameStyle, width: r.width)
            guard !shown.isEmpty, shown != "…" else { return nil }
            return Line(
                text: shown, full: shown == name ? nil : name, size: sizes.name, weight: .semibold, baseline: top + nameMetrics.ascent,
                room: r, element: "qr.name")
        }

        /// The hint wrapped on lines from `top` down, as few as hold it whole; nil where none do.
        func hintLines(top: Float, x0: Float = 0, x1: Float? = nil) -> [Line]? {
            for count in 1...Self.hintLines {
                var rooms: [Rect] = []
                for i in 0..<count {
                    let t = top + Float(i) * hintStep
                    guard let r = room(top: t, bottom: t + hintHeight, x0: x0, x1: x1) else { return nil }
                    rooms.append(r)
                }
                let lines = text.wrapped(hintText, hintStyle, widths: rooms.map(\.width))
                guard MessageScreen.holds(lines, hintText), lines.count <= count,
                    zip(lines, rooms).allSatisfy({ text.measure($0, hintStyle).width <= $1.width })
                else { continue }
                return lines.enumerated().map { i, line in
                    Line(
                        text: line, full: nil, size: sizes.hint, weight: .regular, baseline: rooms[i].y + hintMetrics.ascent, room: rooms[i],
                        element: "qr.hint.\(i + 1)")
                }
            }
            return nil
        }

        /// Whether the white square from `y` is inside the panel (and its circle).
        func codeFits(x: Int, y: Int) -> Bool {
            guard x >= 0, y >= 0, x + s <= size.width, y + s <= size.height else { return false }
            guard round else { return true }
            let cx = w / 2, cy = h / 2
            let far = max(abs(Float(x) - cx), abs(Float(x + s) - cx)), farY = max(abs(Float(y) - cy), abs(Float(y + s) - cy))
            return far * far + farY * farY <= radius * radius
        }

        // The hint's height on as many lines as it may take, for placing the whole before it is
        // wrapped (then placed again on the lines it took).
        func hintBlock(_ lines: Int) -> Float { lines == 0 ? 0 : Float(lines - 1) * hintStep + hintHeight }

        switch arrangement {
        case .under, .split:
            let above = arrangement == .split
            for lines in hint ? Array(1...Self.hintLines) : [0] {
                let below = (above ? 0 : nameHeight) + (hint ? (above ? 0 : gap / 2) + hintBlock(lines) : 0)
                let over = above ? nameHeight + gap : 0
                let block = over + Float(s) + gap + below
                guard block <= h else { continue }
                // In the middle; on a round panel, the square moved in where it would leave the circle.
                var y = Int(((h - block) / 2 + over).rounded())
                if above && round { y = (size.height - s) / 2 }
                let x = (size.width - s) / 2
                if round && !codeFits(x: x, y: y) {
                    let limit = Int((h / 2 - (radius * radius - Float(s * s) / 4).squareRoot()).rounded(.up))
                    y = max(y, limit)
                }
                guard codeFits(x: x, y: y) else { continue }
                var placed: [Line] = []
                var next = Float(y + s) + gap
                if above {
                    guard let line = nameLine(top: Float(y) - gap - nameHeight) else { continue }
                    placed.append(line)
                } else {
                    guard let line = nameLine(top: next) else { continue }
                    placed.append(line)
                    next += nameHeight + gap / 2
                }
                if hint {
                    guard let hinted = hintLines(top: next), hinted.count == lines else { continue }
                    placed += hinted
                }
                return Layout(module: m, code: IntRect(x: x, y: y, width: s, height: s), lines: placed, hint: hint)
            }
            return nil
        case .beside:
            guard !round else { return nil }
            let column = w - Float(s) - gap - margin
            guard column > sizes.name * 2 else { return nil }
            for lines in hint ? Array(1...Self.hintLines) : [0] {
                let block = nameHeight + (hint ? gap / 2 + hintBlock(lines) : 0)
                guard block <= h - margin else { continue }
                let top = (h - block) / 2
                let x0 = Float(s) + gap
                guard let name = nameLine(top: top, x0: x0) else { continue }
                var placed = [name]
                if hint {
                    guard let hinted = hintLines(top: top + nameHeight + gap / 2, x0: x0), hinted.count == lines else { continue }
                    placed += hinted
                }
                var widest: Float = 0
                for line in placed { widest = max(widest, text.measure(line.text, TextStyle(size: line.size, weight: line.weight)).width) }
                // The code and the caption's widest line together in the middle across.
                let shift = max(0, Int(min((w - Float(s) - gap - widest) / 2, column - widest).rounded(.down)))
                let y = (size.height - s) / 2
                guard codeFits(x: shift, y: y) else { continue }
                for i in placed.indices {
                    placed[i].room.x += Float(shift)
                    placed[i].room.width = min(placed[i].room.width, widest + 1)
                }
                return Layout(module: m, code: IntRect(x: shift, y: y, width: s, height: s), lines: placed, hint: hint)
            }
            return nil
        }
    }

    public func draw(into buffer: PixelBuffer, at time: Double) {
        buffer.fill(.black)
        let layout = layout(for: buffer.size)
        buffer.fill(layout.code, with: .white)
        let m = layout.module
        for y in 0..<width {
            // Each run of dark modules in a row as one rectangle.
            var x = 0
            while x < width {
                guard modules[y * width + x] else {
                    x += 1
                    continue
                }
                var end = x + 1
                while end < width && modules[y * width + end] { end += 1 }
                let (px, py) = layout.origin(x, y)
                buffer.fill(IntRect(x: px, y: py, width: (end - x) * m, height: m), with: .black)
                x = end
            }
        }
        let text = TextLayout(drawing: context)
        for line in layout.lines {
            text.draw(
                line.text, TextStyle(size: line.size, weight: line.weight), color: TextLayout.primary, baseline: line.baseline,
                from: line.room.x, to: line.room.maxX, align: .center, element: line.element, full: line.full, into: buffer)
        }
    }

    /// The same code and name drawn alike: nothing changed. Anything else: draw it whole.
    public func changes(since previous: any Screen, at previousTime: Double, now time: Double, size: Size) -> Damage? {
        guard let before = previous as? QRCodeScreen, before.width == width, before.modules == modules, before.name == name,
            context.drawsLike(before.context)
        else { return nil }
        return Damage()
    }
}

extension Strings {
    /// Under a phone's QR code on the panel (`QRCodeScreen`).
    public var scanWithIPhoneCamera: String {
        locale == .english ? "Scan with the iPhone's camera" : "用 iPhone 的相机扫描"
    }
}
