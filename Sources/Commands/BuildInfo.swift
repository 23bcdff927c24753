/// What the build says of itself.
enum BuildInfo {
    static let version = "0.2.0"
    /// The date of the version, for the man page.
    static let date = "2026-11-30"
}
