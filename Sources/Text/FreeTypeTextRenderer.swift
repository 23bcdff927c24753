import CFreeType
import CHarfBuzz
import Raster

/// Text through FreeType (glyphs, anti-aliased, cached at quarter-pixel positions) and HarfBuzz
/// (shaping, with the font's kerning). Each weight has a stack of faces: the family first, then
/// faces for the languages asked for; a character takes the first face that has it.
public final class FreeTypeTextRenderer: TextRenderer {
    /// Which fonts to use.
    public struct Fonts: Sendable, Hashable {
        /// Family looked up through fontconfig, one face per weight.
        public var family: String
        /// A font file used for every weight instead of the family.
        public var file: String?
        /// Languages that need their own font (looked up by language unless a file is given).
        public var languages: [FontLanguage]
        public var languageFiles: [FontLanguage: String]
        /// Files opened without fontconfig when they are there (the family's or a language's);
        /// fontconfig finds the rest. By default Debian's paths, unless the environment points
        /// fontconfig at a configuration of its own.
        public var packaged: PackagedFonts

        public init(
            family: String = FontLocator.defaultFamily, file: String? = nil, languages: [FontLanguage] = [],
            languageFiles: [FontLanguage: String] = [:], packaged: PackagedFonts = .current
        ) {
            self.family = family
            self.file = file
            self.languages = languages
            self.languageFiles = languageFiles
            self.packaged = packaged
        }
    }

    private let library: FT_Library
    /// The files in use, each face opened (FreeType's face, HarfBuzz's) when a glyph of it is first
    /// asked for: a start opens the faces its first frame writes in (the ring screen: one of
    /// Inter's four weights), not the others (some 0.36 M instructions each), after checking
    /// that each is a font (`FontFace.check`).
    private var sources: [FontFile] = []
    private var opened: [FontFace?] = []
    /// The regular weight's first face, opened with the renderer: what stands in for a face that
    /// was checked but then could not be opened (its file changed since).
    private var primary = 0
    /// Told when a face opened on first use cannot be (the app's log): once for each file.
    public var report: ((String) -> Void)?
    private var stacks: [FontWeight: [Int]] = [:]
    private var glyphs: [GlyphKey: Glyph] = [:]
    private var lines: [LineKey: ShapedLine] = [:]
    private var recent: [Remembered] = []
    /// Where the next line remembered goes once `recent` is full (its oldest).
    private var recentNext = 0
    private let buffer: OpaquePointer

    /// Characters of a line that take the same face. (A struct, not a tuple: an array of
    /// tuples brings the runtime's tuple metadata code into the first frame, docs/speed.md.)
    struct Run {
        let face: Int
        let text: Substring
    }

    /// A line shaped lately, by its key.
    struct Remembered {
        let key: LineKey
        let line: ShapedLine
    }

    struct GlyphKey: Hashable {
        var face: Int
        var id: UInt32
        var size64: Int32
        var subpixel: Int
        /// Outline growth (1/64 px) for a weight the face does not have.
        var embolden: Int32
    }

    /// A rendered glyph: coverage rows and where they sit relative to the pen.
    struct Glyph {
        var coverage: [UInt8]
        var width: Int
        var height: Int
        var left: Int
        var top: Int
    }

    struct LineKey: Hashable {
        var text: String
        var style: TextStyle
    }

    struct ShapedGlyph {
        var face: Int
        var id: UInt32
        var embolden: Int32
        /// Pen position in 1/64 px (64-bit: no line can overflow it).
        var x: Int
        var y: Int32
    }

    /// The most characters (Unicode scalars) of a line laid out: thousands of pixels past the
    /// edge of any panel. A longer text (a description of megabytes that something wrote into
    /// the store) is drawn as its beginning, never in time or memory that grows with it.
    public static let longestLine = 2000

    struct ShapedLine {
        var glyphs: [ShapedGlyph]
        var metrics: TextMetrics
    }

