import CDRM
import Raster
import Testing

@testable import Display

/// A card like a Raspberry Pi with HDMI unplugged and the DSI panel connected.
private func piCard(dsiModes: [DisplayMode]? = nil) -> CardSnapshot {
    let hdmi = Connector(id: 30, name: "HDMI-A-1", status: .disconnected, modes: [], possibleCRTCIndexes: [0, 1])
    let dsi = Connector(
        id: 40, name: "DSI-1", status: .connected,
        modes: dsiModes ?? [
            DisplayMode(width: 800, height: 480, refreshMillihertz: 60_065, isPreferred: true, index: 0)
        ],
        possibleCRTCIndexes: [1])
    return CardSnapshot(
        path: "/dev/dri/card1", connectors: [hdmi, dsi],
        crtcs: [CRTC(id: 100, index: 0), CRTC(id: 101, index: 1)],
        planes: [
            Plane(id: 200, kind: .primary, possibleCRTCs: 0b01, formats: [PixelFormat.xrgb8888.fourCC]),
            Plane(id: 201, kind: .cursor, possibleCRTCs: 0b10, formats: [PixelFormat.xrgb8888.fourCC]),
            Plane(
                id: 202, kind: .primary, possibleCRTCs: 0b10,
                formats: [PixelFormat.rgb565.fourCC, PixelFormat.xrgb8888.fourCC]),
        ])
}

private let monitorModes = [
    DisplayMode(width: 1024, height: 768, refreshMillihertz: 60_004, index: 0),
    DisplayMode(width: 1920, height: 1080, refreshMillihertz: 50_000, index: 1),
    DisplayMode(width: 1920, height: 1080, refreshMillihertz: 60_000, index: 2),
    DisplayMode(width: 1280, height: 720, refreshMillihertz: 60_000, isPreferred: true, index: 3),
    DisplayMode(width: 1920, height: 1080, refreshMillihertz: 59_940, index: 4),
]

private let monitor = Connector(
    id: 1, name: "HDMI-A-1", status: .connected, modes: monitorModes, possibleCRTCIndexes: [0])

@Suite(.timeLimit(.minutes(10))) struct ConnectorChoiceTests {
    @Test func firstConnectedConnectorWithoutARequest() throws {
        let plan = try OutputPlan.choose(in: piCard(), for: OutputRequest())
        #expect(plan.connector.name == "DSI-1")
        #expect(plan.crtc.id == 101)
        #expect(plan.plane?.id == 202)
    }

    @Test(arguments: ["DSI-1", "dsi-1"])
    func namedConnectorIgnoresCase(_ name: String) throws {
        #expect(try OutputPlan.chooseConnector(piCard().connectors, named: name).id == 40)
    }

    @Test func unknownConnectorListsTheAvailableOnes() {
        #expect {
            try OutputPlan.choose(in: piCard(), for: OutputRequest(connector: "HDMI-A-2"))
        } throws: { error in
            let text = "\(error)"
            return text.contains("'HDMI-A-2'") && text.contains("HDMI-A-1 (disconnected)")
                && text.contains("DSI-1 (connected)")
        }
    }

    @Test func disconnectedConnectorWithoutModesSaysSo() {
        #expect {
            try OutputPlan.choose(in: piCard(), for: OutputRequest(connector: "HDMI-A-1"))
        } throws: { error in
            "\(error)".contains("HDMI-A-1 is disconnected")
        }
    }

    @Test func noConnectedConnector() {
        var card = piCard()
        card.connectors[1].status = .disconnected
        card.connectors[1].modes = []
        #expect {
            try OutputPlan.choose(in: card, for: OutputRequest())
        } throws: { error in
            "\(error)".hasPrefix("no connected display; connectors: HDMI-A-1 (disconnected), DSI-1 (disconnected)")
        }
    }

    @Test func connectorNamesFollowTheKernel() {
        #expect(Connector.name(type: 11, typeID: 1) == "HDMI-A-1")
        #expect(Connector.name(type: 16, typeID: 1) == "DSI-1")
        #expect(Connector.name(type: 15, typeID: 1) == "Virtual-1")
        #expect(Connector.name(type: 17, typeID: 2) == "DPI-2")
        #expect(Connector.name(type: 19, typeID: 1) == "SPI-1")
        #expect(Connector.name(type: 99, typeID: 3) == "Unknown-3")
    }
}

