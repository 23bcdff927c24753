import Activity

extension Store {
    /// `day` as the panel shows it (`shownSummary`: its own figures, its samples' sums, the
    /// standing goals in force or `defaults`), and for a day with nothing yet the goals alone, so
    /// a reader outside the panel (Home Assistant's today/state) has the goals the rings are
    /// measured against before the first figure comes.
    public func shownToday(_ day: CalendarDay, defaults: Goals = Goals()) throws(StoreError) -> ActivitySummary {
        if let shown = try shownSummary(for: day, defaults: defaults) { return shown }
        var summary = ActivitySummary()
        (Self.goals(on: day, in: try goalHistory()) ?? Goals()).over(defaults).fill(&summary)
        return summary
    }
}
