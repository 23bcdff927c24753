import CFreeType
import CHarfBuzz
import Raster

/// One face of a font file: FreeType rasterises its glyphs, HarfBuzz shapes text with it.
final class FontFace {
    let file: FontFile
    let face: FT_Face
    private let hbFace: OpaquePointer
    /// Per pixel size (in 1/64 px): FreeType's size object and HarfBuzz's font at that scale.
    /// FreeType's size and HarfBuzz's font at one size. (A struct, not a tuple: a dictionary of
    /// tuples brings the runtime's tuple metadata code into the first frame, docs/speed.md.)
    private struct Sized {
        let ft: FT_Size
        let hb: OpaquePointer
    }
    private var sizes: [Int32: Sized] = [:]

    init(library: FT_Library, file: FontFile) throws(FontError) {
        var face: FT_Face? = nil
        let error = FT_New_Face(library, file.path, FT_Long(file.index), &face)
        guard error == 0, let face else {
            throw FontError("cannot open font file \(file.path) (FreeType error \(error)): check the path")
        }
        guard let blob = hb_blob_create_from_file(file.path), let hbFace = hb_face_create(blob, UInt32(file.index))
        else {
            FT_Done_Face(face)
            throw FontError("cannot read font file \(file.path) for shaping")
        }
        hb_blob_destroy(blob)
        self.file = file
        self.face = face
        self.hbFace = hbFace
    }

    /// Whether `file` is a font FreeType opens, without loading its face (FreeType's face index
    /// -1: the file's format and its number of faces): what a start checks of the faces it opens
    /// only when their first glyph is asked for.
    static func check(library: FT_Library, file: FontFile) throws(FontError) {
        var face: FT_Face? = nil
        let error = FT_New_Face(library, file.path, -1, &face)
        guard error == 0, let face else {
            throw FontError("cannot open font file \(file.path) (FreeType error \(error)): check the path")
        }
        let count = face.pointee.num_faces
        FT_Done_Face(face)
        guard file.index < count else {
            throw FontError("font file \(file.path) has \(count) faces, not one numbered \(file.index): check the index")
        }
    }

    deinit {
        for size in sizes.values {
            hb_font_destroy(size.hb)
            FT_Done_Size(size.ft)
        }
        hb_face_destroy(hbFace)
        FT_Done_Face(face)
    }

    /// The glyph for a character, or 0 when the face has none.
    func glyph(for scalar: Unicode.Scalar) -> UInt32 {
        UInt32(FT_Get_Char_Index(face, FT_ULong(scalar.value)))
    }

    /// Makes `size64` (1/64 px) the face's current size; returns HarfBuzz's font at that size.
    @discardableResult
    func activate(size64: Int32) -> OpaquePointer? {
        if let size = sizes[size64] {
            FT_Activate_Size(size.ft)
            return size.hb
        }
        var ftSize: FT_Size? = nil
        guard FT_New_Size(face, &ftSize) == 0, let ftSize else { return nil }
        FT_Activate_Size(ftSize)
        FT_Set_Char_Size(face, 0, FT_F26Dot6(size64), 72, 72)
        guard let font = hb_font_create(hbFace) else {
            FT_Done_Size(ftSize)
            return nil
        }
        hb_font_set_scale(font, size64, size64)
        sizes[size64] = Sized(ft: ftSize, hb: font)
        return font
    }

    /// The capitals' height over the em: the OS/2 table's sCapHeight (version 2 on), else the
    /// height of the outline of "H"; nil when the face says neither.
    var capRatio: Float? {
        let em = Float(face.pointee.units_per_EM)
        guard em > 0 else { return nil }
        if let table = FT_Get_Sfnt_Table(face, FT_SFNT_OS2) {
            let os2 = table.assumingMemoryBound(to: TT_OS2.self).pointee
            if os2.version >= 2 && os2.sCapHeight > 0 { return Float(os2.sCapHeight) / em }
        }
        let index = FT_Get_Char_Index(face, 0x48)
        guard index != 0, FT_Load_Glyph(face, index, FT_Int32(FT_LOAD_NO_SCALE)) == 0,
            let slot = face.pointee.glyph
        else { return nil }
        let height = Float(slot.pointee.metrics.horiBearingY)
        return height > 0 ? height / em : nil
    }

    /// Ascent and descent (positive, px) at the active size.
    var verticalMetrics: (ascent: Float, descent: Float) {
        let m = face.pointee.size.pointee.metrics
        return (Float(m.ascender) / 64, Float(-m.descender) / 64)
    }
}
