import Foundation
import Testing

@testable import Store
@testable import HealthExport

/// The bounds checked on an export's bytes before libxml2 sees them: what real files hold passes
/// whatever the chunking, and each bound is refused at the right place.
@Suite(.timeLimit(.minutes(10))) struct XMLLimitsTests {
    /// Scans `text` in chunks of `size` bytes; the error, if any.
    func scan(_ text: String, chunk size: Int = 1 << 18, encoding: XMLEncoding = .utf8) -> XMLLimits.Exceeded? {
        scan(Array(text.utf8), chunk: size, encoding: encoding)
    }

    func scan(_ bytes: [UInt8], chunk size: Int, encoding: XMLEncoding) -> XMLLimits.Exceeded? {
        var limits = XMLLimits(encoding: encoding)
        return bytes.withUnsafeBytes { raw -> XMLLimits.Exceeded? in
            var offset = 0
            while offset < raw.count {
                let n = min(size, raw.count - offset)
                do throws(XMLLimits.Exceeded) {
                    try limits.scan(UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + n)]))
                } catch {
                    return error
                }
                offset += n
            }
            return nil
        }
    }

    static let tricky = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!-- a comment with an apostrophe's quote and a > -->
        <!ATTLIST Record value CDATA #IMPLIED note CDATA "a ] b > c">
        <?pi inside the DTD > ?>
        ]>
        <HealthData>
         <Record value="<&gt;>" note='"quoted" > here'/>
         <![CDATA[ <not a tag attr="x"> ]] ]]>
         <!-- -- - > -->
         <ActivitySummary dateComponents="2024-01-01"/>
        </HealthData>

        """

    @Test func trickyMarkupPassesWhateverTheChunks() throws {
        for size in [1, 2, 3, 7, 64, 1 << 18] {
            #expect(scan(Self.tricky, chunk: size) == nil, "chunks of \(size)")
        }
    }

    @Test func syntheticFilesPassWhateverTheChunks() throws { try filesPass(.synthetic) }
    @Test(.enabled(if: Fixtures.available, Fixtures.absent)) func realFilesPassWhateverTheChunks() throws { try filesPass(.real) }

    func filesPass(_ set: FixtureSet) throws {
        for name in [set.plainXML, set.dtdXML] {
            let text = try String(contentsOfFile: set.path(name), encoding: .utf8)
            #expect(scan(text, chunk: 5) == nil && scan(text) == nil, "\(name)")
            let utf16 = [0xFF, 0xFE] + Array(text.data(using: .utf16LittleEndian)!)
            #expect(scan(utf16, chunk: 333, encoding: .utf16LE) == nil, "\(name) as UTF-16")
        }
    }

    @Test func eachBoundIsRefusedWhereItsMarkupBegins() {
        let long = String(repeating: "x", count: XMLLimits.maxToken)
        for (text, what) in [
            ("<a>\n  <Record value=\"\(long)\"/>", "a tag (with its attributes)"),
            ("<a>\n  <!-- \(long) -->", "a comment"),
            ("<a>\n  <![CDATA[\(long)]]>", "a CDATA section"),
            ("<a>\n  <?pi \(long)?>", "a processing instruction"),
            ("\n  <!DOCTYPE a [ <!ENTITY e \"\(long)\"> ]>", "the DOCTYPE (with its DTD)"),
        ] {
            for size in [4096, 1 << 18] {
                let error = scan(text, chunk: size)
                #expect(error?.line == 2 && error?.column == 3, "\(what): \(String(describing: error))")
                #expect(error?.message.hasPrefix(what) == true, "\(String(describing: error?.message))")
            }
        }
        // Just within the bound passes.
        #expect(scan("<a v=\"\(String(repeating: "x", count: XMLLimits.maxToken - 10))\"/>") == nil)
        // Attributes: 256 pass, 257 do not.
        let many = (0..<257).map { " a\($0)=\"\"" }
        #expect(scan("<r" + many.prefix(256).joined() + "/>") == nil)
        let error = scan("<x/>\n<r" + many.joined() + "/>")
        #expect(error?.line == 2 && error?.column == 1 && error?.message.contains("more than 256 attributes") == true)
    }

    @Test func utf16IsScannedByUnits() {
        let text = "<a>\n<Record v=\"\(String(repeating: "é", count: XMLLimits.maxToken))\"/></a>"
        let le = [0xFF, 0xFE] + Array(text.data(using: .utf16LittleEndian)!)
        let error = scan(le, chunk: 4097, encoding: .utf16LE)
        #expect(error?.line == 2 && error?.column == 1, "\(String(describing: error))")
        #expect(XMLEncoding.detect([0xFE, 0xFF, 0, 0x3C]) == .utf16BE && XMLEncoding.detect(Array("<a".utf8)) == .utf8)
    }
}
