// Fuzz target: bytes as the CSV form of Activity summaries, through the CSV importer into a real
// SQLite store, rolled back.
@testable import Store

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    FuzzStore.importRolledBack(format: .csv, Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
