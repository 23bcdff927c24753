// Fuzz target: bytes as a configuration file's text, through the strict JSON reader and the
// configuration checker (every setting, every error's path).
import Configuration

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    // glance reads a configuration only when it is UTF-8 (ConfigurationFile); the rest is refused.
    guard let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self) else { return 0 }
    _ = Configuration.parse(text)
    return 0
}
