import Testing

@testable import Activity

/// Issue 24, C2: a stored time of 2^63 - 1 or -2^63 trapped the gauge screen. One conversion
/// takes any Int64 into the years 1 to 9999, and any age into whole seconds, without trapping.
@Suite("Stored times", .timeLimit(.minutes(10)))
struct StoredTimeTests {
    @Test("any Int64 is a moment within the years 1 to 9999; any age whole seconds")
    func conversions() {
        #expect(StoredTime.seconds(Int64.max) == StoredTime.latest)
        #expect(StoredTime.seconds(Int64.min) == StoredTime.earliest)
        #expect(StoredTime.seconds(1_764_547_200) == 1_764_547_200)
        let span = Int(StoredTime.latest - StoredTime.earliest)
        #expect(StoredTime.whole(.infinity) == span && StoredTime.whole(-.infinity) == -span)
        #expect(StoredTime.whole(.nan) == 0 && StoredTime.whole(9.3e18) == span && StoredTime.whole(59.9) == 59)
        // An age from the clock to the earliest moment, in milliseconds, fits an Int64.
        #expect(Int64(exactly: (StoredTime.latest - StoredTime.earliest) * 1000) != nil)
    }
}
