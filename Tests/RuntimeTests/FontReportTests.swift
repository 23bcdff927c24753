import Configuration
import Foundation
import Raster
import Runtime
import TestSupport
import Testing

/// The fonts every command loads through `Settings.loadText` tell where a face that cannot be
/// opened at its first use goes (`glance run`'s log, `glance watch`'s, render's stderr).
@Suite("Fonts: a face broken after the start is told where the caller says", .timeLimit(.minutes(10)))
struct FontReportTests {
    /// What the renderer told (the test runs it on one thread).
    final class Told: @unchecked Sendable {
        var lines: [String] = []
    }

    @Test("loadText(report:) hands the report on: a CJK face truncated after the check is told once, naming it")
    func reportHandedOn() throws {
        var settings = Settings()
        settings.locale = .simplifiedChinese
        let probe = try #require(try settings.loadText(report: nil), "the default fonts (GLANCE_FONT_ROOT)")
        let cjk = try #require(probe.files.last, "a CJK face for Chinese")
        let folder = ScratchFolder("font-report")
        let copy = folder.file("cjk.ttc")
        try FileManager.default.copyItem(atPath: cjk.path, toPath: copy)
        settings.cjkFontFile = copy
        let told = Told()
        let text = try #require(try settings.loadText(report: { told.lines.append($0) }))
        #expect(truncate(copy, 0) == 0)
        let line = text.measure("今天", TextStyle(size: 20, weight: .regular))
        _ = text.measure("今日", TextStyle(size: 20, weight: .regular))
        #expect(line.width > 0, "the primary face writes it instead")
        #expect(told.lines.count == 1 && told.lines.first?.contains(copy) == true, "\(told.lines)")
    }
}
