import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 41's page in a real browser: Debian's Chromium (headless, through chromedriver) against a
/// real `glance web` and a real `glance watch` panel. It signs in through the one-time link,
/// changes the screen and sees the live view change (the image the page shows byte-equal to
/// `glance screenshot`), sees a change made elsewhere reach the live view without a reload, adds a
/// gauge and sees it on the panel, edits the schedule, does the same without script, and takes
/// screenshots of every page at a phone's and a desktop's width, in English and Chinese, into
/// .build/web-pages (looked at).
@Suite(
    "glance web in Debian's Chromium: sign-in, live view, a gauge, the schedule, every page's picture", .serialized,
    .enabled(if: Browser.runs, Browser.skipped), .timeLimit(.minutes(10)))
struct WebBrowserTests {
    typealias Page = WebPageTests.Page

    static let shots = Repository.root + "/.build/web-pages"

    /// The frame the page shows now, by its ETag: the live image's `data-etag`, which the page
    /// sets with the image it shows (the first from the page, each later one with the PNG its
    /// script swapped in). glance web's ETag is the FNV-1a of the PNG's bytes (`etag(of:)`), so
    /// equal ETags are equal bytes. (The page's own policy keeps a test's script from reading the
    /// image's blob back: connect-src has no blob:.)
    static func shownFrame(_ browser: Browser) throws -> String {
        try #require(try browser.find("#live").attribute("data-etag"), "no live image on the page")
    }

