import Controls
import Screens

/// When the button hint shows: at the first start with buttons (the devices there when input is
/// opened, not one plugged in later; remembered in the store's preferences, so once per store),
/// and when asked (two buttons held together, KEY_HELP); it goes after `hintSeconds` or at the
/// first input, which does nothing else.
extension DeviceState {
    /// How long the hint stays without input.
    public static let hintSeconds = 12.0
    /// The preference that says the hint was shown once.
    static let hintShownKey = "buttonHint.shown"

    /// The hint for the buttons there are now (none: no hint, e.g. only a keyboard or touch).
    func hintContent() -> (rows: [ButtonHintOverlay.Row], chord: Bool)? {
        guard let buttonHints else { return nil }
        let hints = buttonHints(router.keyMap, inputDevices.sorted { $0.key < $1.key }.map(\.value))
        let rows = hints.compactMap(Self.row)
        guard !rows.isEmpty else { return nil }
        return (rows, rows.filter { $0.hold != nil }.count >= 2)
    }

    /// Shows the hint (asked for); true when it is on the panel.
    mutating func showHint(now: Duration) -> Bool {
        guard let content = hintContent() else {
            log("help asked for, but there are no buttons to explain")
            return false
        }
        // Where the panel cannot hold every button's row legibly at once, the rows in parts, each
        // shown in turn (the hint stays long enough for each to show once).
        let parts = ButtonHintOverlay(screen: BlankScreen(), rows: content.rows, chord: content.chord, context: maker.context)
            .parts(for: router.pictureSize).count
        let seconds = max(Self.hintSeconds, Double(parts) * ButtonHintOverlay.partSeconds)
        hint = (now + .milliseconds(Int64(seconds * 1000)), content.rows, content.chord, now, parts)
        effects.append(.keep([KeptValue(Self.hintShownKey, "1")]))
        log("button hint shown")
        return true
    }

    /// The first start with buttons: the hint, once. True when it came up.
    @discardableResult
    mutating func offerFirstHint(now: Duration) -> Bool {
        guard hint == nil, data.preference(Self.hintShownKey) == nil, hintContent() != nil else { return false }
        return showHint(now: now)
    }

    /// The part of the hint's rows shown at `now` (they turn every `partSeconds`).
    func hintPart(now: Duration) -> Int {
        guard let hint, hint.parts > 1 else { return 0 }
        return Int(max(0, (now - hint.since).inSeconds) / ButtonHintOverlay.partSeconds) % hint.parts
    }

    /// When the hint's next part comes (nil: one part).
    func nextHintPart(after now: Duration) -> Duration? {
        guard let hint, hint.parts > 1 else { return nil }
        let k = (max(0, (now - hint.since).inSeconds) / ButtonHintOverlay.partSeconds).rounded(.down) + 1
        return hint.since + .milliseconds(Int64(k * ButtonHintOverlay.partSeconds * 1000))
    }

    /// The hint's row for a button (every action has its word: `ButtonHintTests`).
    static func row(_ hint: KeyHint) -> ButtonHintOverlay.Row? {
        guard let press = ButtonHintOverlay.Verb(rawValue: hint.press.rawValue) else { return nil }
        let symbol: ButtonHintOverlay.Symbol
        switch hint.symbol {
        case .left: symbol = .left
        case .right: symbol = .right
        case .up: symbol = .up
        case .down: symbol = .down
        case .select: symbol = .select
        case .label(let text): symbol = .label(text)
        }
        return ButtonHintOverlay.Row(
            symbol: symbol, press: press, hold: hint.hold.flatMap { ButtonHintOverlay.Verb(rawValue: $0.rawValue) })
    }
}
