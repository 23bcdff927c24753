/// The outline of the panel's visible area.
public enum PanelShape: String, Sendable, CaseIterable {
    case rectangle
    /// A round panel: only the inscribed circle is visible.
    case round
}
