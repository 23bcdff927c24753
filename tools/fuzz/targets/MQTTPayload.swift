// Fuzz target: bytes as a message from the home: an MQTT payload (with a dotted field to pick
// from JSON when the input's first line, up to 64 bytes, names one) and a command's output.
import Feeds

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var payload = bytes[...]
    var field: String?
    if let newline = bytes.prefix(65).firstIndex(of: 10) {
        field = String(decoding: bytes[..<newline], as: UTF8.self)
        payload = bytes[(newline + 1)...]
    }
    _ = Payload.number(Array(payload), field: field)
    _ = Payload.number(Array(payload), field: nil)
    _ = Payload.firstNumber(in: Substring(String(decoding: payload, as: UTF8.self)))
    return 0
}
