/// The shape of a progress indicator; it stays when the amount of work becomes known.
public enum ProgressStyle: String, Sendable, CaseIterable {
    /// A bar filling leading → trailing (indeterminate: a segment sliding along the track).
    case bar
    /// A circle filling clockwise from 12 o'clock (indeterminate: a spinning arc).
    case circular
    /// A thin bar along the top edge that hides the unfilled part of its track.
    case toolbar
}

/// How much of the work is done.
public enum ProgressAmount: Sendable, Hashable {
    case indeterminate
    /// Fraction done, 0...1.
    case determinate(Double)
}

/// What the progress screen shows.
public struct ProgressContent: Sendable, Hashable {
    public var amount: ProgressAmount
    public var style: ProgressStyle
    /// What is happening ("Importing health data").
    public var label: String
    /// Whether the task can be stopped (a Cancel hint is shown).
    public var cancellable: Bool
    /// What stopping costs, if anything ("The import so far is kept").
    public var cancelNote: String?
    /// Stopping was asked for and the task has not ended yet: "Cancelling…" where Cancel was.
    public var cancelling: Bool

    public init(
        amount: ProgressAmount, style: ProgressStyle = .bar, label: String = "", cancellable: Bool = false,
        cancelNote: String? = nil, cancelling: Bool = false
    ) {
        self.amount = amount
        self.style = style
        self.label = label
        self.cancellable = cancellable
        self.cancelNote = cancelNote
        self.cancelling = cancelling
    }
}
