import Foundation
import Platform
import TestSupport
import Testing

@testable import Server

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 39's tokens, one per person: the files (`TokenFiles`) and the phone's deep link
/// (`PhoneSetup`), pure or on a scratch folder.
@Suite("A token per person: the files and the phone's deep link", .timeLimit(.minutes(10)))
struct HouseholdTokenTests {
    @Test("the deep link for a known token and URL, exactly as Health Auto Export's documentation spells its parameters")
    func deepLink() {
        let setup = PhoneSetup(
            person: "Ann", url: "http://192.168.1.20:8127/v1/health-auto-export", token: "Jq3xv_0-LZ8aYtq5mWc1sNd2Rk9pUe4o")
        #expect(
            setup.link
                == "com.HealthExport://automation?url=http%3A%2F%2F192.168.1.20%3A8127%2Fv1%2Fhealth-auto-export"
                + "&name=Glance%20Ann&format=json&datatype=healthmetrics&headers=Authorization,Bearer%20Jq3xv_0-LZ8aYtq5mWc1sNd2Rk9pUe4o")
        #expect(setup.linkCarriesHeader)
        #expect(setup.lines.contains("  URL: http://192.168.1.20:8127/v1/health-auto-export"))
        #expect(setup.lines.contains("  Headers › Add Header: Key \"Authorization\", Value \"Bearer Jq3xv_0-LZ8aYtq5mWc1sNd2Rk9pUe4o\""))
        // A name of any script, and an IPv6 address: percent-encoded as UTF-8.
        let zoe = PhoneSetup(person: "Zoë 小明", url: "https://[fd00::2]:8127/v1/health-auto-export", token: "a+b/c=0123456789abcdef")
        #expect(
            zoe.link
                == "com.HealthExport://automation?url=https%3A%2F%2F%5Bfd00%3A%3A2%5D%3A8127%2Fv1%2Fhealth-auto-export"
                + "&name=Glance%20Zo%C3%AB%20%E5%B0%8F%E6%98%8E&format=json&datatype=healthmetrics&headers=Authorization,Bearer%20a%2Bb%2Fc%3D0123456789abcdef")
    }

    @Test("a token with a comma cannot ride in the link's headers: left out, and said to be typed")
    func comma() {
        let setup = PhoneSetup(person: "Me", url: "http://10.0.0.5:8127/v1/health-auto-export", token: "hand,written-token-123")
        #expect(!setup.linkCarriesHeader)
        #expect(
            setup.link
                == "com.HealthExport://automation?url=http%3A%2F%2F10.0.0.5%3A8127%2Fv1%2Fhealth-auto-export&name=Glance%20Me&format=json&datatype=healthmetrics")
        #expect(setup.lines[0].contains("type the header as below"))
        #expect(setup.lines.contains("  Headers › Add Header: Key \"Authorization\", Value \"Bearer hand,written-token-123\""))
    }

    @Test("the QR code of a link reads back as the link's length allows: a code of its own, drawn")
    func qr() throws {
        let setup = PhoneSetup(person: "Ann", url: "http://192.168.1.20:8127/v1/health-auto-export", token: String(repeating: "A", count: 32))
        var said: [String] = []
        setup.show { said.append($0) }
        let picture = try #require(said.first)
        #expect(picture.contains("█") && picture.split(separator: "\n").count > 20, "a code larger than version 1")
        #expect(said.dropFirst().first?.hasPrefix("On Ann's iPhone") == true)
    }

    @Test("new tokens: 32 characters of base64url, all different")
    func newTokens() throws {
        var seen = Set<String>()
        for _ in 0..<200 {
            let token = try TokenFiles.newToken()
            #expect(token.count == 32 && token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }, "\(token)")
            seen.insert(token)
        }
        #expect(seen.count == 200)
        #expect(TokenFiles.base64url([0xFB, 0xFF]) == "-_8" && TokenFiles.base64url(Array("Man".utf8)) == "TWFu")
    }

    @Test("the files: written 0640 in a 0750 folder with its group, read back by person, the folder's other names left alone")
    func files() throws {
        let scratch = ScratchFolder("tokens")
        let tokenFile = scratch.write("serve.token", "person-one-token-0123456789\n")
        chmod(tokenFile, 0o640)
        let files = TokenFiles(tokenFile: tokenFile)
        #expect(files.folder == scratch.path + "/people" && files.file(1) == tokenFile && files.file(3) == scratch.path + "/people/3.token")
        #expect(files.load().tokens.map(\.person) == [1], "no folder yet: person 1 alone")
        try files.write("second-person-token-0123456789", person: 2)
        try files.write("third-person-token-0123456789ab", person: 3)
        // Not tokens: a temporary file, a backup, person 1's or a number written otherwise.
        for name in [".4.token.abc123", "5.token~", "1.token", "06.token", "+7.token", "8.token.bak"] {
            let path = scratch.write("people/" + name, "stray-token-0123456789abcdef\n")
            chmod(path, 0o640)
        }
        let loaded = files.load()
        #expect(loaded.first == nil && loaded.problems.isEmpty, "\(loaded.problems)")
        #expect(loaded.tokens.map(\.person) == [1, 2, 3])
        #expect(loaded.tokens.map { String(decoding: $0.token, as: UTF8.self) }
            == ["person-one-token-0123456789", "second-person-token-0123456789", "third-person-token-0123456789ab"])
        var st = stat()
        #expect(stat(files.file(2), &st) == 0 && st.st_mode & 0o7777 == 0o640)
        var folder = stat()
        #expect(stat(files.folder, &folder) == 0 && folder.st_mode & 0o7777 == 0o750 && folder.st_gid == st.st_gid)

        // Made new: replaced whole; removed: gone; each seen as a change of state.
        let state = files.state()
        try files.write("second-person-renewed-012345678", person: 2)
        #expect(files.state() != state)
        #expect(files.load().tokens.first { $0.person == 2 }.map { String(decoding: $0.token, as: UTF8.self) } == "second-person-renewed-012345678")
        #expect(try files.remove(person: 3) && !(try files.remove(person: 3)))
        #expect(files.load().tokens.map(\.person) == [1, 2])
        #expect(try FileManager.default.contentsOfDirectory(atPath: files.folder).filter { $0.hasPrefix(".2.") }.isEmpty, "no temporary file left")

        // Person 1's file made new keeps its group and is 0640 again.
        try files.write("person-one-renewed-0123456789", person: 1)
        #expect(stat(tokenFile, &st) == 0 && st.st_mode & 0o7777 == 0o640)
        #expect(files.load().tokens.first?.token == Array("person-one-renewed-0123456789".utf8))
    }

    @Test("refused: a token others may read, a folder others may write, two people with one token")
    func refused() throws {
        let scratch = ScratchFolder("tokens")
        let tokenFile = scratch.write("serve.token", "person-one-token-0123456789\n")
        chmod(tokenFile, 0o640)
        let files = TokenFiles(tokenFile: tokenFile)
        try files.write("second-person-token-0123456789", person: 2)
        try files.write("third-person-token-0123456789ab", person: 3)
        chmod(files.file(3), 0o644)
        var loaded = files.load()
        #expect(loaded.tokens.map(\.person) == [1, 2])
        #expect(loaded.problems.count == 1 && loaded.problems[0].contains("3.token: others may read the token"), "\(loaded.problems)")
        chmod(files.file(3), 0o640)

        chmod(files.folder, 0o757)
        loaded = files.load()
        #expect(loaded.tokens.map(\.person) == [1], "none of the folder's tokens")
        #expect(loaded.problems.first?.contains("others may write in it") == true, "\(loaded.problems)")
        chmod(files.folder, 0o750)

        try files.write("person-one-token-0123456789", person: 3)
        loaded = files.load()
        #expect(loaded.tokens.map(\.person) == [2], "neither of the two with one token")
        #expect(loaded.problems.first?.contains("the same token as person 1's") == true, "\(loaded.problems)")
    }
}
