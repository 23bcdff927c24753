import Testing

@testable import Store

@Suite(.timeLimit(.minutes(10))) struct GaugeSourceTests {
    @Test(
        arguments: [
            ("45000\n", 0.001, 45.0 as Double?), ("  21.5 ", 1, 21.5), ("-3", 2, -6), ("1e3", 1, 1000),
            ("", 1, nil), ("abc", 1, nil), ("nan", 1, nil), ("inf", 1, nil), ("12 13", 1, nil),
        ] as [(String, Double, Double?)])
    func numbersInFiles(text: String, scale: Double, expected: Double?) {
        #expect(GaugeSource.number(from: text, scale: scale) == expected)
    }

    @Test func fileSourcesRefreshOnTheirIntervalAndMetricsOnStoreChanges() {
        let file = GaugeSource.file(path: "/x", scale: 1, interval: .seconds(2))
        let t0 = Duration.seconds(1000)
        #expect(file.isDue(lastRead: nil, now: t0, storeChanged: false))
        #expect(!file.isDue(lastRead: t0, now: t0 + .milliseconds(1999), storeChanged: true))
        #expect(file.isDue(lastRead: t0, now: t0 + .seconds(2), storeChanged: false))
        #expect(file.nextRefresh(lastRead: t0, now: t0 + .seconds(1)) == t0 + .seconds(2))

        let metric = GaugeSource.metric(name: "cpu")
        #expect(metric.isDue(lastRead: nil, now: t0, storeChanged: false))
        #expect(!metric.isDue(lastRead: t0, now: t0 + .seconds(3600), storeChanged: false))
        #expect(metric.isDue(lastRead: t0, now: t0, storeChanged: true))
        #expect(metric.nextRefresh(lastRead: t0, now: t0) == nil)
    }

    @Test func readingAFileAndAMetric() throws {
        let scratch = Scratch()
        let path = scratch.write("temp", "47250\n")
        #expect(GaugeSource.file(path: path, scale: 0.001, interval: .seconds(1)).read(store: nil).value == 47.25)
        let missing = GaugeSource.file(path: scratch.file("nope"), scale: 1, interval: .seconds(1)).read(store: nil)
        #expect(missing.value == nil && missing.problem?.contains("No such file") == true)
        scratch.write("junk", "hot\n")
        #expect(
            GaugeSource.file(path: scratch.file("junk"), scale: 1, interval: .seconds(1)).read(store: nil).problem
                != nil)

        let store = try Store(path: scratch.db)
        #expect(GaugeSource.metric(name: "cpu").read(store: store).problem?.contains("no metric cpu") == true)
        try store.setMetric("cpu", value: 61, minimum: .set(20), maximum: .set(90), unit: .set("°C"))
        let reading = GaugeSource.metric(name: "cpu").read(store: store)
        #expect(reading.value == 61 && reading.minimum == 20 && reading.maximum == 90 && reading.unit == "°C")
        // (read first: Swift 6.0 refuses a `try` on the right of == inside #expect)
        let set = try store.metric(named: "cpu")
        #expect(reading.updated == set?.updated, "when it was set, for staleness")
    }
}
