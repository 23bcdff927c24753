import CDeferred
import Testing

/// The stubs of the libraries opened on first use (Sources/CDeferred) are made from one list
/// (stubs.def); each is resolved here by its name in the installed library, so a function the
/// library does not have (a rename, a typo, a version too old) fails a test, not a panel.
@Suite("The deferred libraries' stubs, each resolved by name", .timeLimit(.minutes(10)))
struct DeferredStubTests {
    @Test("every stub of the list names a function of its library")
    func everyStubResolves() {
        let count = glance_deferred_stub_count()
        #expect(count >= 10, "the list has the fontconfig functions Text calls: \(count)")
        var names: Set<String> = []
        for i in 0..<count {
            var library = GLANCE_DEFERRED_COUNT
            guard let name = glance_deferred_stub_name(i, &library) else {
                Issue.record("no name for stub \(i)")
                continue
            }
            let text = String(cString: name)
            #expect(names.insert(text).inserted, "\(text) twice in the list")
            #expect(library.rawValue < GLANCE_DEFERRED_COUNT.rawValue, "\(text): no library")
            var error: UnsafePointer<CChar>?
            let symbol = glance_deferred_lookup(library, name, &error)
            #expect(symbol != nil, "\(text) not in \(String(cString: glance_deferred_soname(library))): \(error.map { String(cString: $0) } ?? "")")
        }
        #expect(glance_deferred_stub_name(count, nil) == nil, "past the end: nothing")
    }

    @Test("a name the library does not have is found missing, with the loader's reason, without ending the process")
    func aMissingNameIsFoundMissing() {
        var error: UnsafePointer<CChar>?
        #expect(glance_deferred_lookup(GLANCE_DEFERRED_FONTCONFIG, "FcNoSuchFunction", &error) == nil)
        #expect(error.map { String(cString: $0).contains("FcNoSuchFunction") } == true)
    }
}