@Suite(.timeLimit(.minutes(10))) struct ModeChoiceTests {
    @Test func preferredModeWithoutARequest() throws {
        let mode = try OutputPlan.chooseMode(monitor, request: nil)
        #expect(mode.index == 3)
    }

    @Test func largestModeWhenNoneIsPreferred() throws {
        var c = monitor
        c.modes[3].isPreferred = false
        // 1920x1080 at 60 Hz beats 59.94 and 50 Hz.
        #expect(try OutputPlan.chooseMode(c, request: nil).index == 2)
    }

    @Test func requestedSizeTakesTheBestRefresh() throws {
        let mode = try OutputPlan.chooseMode(monitor, request: ModeRequest(parsing: "1920x1080"))
        #expect(mode.index == 2)
    }

    @Test func requestedRefreshIsMatchedInWholeHertz() throws {
        #expect(try OutputPlan.chooseMode(monitor, request: ModeRequest(parsing: "1920x1080@50")).index == 1)
        // 59.94 and 60.00 both round to 60: the exact 60 wins (higher refresh).
        #expect(try OutputPlan.chooseMode(monitor, request: ModeRequest(parsing: "1920x1080@60")).index == 2)
    }

    @Test func aRefreshWithDecimalsTakesThatRateOnly() throws {
        // The configuration's "1920x1080@59.94" is the 59.94 Hz mode, not replaced by another.
        #expect(try OutputPlan.chooseMode(monitor, request: ModeRequest(parsing: "1920x1080@59.94")).index == 4)
        #expect(throws: DisplayError.self) { try OutputPlan.chooseMode(monitor, request: ModeRequest(parsing: "1920x1080@59.95")) }
    }

    @Test func missingModeListsTheAvailableOnesOnce() {
        #expect {
            try OutputPlan.chooseMode(monitor, request: ModeRequest(parsing: "800x480"))
        } throws: { error in
            "\(error)" == "--mode '800x480': HDMI-A-1 has no such mode; available: 1024x768@60, 1920x1080@50, "
                + "1920x1080@60, 1280x720@60 (preferred)"
        }
    }

    @Test(arguments: [
        ("480x480", ModeRequest(width: 480, height: 480)),
        ("720x1280@60", ModeRequest(width: 720, height: 1280, refreshHz: 60)),
    ])
    func modeRequestsParse(_ text: String, _ expected: ModeRequest) {
        #expect(ModeRequest(parsing: text) == expected)
        #expect(ModeRequest(parsing: text)?.description == text)
    }

    @Test(arguments: ["", "480", "480x", "x480", "0x480", "480x480@", "480x480@0", "480x480@60@1", "480*480", "-1x5"])
    func badModeRequestsDoNotParse(_ text: String) {
        #expect(ModeRequest(parsing: text) == nil)
    }

    @Test func refreshFromTimings() {
        // CEA 1080p60: 148.5 MHz, 2200 x 1125.
        #expect(
            DisplayMode.refreshMillihertz(clockKilohertz: 148_500, horizontalTotal: 2200, verticalTotal: 1125) == 60_000
        )
        // 1080p59.94: 148.352 MHz.
        #expect(
            DisplayMode.refreshMillihertz(clockKilohertz: 148_352, horizontalTotal: 2200, verticalTotal: 1125) == 59_940
        )
        #expect(
            DisplayMode.refreshMillihertz(
                clockKilohertz: 74_250, horizontalTotal: 2200, verticalTotal: 1125, interlaced: true)
                == 60_000)
        #expect(DisplayMode.refreshMillihertz(clockKilohertz: 1, horizontalTotal: 0, verticalTotal: 0) == 0)
    }
}

