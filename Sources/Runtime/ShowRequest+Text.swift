import Configuration

extension ShowRequest {
    /// Whether the screen draws text (and so needs fonts): the one rule, for the settings
    /// (`Settings.needsText`) and the bench.
    package var needsText: Bool { !(ringsOnly && (screen ?? .rings) == .rings) }
}
