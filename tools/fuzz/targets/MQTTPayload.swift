// Fuzz target: bytes as a message from the home: an MQTT payload (with a dotted field to pick
// from JSON when the input's first line, up to 64 bytes, names one) and a command's output, then
// scaled as a gauge scales it (scale and offset from the input's first 16 bytes, any Double:
// infinite, NaN, 1e308). Properties checked: a scaled value taken is finite and within
// GaugeValue.limit; a problem's message, as logged, holds no control character.
import Activity
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
    func double(_ at: Int) -> Double {
        guard bytes.count >= at + 8 else { return 1 }
        var bits: UInt64 = 0
        for b in bytes[at..<(at + 8)] { bits = bits << 8 | UInt64(b) }
        return Double(bitPattern: bits)
    }
    let scale = double(0), offset = double(8)
    for result in [Payload.number(Array(payload), field: field), Payload.number(Array(payload), field: nil)] {
        switch result {
        case .success(let x):
            for (s, o) in [(scale, offset), (10, 0), (1, 0)] {
                if let y = GaugeValue.scaled(x, scale: s, offset: o) {
                    precondition(y.isFinite && abs(y) <= GaugeValue.limit, "a scaled value out of range taken")
                }
            }
        case .failure(let problem):
            precondition(!Quote.logLine(problem.message).unicodeScalars.contains(where: Quote.isControl), "a control character logged")
        }
    }
    if let x = Payload.firstNumber(in: Substring(String(decoding: payload, as: UTF8.self))) {
        _ = GaugeValue.scaled(x, scale: scale, offset: offset)
    }
    return 0
}
