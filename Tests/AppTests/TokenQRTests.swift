import Testing

@testable import App

/// libqrencode is opened on its first call (Sources/CDeferred): the token's QR code through it.
@Suite("The serve token's QR code")
struct TokenQRTests {
    @Test("a version 1 code (21 modules) with its quiet zone, in half blocks, the same each time")
    func qr() throws {
        let text = try #require(ServeApp.qrText("glance"))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        // 21 modules and two of quiet zone each side: 25 columns, 13 lines of two rows.
        #expect(lines.count == 13)
        #expect(lines.allSatisfy { $0.count == 25 })
        #expect(lines.first.map { $0.allSatisfy { $0 == "█" } } == true, "the quiet zone is light")
        #expect(text.contains(" ") && text.contains("▀") && text.contains("▄"))
        #expect(ServeApp.qrText("glance") == text)
    }
}
