extension Duration {
    /// The duration in seconds, as a Double.
    @inlinable public var inSeconds: Double { self / .seconds(1) }

    /// The duration in milliseconds, as a Double.
    @inlinable public var inMilliseconds: Double { self / .milliseconds(1) }
}
