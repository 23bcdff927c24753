import Foundation
import Testing

@testable import Runtime
import QRCode

/// libqrencode (linked by glance-serve only): the token's QR code through it.
@Suite("The serve token's QR code", .timeLimit(.minutes(10)))
struct TokenQRTests {
    @Test("a version 1 code (21 modules) with its quiet zone, in half blocks, the same each time")
    func qr() throws {
        let text = try #require(QRCode.text("glance"))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        // 21 modules and two of quiet zone each side: 25 columns, 13 lines of two rows.
        #expect(lines.count == 13)
        #expect(lines.allSatisfy { $0.count == 25 })
        #expect(lines.first.map { $0.allSatisfy { $0 == " " } } == true, "the quiet zone is light: nothing drawn")
        #expect(text.contains("█") && text.contains("▀") && text.contains("▄"))
        #expect(QRCode.text("glance") == text)
    }

    /// Issue 24: the code read only on a light-on-dark terminal. On a terminal it is black on white
    /// whatever the terminal's colours: every line sets both, and gives the terminal's back.
    @Test("on a terminal, black modules on white set by the code itself, for dark and light themes alike")
    func colours() throws {
        let plain = try #require(QRCode.text("glance"))
        let coloured = try #require(QRCode.text("glance", colours: true))
        let lines = coloured.split(separator: "\n")
        #expect(lines.count == 13)
        #expect(lines.allSatisfy { $0.hasPrefix("\u{1B}[30;107m") && $0.hasSuffix("\u{1B}[0m") })
        let stripped = lines.map { $0.replacingOccurrences(of: "\u{1B}[30;107m", with: "").replacingOccurrences(of: "\u{1B}[0m", with: "") }
        #expect(stripped.joined(separator: "\n") == plain, "the same modules: dark ones drawn in black")
    }
}
