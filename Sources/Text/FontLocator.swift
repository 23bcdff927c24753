import CFontconfig
import Raster

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A font could not be found or opened; the message names the font or language and the Debian
/// package that provides one.
public struct FontError: Error, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A language whose script needs its own font.
public enum FontLanguage: String, Sendable, CaseIterable {
    case simplifiedChinese = "zh-Hans"

    /// fontconfig's name for the language.
    var fontconfigLanguage: String {
        switch self {
        case .simplifiedChinese: "zh-cn"
        }
    }

    /// Characters a font for the language must have.
    var sample: String {
        switch self {
        case .simplifiedChinese: "今天昨天活动锻炼站立星期月日"
        }
    }

    var englishName: String {
        switch self {
        case .simplifiedChinese: "Simplified Chinese"
        }
    }

    /// Debian packages that provide a font for the language, smallest first.
    public var debianPackages: [String] {
        switch self {
        case .simplifiedChinese: ["fonts-wqy-microhei", "fonts-noto-cjk"]
        }
    }
}

/// A font file and the face in it.
public struct FontFile: Sendable, Hashable {
    public var path: String
    public var index: Int

    public init(path: String, index: Int = 0) {
        self.path = path
        self.index = index
    }
}

/// Font files that Debian packages put at fixed paths: when one is there it is opened directly,
/// without starting fontconfig (whose configuration alone is about 24 M instructions to read,
/// the largest part of the app's start-up); when it is not, fontconfig finds the font.
public struct PackagedFonts: Sendable, Hashable {
    /// Per family (lower case), the file of each weight.
    public var families: [String: [FontWeight: FontFile]]
    public var languages: [FontLanguage: FontFile]

    public init(families: [String: [FontWeight: FontFile]] = .init(), languages: [FontLanguage: FontFile] = .init()) {
        self.families = families
        self.languages = languages
    }

    /// Nothing known: every font through fontconfig.
    public static let none = PackagedFonts()

    /// The fonts the Glance package depends on, where Debian 12 and 13 install them: Inter
    /// (fonts-inter: one file per weight) and WenQuanYi Micro Hei (fonts-wqy-microhei, the first
    /// face of its collection). These are the files fontconfig chooses for them when no other
    /// font of the family is installed.
    public static let debian: PackagedFonts = {
        // Filled in, not written as dictionary literals: a literal is an array of key-value tuples,
        // which brings the runtime's tuple metadata code into every start (docs/speed.md).
        let inter = "/usr/share/fonts/opentype/inter/Inter-"
        var weights = [FontWeight: FontFile]()
        weights[.regular] = FontFile(path: inter + "Regular.otf")
        weights[.medium] = FontFile(path: inter + "Medium.otf")
        weights[.semibold] = FontFile(path: inter + "SemiBold.otf")
        weights[.bold] = FontFile(path: inter + "Bold.otf")
        var fonts = PackagedFonts()
        fonts.families["inter"] = weights
        fonts.languages[.simplifiedChinese] = FontFile(path: "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc")
        return fonts
    }()

    /// What fontconfig reads its configuration from when told otherwise than by default.
    public static let fontconfigVariables = ["FONTCONFIG_FILE", "FONTCONFIG_PATH", "FONTCONFIG_SYSROOT"]

    /// Names a folder the font packages are unpacked in (`dpkg-deb -x`): the known files are
    /// looked up under it instead of at `/` (how the tests draw with the fonts their goldens were
    /// drawn with, whichever release's are installed: tools/test-fonts.sh).
    public static let rootVariable = "GLANCE_FONT_ROOT"

    /// The same files under `root`.
    public func rooted(at root: String) -> PackagedFonts {
        let under = { (file: FontFile) in FontFile(path: root + file.path, index: file.index) }
        return PackagedFonts(families: families.mapValues { $0.mapValues(under) }, languages: languages.mapValues(under))
    }

    /// The known files for an environment (`value` reads a variable): Debian's (under
    /// `GLANCE_FONT_ROOT` when it is set), unless fontconfig is pointed at another configuration,
    /// which then decides every font as it always did.
    public static func forEnvironment(_ value: (String) -> String?) -> PackagedFonts {
        if fontconfigVariables.contains(where: { !(value($0) ?? "").isEmpty }) { return .none }
        guard let root = value(rootVariable), !root.isEmpty else { return .debian }
        return debian.rooted(at: root)
    }

    /// The known files for this process's environment.
    public static var current: PackagedFonts {
        forEnvironment { name in getenv(name).map { String(cString: $0) } }
    }

    /// The known file of `family` at `weight`, if `exists` says it is there; nil: ask fontconfig.
    public func file(family: String, weight: FontWeight, exists: (String) -> Bool) -> FontFile? {
        guard let file = families[family.lowercased()]?[weight], exists(file.path) else { return nil }
        return file
    }

