import Platform
import Testing

@Suite("folders a command makes", .timeLimit(.minutes(10)))
struct FoldersTests {
    @Test("a scratch folder is new and its own; made again it is kept; removed with its files")
    func scratchAndRemove() throws {
        let a = try Folders.scratch("glance-test")
        let b = try Folders.scratch("glance-test")
        #expect(a != b)
        try Folders.make(a)  // there already: not an error
        try Folders.make(a + "/inner")
        let output = try OutputFile(a + "/inner/x")
        try output.write("x")
        try output.commit()
        Folders.remove(a + "/inner", files: ["x"])
        Folders.remove(a, files: [])
        Folders.remove(b, files: [])
        #expect(throws: SystemError.self) { try Folders.make(a + "/gone/deeper") }
        #expect(environmentVariable("GLANCE_SURELY_UNSET_VARIABLE") == nil)
    }
}
