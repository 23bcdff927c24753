// Fuzz target: bytes as a datagram on the panel's control socket (glance mqtt's commands, glance
// screenshot) and as the state line the panel answers with. Properties checked: a request is
// taken only within 64 bytes (and a trailing newline) and its text reads back as the same
// request; a refusal's reason, as answered, holds no control character; a state taken reads
// back as the same state from its own text.
import Activity
import Controls

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    switch PanelRequest.parse(bytes) {
    case .success(let request):
        precondition(bytes.count <= PanelRequest.maximumBytes + 1, "a request longer than the limit taken")
        precondition((try? PanelRequest.parse(Array(request.text.utf8)).get()) == request, "a request that does not read back")
    case .failure(let refusal):
        precondition(!refusal.reason.unicodeScalars.contains(where: Quote.isControl), "a control character answered")
    }
    if let state = PanelState(text: String(decoding: bytes, as: UTF8.self)) {
        precondition(PanelState(text: state.text) == state, "a state that does not read back")
    }
    return 0
}
