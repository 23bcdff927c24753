// Fuzz target: bytes as a datagram on the panel's control socket (glance mqtt's commands, glance
// screenshot, glance message) and as the state line the panel answers with. Properties checked: a
// request is taken only within 64 bytes (and a trailing newline), a message within its own limit
// (255 bytes of text) and without a control character but the line feed, and its text reads back
// as the same request; a refusal's reason, as answered, holds no control character; a state taken
// reads back as the same state from its own text; a watcher's dismissal line reads back.
import Activity
import Controls

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    switch PanelRequest.parse(bytes) {
    case .success(.message(let message)):
        precondition(bytes.count <= PanelMessage.maximumRequestBytes, "a message request longer than its limit taken")
        precondition(message.text.utf8.count <= PanelMessage.maximumBytes, "a message longer than its limit taken")
        precondition(
            !message.text.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" },
            "a control character taken in a message")
        precondition((try? PanelRequest.parse(Array(message.request.utf8)).get()) == .message(message), "a message that does not read back")
    case .success(let request):
        precondition(bytes.count <= PanelRequest.maximumBytes + 1, "a request longer than the limit taken")
        precondition((try? PanelRequest.parse(Array(request.text.utf8)).get()) == request, "a request that does not read back")
    case .failure(let refusal):
        precondition(!refusal.reason.unicodeScalars.contains(where: Quote.isControl), "a control character answered")
    }
    if let end = MessageEnd(line: String(decoding: bytes, as: UTF8.self)) {
        precondition(MessageEnd(line: end.line) == end, "a dismissal that does not read back")
    }
    if let state = PanelState(text: String(decoding: bytes, as: UTF8.self)) {
        precondition(PanelState(text: state.text) == state, "a state that does not read back")
    }
    return 0
}