@Suite(.timeLimit(.minutes(10))) struct KernelModeTests {
    /// A kernel record told apart by its clock.
    static func record(clock: UInt32) -> KernelMode {
        var info = drmModeModeInfo()
        info.clock = clock
        return KernelMode(info)
    }

    @Test func thePlanCarriesTheKernelRecordOfTheChosenMode() throws {
        var card = piCard(dsiModes: monitorModes)
        card.connectors[1].kernelModes = (0..<monitorModes.count).map { Self.record(clock: 1000 + UInt32($0)) }
        let preferred = try OutputPlan.choose(in: card, for: OutputRequest())
        #expect(preferred.mode.index == 3 && preferred.kernelMode?.info.clock == 1003)
        let requested = try OutputPlan.choose(in: card, for: OutputRequest(mode: ModeRequest(parsing: "1920x1080@50")))
        #expect(requested.mode.index == 1 && requested.kernelMode?.info.clock == 1001)
    }

    @Test func noRecordWhenTheSnapshotHasNone() throws {
        #expect(try OutputPlan.choose(in: piCard(), for: OutputRequest()).kernelMode == nil)
        var card = piCard(dsiModes: monitorModes)
        card.connectors[1].kernelModes = [Self.record(clock: 1)]  // fewer records than modes
        #expect(try OutputPlan.choose(in: card, for: OutputRequest()).kernelMode == nil)
    }
}

@Suite(.timeLimit(.minutes(10))) struct CRTCAndPlaneChoiceTests {
    @Test func currentCRTCIsKept() {
        var c = monitor
        c.possibleCRTCIndexes = [0, 1]
        c.currentCRTC = 101
        let crtcs = [CRTC(id: 100, index: 0), CRTC(id: 101, index: 1)]
        #expect(OutputPlan.chooseCRTC(for: c, among: crtcs)?.id == 101)
        c.currentCRTC = nil
        #expect(OutputPlan.chooseCRTC(for: c, among: crtcs)?.id == 100)
    }

    @Test func aFreeCRTCBeforeOneDrivingAnotherDisplay() {
        var c = monitor
        c.possibleCRTCIndexes = [0, 1]
        c.currentCRTC = nil
        let busy = CRTC(id: 100, index: 0, mode: monitor.modes.first, framebuffer: 42)
        #expect(OutputPlan.chooseCRTC(for: c, among: [busy, CRTC(id: 101, index: 1)])?.id == 101)
        #expect(OutputPlan.chooseCRTC(for: c, among: [busy])?.id == 100, "taken only when none is free")
    }

    @Test func noPossibleCRTC() {
        var card = piCard()
        card.connectors[1].possibleCRTCIndexes = [5]
        #expect {
            try OutputPlan.choose(in: card, for: OutputRequest())
        } throws: { error in
            "\(error)" == "connector DSI-1: no CRTC can drive it"
        }
    }

    @Test func primaryPlaneOfTheCRTC() {
        let planes = piCard().planes
        #expect(OutputPlan.choosePrimaryPlane(planes, crtcIndex: 0)?.id == 200)
        #expect(OutputPlan.choosePrimaryPlane(planes, crtcIndex: 1)?.id == 202)
        #expect(OutputPlan.choosePrimaryPlane(planes, crtcIndex: 2) == nil)
    }
}

