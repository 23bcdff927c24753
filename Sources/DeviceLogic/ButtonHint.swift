import Controls
import Screens

/// When the button hint shows: at the first start with buttons (the devices there when input is
/// opened, not one plugged in later; remembered in the store's preferences, so once per store),
/// and when asked (two buttons held together, KEY_HELP); it goes after `hintSeconds` or at the
/// first input, which does nothing else.
extension DeviceController {
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
    func showHint(now: Duration) -> Bool {
        guard let content = hintContent() else {
            log("help asked for, but there are no buttons to explain")
            return false
        }
        hint = (now + .milliseconds(Int64(Self.hintSeconds * 1000)), content.rows, content.chord)
        data.keep([(Self.hintShownKey, "1")])
        log("button hint shown")
        return true
    }

    /// The first start with buttons: the hint, once. True when it came up.
    @discardableResult
    func offerFirstHint(now: Duration) -> Bool {
        guard hint == nil, data.preference(Self.hintShownKey) == nil, hintContent() != nil else { return false }
        return showHint(now: now)
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
