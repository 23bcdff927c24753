/// What the build says of itself.
enum BuildInfo {
    static let version = "0.2.0"
}