    public init(fonts: Fonts = Fonts()) throws(FontError) {
        var lib: FT_Library? = nil
        guard FT_Init_FreeType(&lib) == 0, let lib else { throw FontError("FreeType could not start") }
        library = lib
        guard let buffer = hb_buffer_create() else {
            FT_Done_FreeType(lib)
            throw FontError("HarfBuzz could not start")
        }
        self.buffer = buffer
        var known: [FontFile: Int] = [:]
        func open(_ file: FontFile) throws(FontError) -> Int {
            if let i = known[file] { return i }
            try FontFace.check(library: library, file: file)
            sources.append(file)
            opened.append(nil)
            known[file] = sources.count - 1
            return sources.count - 1
        }
        var fallbacks: [Int] = []
        for language in fonts.languages {
            let file: FontFile
            if let path = fonts.languageFiles[language] {
                file = FontFile(path: path)
            } else if let known = fonts.packaged.file(language: language, exists: PackagedFonts.readable) {
                file = known
            } else {
                file = try FontLocator.find(language: language)
            }
            fallbacks.append(try open(file))
        }
        for weight in FontWeight.allCases {
            let file: FontFile
            if let path = fonts.file {
                file = FontFile(path: path)
            } else if let known = fonts.packaged.file(family: fonts.family, weight: weight, exists: PackagedFonts.readable) {
                file = known
            } else {
                file = try FontLocator.find(family: fonts.family, weight: weight)
            }
            stacks[weight] = [try open(file)] + fallbacks
        }
        primary = stacks[.regular]?.first ?? 0
        if !sources.isEmpty { opened[primary] = try FontFace(library: library, file: sources[primary]) }
    }

    /// The files whose faces are open (tests).
    var openedFiles: [FontFile] { sources.indices.filter { opened[$0] != nil }.map { sources[$0] } }

    /// The face of `sources[index]`, opened the first time.
    private func face(_ index: Int) -> FontFace {
        if let face = opened[index] { return face }
        do throws(FontError) {
            let face = try FontFace(library: library, file: sources[index])
            opened[index] = face
            return face
        } catch {
            // Checked as a font when the renderer was made: changed since. The primary face
            // writes its text instead (from now on, not opened again), and that is told.
            let stand = opened[primary]!
            opened[index] = stand
            report?("\(error.message); its text is written in \(sources[primary].path) until the fonts are loaded again (restart or reload)")
            return stand
        }
    }

    deinit {
        hb_buffer_destroy(buffer)
        opened.removeAll()
        FT_Done_FreeType(library)
    }

    /// The files in use, primary (regular weight) first.
    public var files: [FontFile] { (stacks[.regular] ?? []).map { sources[$0] } }

    public func measure(_ text: String, _ style: TextStyle) -> TextMetrics {
        shape(text, style).metrics
    }

    /// The primary face's (the regular weight's first).
    public private(set) lazy var capRatio: Float = {
        guard let first = stacks[.regular]?.first else { return 0.727 }
        return face(first).capRatio ?? 0.727
    }()

