// Fuzz target: bytes as an export.xml, through the XML importer (XMLLimits, libxml2's SAX2 push
// parser, the ActivitySummary fields, the day collector) into a real SQLite store, rolled back.
@testable import Store

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    FuzzStore.importRolledBack(format: .xml, Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