@Suite(.timeLimit(.minutes(10))) struct FormatChoiceTests {
    let xr24 = PixelFormat.xrgb8888.fourCC, rg16 = PixelFormat.rgb565.fourCC
    let ar24: UInt32 = 0x3432_5241

    @Test func xrgbWhereOffered() throws {
        #expect(try OutputPlan.chooseFormat(offered: [rg16, ar24, xr24], requested: nil) == .xrgb8888)
    }

    @Test func rgb565WhenThatIsAllThePanelTakes() throws {
        #expect(try OutputPlan.chooseFormat(offered: [rg16], requested: nil) == .rgb565)
    }

    @Test func requestedFormatWins() throws {
        #expect(try OutputPlan.chooseFormat(offered: [xr24, rg16], requested: .rgb565) == .rgb565)
    }

    @Test func requestedFormatNotOffered() {
        #expect {
            try OutputPlan.chooseFormat(offered: [xr24, ar24], requested: .rgb565)
        } throws: { error in
            "\(error)" == "--format rgb565: the display plane does not take it; it takes XR24 AR24"
        }
    }

    @Test func nothingUsable() {
        #expect {
            try OutputPlan.chooseFormat(offered: [ar24], requested: nil)
        } throws: { error in
            "\(error)".contains("neither XRGB8888 nor RGB565")
        }
    }

    @Test func withoutPlanesTheRequestIsTrusted() throws {
        #expect(try OutputPlan.chooseFormat(offered: nil, requested: nil) == .xrgb8888)
        #expect(try OutputPlan.chooseFormat(offered: nil, requested: .rgb565) == .rgb565)
    }

    @Test func fourCCNames() {
        #expect(fourCCName(xr24) == "XR24")
        #expect(fourCCName(rg16) == "RG16")
        #expect(fourCCName(0x0000_0001) == "0x1")
    }
}

@Suite(.timeLimit(.minutes(10))) struct DisplayErrorTests {
    @Test func noDeviceNamesRender() {
        let text = DisplayError.noDisplayDevice(directory: "/dev/dri").description
        #expect(text.hasPrefix("no display: /dev/dri has no DRM card"))
        #expect(text.contains("glance render"))
    }

    @Test func anotherMasterSaysSo() {
        #expect(
            DisplayError.anotherMaster(card: "/dev/dri/card0").description.contains("another program is DRM master"))
    }

    @Test func discoveryOfAMissingDirectory() {
        #expect {
            try Card.discover(in: "/nonexistent/dri")
        } throws: { error in
            "\(error)".hasPrefix("no display: /nonexistent/dri has no DRM card")
        }
    }
}

/// A Raspberry Pi 5's cards as they come: `v3d` (3D only: no connectors), `vc4` (the two HDMI
/// ports), one `drm-rp1-dsi` card per DSI port and an SPI panel's card, in an order that says
/// nothing about which one has the panel.
private func pi5Cards(hdmiConnected: Bool = false, spi: Bool = false) -> [CardSnapshot] {
    func card(_ n: Int, _ driver: String, _ connectors: [Connector]) -> CardSnapshot {
        CardSnapshot(
            path: "/dev/dri/card\(n)", driver: driver, connectors: connectors, crtcs: [CRTC(id: 100, index: 0)],
            planes: [Plane(id: 200, kind: .primary, possibleCRTCs: 0b1, formats: [PixelFormat.xrgb8888.fourCC])])
    }
    let panel = [DisplayMode(width: 720, height: 1280, refreshMillihertz: 60_000, isPreferred: true, index: 0)]
    let hdmiModes = hdmiConnected ? monitorModes : []
    var cards = [
        card(0, "v3d", []),
        card(1, "vc4", [
            Connector(id: 1, name: "HDMI-A-1", status: hdmiConnected ? .connected : .disconnected, modes: hdmiModes, possibleCRTCIndexes: [0]),
            Connector(id: 2, name: "HDMI-A-2", status: .disconnected, modes: [], possibleCRTCIndexes: [0]),
        ]),
        // Touch Display 2 on CAM/DISP 1, the port Raspberry Pi recommends: DSI-2.
        card(2, "drm-rp1-dsi", [Connector(id: 3, name: "DSI-2", status: .connected, modes: panel, possibleCRTCIndexes: [0])]),
    ]
    if spi {
        let small = [DisplayMode(width: 240, height: 240, refreshMillihertz: 60_000, isPreferred: true, index: 0)]
        cards.append(card(3, "panel-mipi-dbi", [Connector(id: 4, name: "SPI-1", status: .connected, modes: small, possibleCRTCIndexes: [0])]))
    }
    return cards
}

