import Raster
import Testing

@testable import Display

/// The damage of frames the bench measures on a 240x240 RGB565 panel (`glance bench --wire`),
/// as `FramePainter` reports it: x, y, width, height.
private func rects(_ list: [(Int, Int, Int, Int)]) -> [IntRect] {
    list.map { IntRect(x: $0.0, y: $0.1, width: $0.2, height: $0.3) }
}

/// The bytes one commit of all of `damage` sends: its bounding box as one window.
private func oneWindow(_ damage: [IntRect]) -> Int {
    DamageCommits.wireBytes([damage], bytesPerPixel: 2)
}

@Suite(.timeLimit(.minutes(10))) struct DamageCommitsTests {
    @Test("a spinner's head and tail, a quarter turn apart, go as two windows: 1,944 bytes instead of 40,079")
    func spinnerEndsApart() {
        // The spinner at 60 fps: its tail's sweep near 12 o'clock, its head's near 4.
        let damage = rects([(112, 1, 28, 16), (219, 133, 19, 27)])
        let groups = DamageCommits.groups(damage, bytesPerPixel: 2)
        #expect(groups == [[damage[0]], [damage[1]]])
        #expect(DamageCommits.wireBytes(groups, bytesPerPixel: 2) == (28 * 16 + 19 * 27) * 2 + 2 * 11)
        #expect(oneWindow(damage) == 126 * 159 * 2 + 11)
    }

    @Test("the intro's three ring ends go as three windows; a ring redrawn whole takes the end inside its box along")
    func introRingEnds() {
        let ends = rects([(171, 171, 28, 33), (165, 127, 23, 28), (97, 178, 32, 24)])
        #expect(DamageCommits.groups(ends, bytesPerPixel: 2).count == 3)
        // The inner rings whole and an arc's end outside them: two windows.
        let whole = rects([(34, 147, 22, 23), (62, 93, 116, 126)])
        #expect(DamageCommits.groups(whole, bytesPerPixel: 2).count == 2)
        // Four ends, two of them close together: three windows, fewer bytes than one.
        let four = rects([(80, 210, 30, 24), (150, 178, 24, 25), (81, 109, 27, 26), (109, 101, 22, 22)])
        let groups = DamageCommits.groups(four, bytesPerPixel: 2)
        #expect(groups.count == 3)
        #expect(groups.contains([four[2], four[3]]))
        #expect(DamageCommits.wireBytes(groups, bytesPerPixel: 2) < oneWindow(four) / 4)
    }

    @Test("parts close together stay one commit: the pixels between cost less than a commit more")
    func closeTogether() {
        // A number's old and new boxes, side by side.
        let number = rects([(90, 100, 30, 24), (121, 100, 32, 24)])
        #expect(DamageCommits.groups(number, bytesPerPixel: 2) == [number])
        // A single rectangle, and the whole panel.
        #expect(DamageCommits.groups(rects([(0, 0, 240, 240)]), bytesPerPixel: 2).count == 1)
        #expect(DamageCommits.groups([], bytesPerPixel: 2).isEmpty)
    }

    @Test("at most four commits a frame, every rectangle in one of them")
    func mostCommits() {
        // Sixteen small boxes on a grid, far apart.
        let grid = (0..<16).map { IntRect(x: ($0 % 4) * 60, y: ($0 / 4) * 60, width: 8, height: 8) }
        let groups = DamageCommits.groups(grid, bytesPerPixel: 2)
        #expect(groups.count == DamageCommits.mostCommits)
        #expect(groups.flatMap { $0 }.count == grid.count)
        #expect(Set(groups.flatMap { $0 }.map(\.description)) == Set(grid.map(\.description)))
    }

    @Test("an SPI connector splits its commits; a panel scanned out from memory (a vblank) keeps one")
    func whichConnectors() {
        #expect(DamageCommits.splits(connector: "SPI-1"))
        for name in ["HDMI-A-1", "DSI-1", "DPI-1", "Virtual-1", "Unknown-1"] {
            #expect(!DamageCommits.splits(connector: name), "\(name)")
        }
    }
}