    /// glance web's ETag of PNG bytes.
    static func etag(of data: Data) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in data { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        let hex = String(h, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// The ETag of the panel's frame now (`glance screenshot`).
    static func panelFrame(_ page: Page) throws -> String { etag(of: try page.screenshot()) }

    /// Clicks the button `selector` and waits for the page its form's answer leads to.
    static func press(_ browser: Browser, _ selector: String) throws {
        let button = try browser.find(selector)
        try browser.waitForNewPage("press \(selector)") { try button.click() }
    }

    /// The end of the page's source, for a message.
    static func said(_ browser: Browser, _ count: Int) -> String { (try? browser.source()).map { String($0.suffix(count)) } ?? "" }

    static func state(_ page: Page) -> String { (try? page.state()) ?? "" }

    /// Waits (at most `seconds`) until `condition` holds.
    static func until(_ seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if try condition() { return true }
            usleep(100_000)
        }
        return try condition()
    }

    @Test("signed in by the link: the screen changed from the page, the live view follows, equal to glance screenshot; a gauge added and shown; the schedule edited")
    func signInLiveViewGaugeSchedule() throws {
        let page = try Page(config: Page.file(screens: "[\"rings\", \"clock\", \"gauges\"]"))
        defer { page.finish() }
        try withBrowser(script: true, size: .phone) { browser in
            // The one-time link signs in: the page, and a cookie script cannot read that no other
            // site's request carries.
            try browser.navigate(try page.newLink().link)
            #expect(try browser.currentURL() == page.origin + "/")
            let cookie = try #require(try browser.cookie("glance_session"), "no session cookie")
            page.secrets.append(cookie.value)
            #expect(cookie.httpOnly && cookie.sameSite == "Strict", "\(cookie)")
            #expect(try browser.eval("return document.cookie") as? String == "", "script reads the session")
            #expect(try browser.text("h1") == "What the panel shows")
            // curl, a second client with its own session, asks the state and sends a change.
            try page.signIn()

            // The live view is the glass: byte-equal to glance screenshot.
            // (the panel may still be drawing its intro: its script follows it)
            let settled = try Self.until(15) { try Self.shownFrame(browser) == (try Self.panelFrame(page)) }
            #expect(settled, "the live view is not the panel's frame")
            let first = try Self.shownFrame(browser)

            // The screen changed with the page's own control: the state, and the live view with it.
            try browser.find("select#screen").click()
            try browser.find("select#screen option[value=clock]").click()
            try Self.press(browser, "button[value=show]")
            let after = try browser.currentURL()
            #expect(after == page.origin + "/", "\(after): \(Self.said(browser, 600)); \(page.webLog.suffix(600))")
            #expect(try page.state().contains("screen=clock"), "\(Self.state(page))")
            // (the page after the Show may come before the panel's new frame: its script follows)
            let clockShown = try Self.until(10) {
                let shown = try Self.shownFrame(browser)
                let panel = try Self.panelFrame(page)
                return shown != first && shown == panel
            }
            let clock = try Self.shownFrame(browser)
            #expect(clockShown, "the live view did not change to the panel's frame with the screen")

            // A change made elsewhere (the next screen, from another client) reaches the live view
            // without a reload: the page's script asks for the frame every second.
            let before = try Self.shownFrame(browser)
            let other = try page.curl("POST", "/do", form: [("csrf", try page.csrfForCurl()), ("action", "next")], headers: ["Origin: \(page.origin)"])
            #expect(other.status == 303, "\(other)")
            let followed = try Self.until(15) { try Self.shownFrame(browser) != before }
            #expect(followed, "the live view did not follow a change made elsewhere within 15 s")
            _ = Self.until(10) { (try? Self.shownFrame(browser)) == (try? Self.panelFrame(page)) }
            #expect(try Self.shownFrame(browser) == (try Self.panelFrame(page)), "the live view is behind the panel")
            #expect(try browser.text("#state").contains("screen=rings"), "the state line did not follow")

            // A gauge added from the page's form, then shown: on the glass.
            try browser.navigate(page.origin + "/gauges")
            try browser.fill("#new-title", "Shed")
            try browser.fill("#new-unit", "°C")
            try browser.fill("#new-source", "{\"metric\": \"shed\"}")
            try browser.fill("#new-max", "40")
            try Self.press(browser, "button[value=add]")
            #expect(try browser.currentURL() == page.origin + "/gauges", "\(Self.said(browser, 800))")
            #expect(try browser.source().contains("Saved"), "no saved notice: \(Self.said(browser, 800))")
            let file = String(decoding: page.fileBytes() ?? Data(), as: UTF8.self)
            #expect(file.contains("\"title\": \"Shed\"") && file.contains("\"metric\": \"shed\""), "\(file)")
            try browser.navigate(page.origin + "/")
            try browser.find("select#screen option[value=gauges]").click()
            try Self.press(browser, "button[value=show]")
            #expect(try page.state().contains("screen=gauges"), "\(Self.state(page))")
            let gaugeShown = try Self.until(10) {
                let shown = try Self.shownFrame(browser)
                let panel = try Self.panelFrame(page)
                return shown != clock && shown != first && shown == panel
            }
            #expect(gaugeShown, "the live view did not change to the panel's frame with the gauge")

            // The schedule edited: the window saved, checked and read by the panel.
            try browser.navigate(page.origin + "/schedule")
            try browser.fill("#f-schedule", "[{\"from\": \"23:00\", \"to\": \"06:30\", \"brightness\": 10}]")
            try Self.press(browser, "button[value=save]")
            #expect(try browser.source().contains("Saved"), "no saved notice: \(Self.said(browser, 800))")
            let saved = String(decoding: page.fileBytes() ?? Data(), as: UTF8.self)
            #expect(saved.contains("\"from\": \"23:00\"") && saved.contains("\"to\": \"06:30\""), "\(saved)")
            #expect(page.panelLog.contains("reloaded"), "the panel did not read it again: \(page.panelLog.suffix(400))")

            // A refused value is said at its field, and nothing is written.
            try browser.fill("#f-schedule", "[{\"from\": \"25:00\", \"to\": \"06:30\"}]")
            try Self.press(browser, "button[value=save]")
            #expect(try browser.findAll("[aria-invalid=true]").count == 1, "the field is not marked")
            #expect(String(decoding: page.fileBytes() ?? Data(), as: UTF8.self) == saved, "a refused schedule was written")
        }
    }

    @Test("without script every control is a form that works: sign in, show a screen, save a setting")
    func withoutScript() throws {
        let page = try Page()
        defer { page.finish() }
        try page.signIn()
        try withBrowser(script: false, size: .phone) { browser in
            try browser.navigate(try page.newLink().link)
            if let cookie = try browser.cookie("glance_session") { page.secrets.append(cookie.value) }
            try browser.find("select#screen option[value=clock]").click()
            try Self.press(browser, "button[value=show]")
            #expect(try page.state().contains("screen=clock"), "\(Self.state(page))")
            // The live image is the frame the page was made with (no script swaps it).
            #expect(try browser.find("#live").attribute("data-etag") != nil)
            try browser.navigate(page.origin + "/settings")
            try browser.fill("#f-name", "Hall")
            try Self.press(browser, "button[value=save]")
            #expect(try browser.source().contains("Saved"), "\(Self.said(browser, 600))")
            #expect(String(decoding: page.fileBytes() ?? Data(), as: UTF8.self).contains("\"name\":   \"Hall\""))
        }
    }

    @Test("every page at a phone's and a desktop's width, in English and Chinese: pictures to look at, no control unlabelled, nothing wider than the phone")
    func everyPagesPicture() throws {
        let page = try Page()
        defer { page.finish() }
        try? FileManager.default.removeItem(atPath: Self.shots)
        try FileManager.default.createDirectory(atPath: Self.shots, withIntermediateDirectories: true)
        let paths = [
            ("now", "/"), ("settings", "/settings"), ("settings-display", "/settings?group=display"), ("gauges", "/gauges"),
            ("schedule", "/schedule"), ("goals", "/goals"), ("people", "/people"), ("log", "/log"), ("about", "/about"),
        ]
        try withBrowser(script: true, size: .phone) { browser in
            try browser.navigate(try page.newLink().link)
            if let cookie = try browser.cookie("glance_session") { page.secrets.append(cookie.value) }
            for language in ["en", "zh-Hans"] {
                try browser.navigate(page.origin + "/language?to=\(language)")
                for (size, sizeName) in [(Browser.Size.phone, "phone"), (Browser.Size.desktop, "desktop")] {
                    try browser.setWindowSize(size)
                    for (name, path) in paths {
                        try browser.navigate(page.origin + path)
                        #expect(try browser.eval("return document.documentElement.lang") as? String == language, "\(path)")
                        // Every control has a label a screen reader reads.
                        let unlabelled = try browser.eval(
                            """
                            return Array.from(document.querySelectorAll('input:not([type=hidden]), select, textarea'))
                              .filter(function (e) { return !(e.labels && e.labels.length); }).map(function (e) { return e.id || e.name; });
                            """) as? [Any]
                        #expect(unlabelled?.isEmpty == true, "\(path) (\(language)): unlabelled \(unlabelled ?? [])")
                        if sizeName == "phone" {
                            let wide = try browser.eval("return document.documentElement.scrollWidth") as? Int
                            let past = try browser.eval(
                                """
                                return Array.from(document.querySelectorAll('body *')).filter(function (e) {
                                  return e.getBoundingClientRect().right > window.innerWidth + 0.5; })
                                  .slice(0, 4).map(function (e) { return e.tagName + '#' + e.id + '.' + e.className; });
                                """) as? [Any]
                            #expect(
                                (wide ?? 9999) <= size.width,
                                "\(path) (\(language)) is \(wide ?? -1) px wide on a \(size.width) px phone: \(past ?? [])")
                        }
                        try browser.screenshot(to: "\(Self.shots)/\(name)-\(language)-\(sizeName).png", fullPage: true)
                    }
                }
            }
        }
        print("browser: the pages' pictures are in \(Self.shots)")
    }
}

extension WebPageTests.Page {
    /// A CSRF token for curl's own session (signed in first when it has none).
    func csrfForCurl() throws -> String {
        if sessionCookie() == nil { try signIn() }
        return try csrf()
    }
}