@Suite("the card: chosen by a connected connector of the requested name, never by number", .timeLimit(.minutes(10)))
struct CardChoiceTests {
    @Test("a named connector picks its card wherever it is: DSI-2 on the third card, SPI-1 on the fourth")
    func namedConnectorPicksItsCard() throws {
        let cards = pi5Cards(hdmiConnected: true, spi: true)
        #expect(try OutputPlan.rankCards(cards, for: OutputRequest(connector: "DSI-2")) == [2])
        #expect(try OutputPlan.rankCards(cards, for: OutputRequest(connector: "spi-1")) == [3])
        #expect(try OutputPlan.rankCards(cards, for: OutputRequest(connector: "HDMI-A-1")) == [1])
        let plan = try OutputPlan.choose(in: cards[2], for: OutputRequest(connector: "DSI-2"))
        #expect(plan.connector.name == "DSI-2" && plan.mode.width == 720)
    }

    @Test("without a name: the cards with a connected display, in number order (HDMI unplugged: the panel's card)")
    func unnamedTakesConnectedCards() throws {
        #expect(try OutputPlan.rankCards(pi5Cards(), for: OutputRequest()) == [2])
        #expect(try OutputPlan.rankCards(pi5Cards(hdmiConnected: true, spi: true), for: OutputRequest()) == [1, 2, 3])
    }

    @Test("a connector of that name connected on one card comes before a disconnected one of the same name")
    func connectedBeforeDisconnected() throws {
        var cards = pi5Cards()
        // Two cards with a DSI-1 (names are the kernel's; a card left over from another overlay).
        cards[1].connectors.append(Connector(id: 9, name: "DSI-1", status: .disconnected, modes: [], possibleCRTCIndexes: [0]))
        cards[2].connectors[0].name = "DSI-1"
        #expect(try OutputPlan.rankCards(cards, for: OutputRequest(connector: "DSI-1")) == [2, 1])
    }

    @Test("a name no card has: every card's connectors with their card, as the guide's DSI-1 on a Pi 5 would show")
    func noCardHasIt() {
        #expect {
            try OutputPlan.rankCards(pi5Cards(), for: OutputRequest(connector: "DSI-1"))
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("--connector 'DSI-1': no such connector; available: ")
                && text.contains("HDMI-A-1 on /dev/dri/card1 (disconnected)") && text.contains("DSI-2 on /dev/dri/card2 (connected)")
        }
    }

    @Test("one card: the error lists its connectors as before, without the card")
    func oneCardError() {
        #expect {
            try OutputPlan.rankCards([piCard()], for: OutputRequest(connector: "HDMI-A-2"))
        } throws: { error in
            "\(error)" == "--connector 'HDMI-A-2': no such connector; available: HDMI-A-1 (disconnected), DSI-1 (connected)"
        }
    }

    @Test("a named connector that is there but disconnected: its own card, to say so")
    func namedDisconnected() throws {
        let cards = pi5Cards()
        #expect(try OutputPlan.rankCards(cards, for: OutputRequest(connector: "HDMI-A-2")) == [1])
        #expect {
            try OutputPlan.choose(in: cards[1], for: OutputRequest(connector: "HDMI-A-2"))
        } throws: { error in
            "\(error)".contains("HDMI-A-2 is disconnected")
        }
    }

    @Test("no card with a connected display: every connector listed")
    func noneConnected() {
        var cards = pi5Cards()
        cards[2].connectors[0].status = .disconnected
        cards[2].connectors[0].modes = []
        #expect {
            try OutputPlan.rankCards(cards, for: OutputRequest())
        } throws: { error in
            "\(error)".hasPrefix("no connected display; connectors: HDMI-A-1 on /dev/dri/card1 (disconnected)")
        }
    }
}