    public func canRender(_ text: String) -> Bool {
        let stack = stacks[.regular] ?? []
        return text.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isWhitespace || scalar.value < 0x20
                || stack.contains { face($0).glyph(for: scalar) != 0 }
        }
    }

    /// By the Unicode rules, through libunibreak (`UnicodeLineBreaking`).
    public func lineBreaks(_ text: String, language: String) -> [LineBreak] {
        UnicodeLineBreaking.breaks(text, language: language)
    }

    public func draw(
        _ text: String, _ style: TextStyle, color: Color, at origin: Point, into target: PixelBuffer, clip: IntRect?
    ) {
        guard target.format == .xrgb8888, origin.x.isFinite, abs(origin.y) < 1e9 else { return }
        let line = shape(text, style)
        let size64 = Self.size64(style)
        let baseline = Int((origin.y + 0.5).rounded(.down))
        // A glyph's ink stays within an em of its pen position, left and up, and two ems right:
        // one that far from where the buffer draws is not looked up at all (a frame that redraws
        // part of a line).
        let em = Int(size64) / 64 + 2
        for g in line.glyphs {
            let x = origin.x + Float(g.x) / 64
            // Far outside any buffer (and any Int a Float converts to without trapping).
            guard abs(x) < 1e9 else { continue }
            var whole = Int(x.rounded(.down))
            var subpixel = Int(((x - Float(whole)) * 4).rounded())
            if subpixel == 4 {
                whole += 1
                subpixel = 0
            }
            let pen = IntRect(x: whole - em, y: baseline - Int(g.y / 64) - 2 * em, width: 3 * em, height: 3 * em)
            guard target.draws(in: clip.map { pen.intersection($0) } ?? pen) else { continue }
            guard let glyph = rendered(
                GlyphKey(face: g.face, id: g.id, size64: size64, subpixel: subpixel, embolden: g.embolden)),
                glyph.width > 0
            else { continue }
            glyph.coverage.withUnsafeBufferPointer { mask in
                target.fillMask(
                    mask.baseAddress!, width: glyph.width, height: glyph.height, pitch: glyph.width,
                    x: whole + glyph.left, y: baseline - Int(g.y / 64) - glyph.top, color: color, clip: clip)
            }
        }
    }

    /// The size in 1/64 px, between 1/64 and 2,048 px (a size from any layout, however wrong, is a
    /// size FreeType renders in bounded memory).
    static func size64(_ style: TextStyle) -> Int32 { Int32(fixed64(style.size, in: 1...(2048 * 64))) }

    /// `pixels` in 1/64 px, clamped into `range` (NaN: its lower end), never trapping.
    static func fixed64(_ pixels: Float, in range: ClosedRange<Int>) -> Int {
        let x = (pixels * 64).rounded()
        guard x.isFinite else { return x > 0 ? range.upperBound : range.lowerBound }
        return min(max(Int(max(min(x, 1e12), -1e12)), range.lowerBound), range.upperBound)
    }

    /// How much to grow a regular face's outlines for `weight` (1/64 px).
    static func emboldening(_ weight: FontWeight, size64: Int32) -> Int32 {
        switch weight {
        case .regular: 0
        case .medium: size64 / 48
        case .semibold: size64 / 30
        case .bold: size64 / 22
        }
    }

    /// Shapes a line, once per text and style.
    func shape(_ whole: String, _ style: TextStyle) -> ShapedLine {
        var text = whole
        // A line of at most `longestLine` bytes has at most as many characters: not walked
        // (every measure and draw of a frame comes here).
        if whole.utf8.count > Self.longestLine, let end = whole.unicodeScalars.index(
            whole.unicodeScalars.startIndex, offsetBy: Self.longestLine, limitedBy: whole.unicodeScalars.endIndex),
            end != whole.unicodeScalars.endIndex
        {
            text = String(whole.unicodeScalars[..<end])
        }
        let key = LineKey(text: text, style: style)
        // A frame measures and draws the same few lines again and again: compared before hashed.
        for i in recent.indices where recent[i].key == key { return recent[i].line }
        if let line = lines[key] {
            remember(key, line)
            return line
        }
        let stack = stacks[style.weight] ?? stacks[.regular] ?? []
        let size64 = Self.size64(style)
        var glyphsOut: [ShapedGlyph] = []
        var pen = 0
        var ascent: Float = 0, descent: Float = 0
        // Runs of characters that take the same face.
        var runs: [Run] = []
        var runStart = text.startIndex
        var runFace = -1
        var index = text.startIndex
        for scalar in text.unicodeScalars {
            let face = stack.first { self.face($0).glyph(for: scalar) != 0 } ?? stack.first ?? 0
            // Spaces and marks stay in the current run.
            let keep = runFace >= 0 && (scalar.properties.isWhitespace || self.face(runFace).glyph(for: scalar) != 0)
            let next = text.unicodeScalars.index(after: index)
            if !keep && face != runFace {
                if runFace >= 0 { runs.append(Run(face: runFace, text: text[runStart..<index])) }
                runStart = index
                runFace = face
            }
            index = next
        }
        if runFace >= 0 { runs.append(Run(face: runFace, text: text[runStart..<text.endIndex])) }
        let tracking64 = Self.fixed64(style.tracking, in: -(1 << 20)...(1 << 20))
        for run in runs where !sources.isEmpty {
            let face = self.face(run.face)
            // A fallback face has one weight: heavier styles embolden its outlines.
            let embolden: Int32 = run.face == stack.first ? 0 : Self.emboldening(style.weight, size64: size64)
            guard let font = face.activate(size64: size64) else { continue }
            let metrics = face.verticalMetrics
            ascent = max(ascent, metrics.ascent)
            descent = max(descent, metrics.descent)
            hb_buffer_clear_contents(buffer)
            var utf8 = String(run.text)
            utf8.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    hb_buffer_add_utf8(buffer, chars.baseAddress, Int32(chars.count), 0, Int32(chars.count))
                }
            }
            hb_buffer_guess_segment_properties(buffer)
            hb_shape(font, buffer, nil, 0)
            var count: UInt32 = 0
            guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
                let positions = hb_buffer_get_glyph_positions(buffer, &count)
            else { continue }
            for i in 0..<Int(count) {
                let p = positions[i]
                glyphsOut.append(
                    ShapedGlyph(face: run.face, id: infos[i].codepoint, embolden: embolden, x: pen + Int(p.x_offset), y: p.y_offset))
                pen += Int(p.x_advance) + tracking64 + Int(embolden)
            }
        }
        if !glyphsOut.isEmpty { pen -= tracking64 }  // no tracking after the last letter
        if ascent == 0, let first = stack.first, !sources.isEmpty {
            face(first).activate(size64: size64)
            (ascent, descent) = face(first).verticalMetrics
        }
        let line = ShapedLine(glyphs: glyphsOut, metrics: TextMetrics(width: Float(pen) / 64, ascent: ascent, descent: descent))
        if lines.count > 2048 { lines.removeAll(keepingCapacity: true) }
        lines[key] = line
        remember(key, line)
        return line
    }

    /// The lines shaped or looked up last (a ring: the oldest is replaced). A screen that lays
    /// a frame out before it draws it (the ring screen: `RingScreenLayout`) draws its thirty or
    /// so lines after measuring them all, so they are still here when drawn.
    private func remember(_ key: LineKey, _ line: ShapedLine) {
        if recent.count < Self.recentCount {
            recent.append(Remembered(key: key, line: line))
        } else {
            recent[recentNext] = Remembered(key: key, line: line)
            recentNext = (recentNext + 1) % Self.recentCount
        }
    }

    static let recentCount = 32

    /// The glyph's coverage at its size and quarter-pixel offset, rendered once.
    func rendered(_ key: GlyphKey) -> Glyph? {
        if let glyph = glyphs[key] { return glyph }
        let face = self.face(key.face)
        face.activate(size64: key.size64)
        let loadLight: Int32 = 1 << 16  // FT_LOAD_TARGET_LIGHT: vertical hinting only
        let noBitmap: Int32 = 1 << 3  // FT_LOAD_NO_BITMAP: outlines, never embedded bitmaps
        guard FT_Load_Glyph(face.face, key.id, loadLight | noBitmap) == 0 else { return nil }
        let slot = face.face.pointee.glyph!
        if slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE {
            if key.embolden > 0 {
                FT_Outline_Embolden(&slot.pointee.outline, FT_Pos(key.embolden))
                FT_Outline_Translate(&slot.pointee.outline, FT_Pos(key.embolden / 2), 0)
            }
            if key.subpixel != 0 { FT_Outline_Translate(&slot.pointee.outline, FT_Pos(key.subpixel * 16), 0) }
        }
        guard FT_Render_Glyph(slot, FT_RENDER_MODE_LIGHT) == 0 else { return nil }
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), height = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        var coverage = [UInt8](repeating: 0, count: width * height)
        if width > 0, height > 0, let source = bitmap.buffer {
            for row in 0..<height {
                for col in 0..<width { coverage[row * width + col] = source[row * pitch + col] }
            }
        }
        let glyph = Glyph(
            coverage: coverage, width: width, height: height, left: Int(slot.pointee.bitmap_left),
            top: Int(slot.pointee.bitmap_top))
        if glyphs.count > 4096 { glyphs.removeAll(keepingCapacity: true) }
        glyphs[key] = glyph
        return glyph
    }
}