    /// The known file for `language`, if `exists` says it is there; nil: ask fontconfig.
    public func file(language: FontLanguage, exists: (String) -> Bool) -> FontFile? {
        guard let file = languages[language], exists(file.path) else { return nil }
        return file
    }

    /// Whether a file can be read (the test `file(…)` gets outside tests).
    public static func readable(_ path: String) -> Bool { access(path, R_OK) == 0 }
}

/// Finds font files through fontconfig, by family and weight or by language.
public enum FontLocator {
    /// The Debian package of the default family.
    public static let defaultFamily = "Inter"
    public static let defaultFamilyPackage = "fonts-inter"

    /// The file of `family` at `weight`; fails when fontconfig only has other families.
    public static func find(family: String, weight: FontWeight) throws(FontError) -> FontFile {
        guard let config = configuration() else { throw FontError("fontconfig could not load its configuration") }
        guard let pattern = FcPatternCreate() else { throw FontError("fontconfig: out of memory") }
        defer { FcPatternDestroy(pattern) }
        FcPatternAddString(pattern, FC_FAMILY, family)
        FcPatternAddInteger(pattern, FC_WEIGHT, Int32(FcWeightFromOpenType(Int32(weight.rawValue))))
        FcPatternAddInteger(pattern, FC_SLANT, FC_SLANT_ROMAN)
        guard let match = bestMatch(config, pattern) else {
            throw missingFamily(family)
        }
        defer { FcPatternDestroy(match) }
        guard families(of: match).contains(where: { $0.lowercased() == family.lowercased() }),
            let file = file(of: match)
        else { throw missingFamily(family) }
        return file
    }

    /// A font that covers `language`.
    public static func find(language: FontLanguage) throws(FontError) -> FontFile {
        let missing = FontError(
            "no font for \(language.rawValue) (\(language.englishName)) found by fontconfig: install the Debian "
                + "package \(language.debianPackages.joined(separator: " or ")), or name a font file for it")
        guard let config = configuration(), let pattern = FcPatternCreate() else { throw missing }
        defer { FcPatternDestroy(pattern) }
        guard let langs = FcLangSetCreate() else { throw missing }
        defer { FcLangSetDestroy(langs) }
        FcLangSetAdd(langs, language.fontconfigLanguage)
        FcPatternAddLangSet(pattern, FC_LANG, langs)
        FcPatternAddInteger(pattern, FC_SLANT, FC_SLANT_ROMAN)
        guard let match = bestMatch(config, pattern) else { throw missing }
        defer { FcPatternDestroy(match) }
        var charset: OpaquePointer? = nil
        guard FcPatternGetCharSet(match, FC_CHARSET, 0, &charset) == FcResultMatch, let charset,
            language.sample.unicodeScalars.allSatisfy({ FcCharSetHasChar(charset, $0.value) != 0 }),
            let file = file(of: match)
        else { throw missing }
        return file
    }

    private static func missingFamily(_ family: String) -> FontError {
        let package = family.lowercased() == defaultFamily.lowercased() ? defaultFamilyPackage : nil
        return FontError(
            "font '\(family)' not found by fontconfig: "
                + (package.map { "install the Debian package \($0), or name a font file" }
                    ?? "install it, or name a font file"))
    }

    private static func configuration() -> OpaquePointer? {
        guard FcInit() != 0 else { return nil }
        return FcConfigGetCurrent()
    }

    private static func bestMatch(_ config: OpaquePointer, _ pattern: OpaquePointer) -> OpaquePointer? {
        guard FcConfigSubstitute(config, pattern, FcMatchPattern) != 0 else { return nil }
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        let match = FcFontMatch(config, pattern, &result)
        guard result == FcResultMatch else {
            if let match { FcPatternDestroy(match) }
            return nil
        }
        return match
    }

    private static func families(of pattern: OpaquePointer) -> [String] {
        var names: [String] = []
        var i: Int32 = 0
        var value: UnsafeMutablePointer<FcChar8>? = nil
        while FcPatternGetString(pattern, FC_FAMILY, i, &value) == FcResultMatch, let value {
            names.append(String(cString: value))
            i += 1
        }
        return names
    }

    private static func file(of pattern: OpaquePointer) -> FontFile? {
        var value: UnsafeMutablePointer<FcChar8>? = nil
        guard FcPatternGetString(pattern, FC_FILE, 0, &value) == FcResultMatch, let value else { return nil }
        var index: Int32 = 0
        _ = FcPatternGetInteger(pattern, FC_INDEX, 0, &index)
        return FontFile(path: String(cString: value), index: Int(index))
    }
}
