import CBuildInfo

/// What the build says of itself.
public enum BuildInfo {
    /// The version (Sources/CBuildInfo: its base version, or what the build gave, e.g. the
    /// package's "0.2.0+git812.4d3e922" from tools/build-deb.sh).
    public static let version = String(cString: glance_version())
    /// The date of the version, for the man page.
    public static let date = "2026-11-30"
}
