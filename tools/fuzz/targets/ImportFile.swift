// Fuzz target: bytes as a file given to glance import: the format told from the first bytes, a
// zip opened by libarchive, then the XML or CSV importer, into a real SQLite store, rolled back.
@testable import Store
import HealthExport

#if canImport(Glibc)
    import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = FuzzStore.folder + "/input"
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    precondition(fd >= 0, "cannot write \(path)")
    var written = 0
    while written < size {
        let n = write(fd, data + written, size - written)
        precondition(n > 0, "cannot write \(path)")
        written += n
    }
    close(fd)
    FuzzStore.rolledBack { store throws(StoreError) in
        var options = ImportOptions()
        options.taskName = nil
        _ = try HealthImport.run(path, into: store, options: options)
    }
    return 0
}
