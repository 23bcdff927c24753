import Raster

/// How a frame's damage is committed to a panel whose driver sends each commit's damage as one
/// window: the MIPI DBI helpers behind SPI panels (panel-mipi-dbi, st7789v, ili9341, gc9a01 on
/// the Pi's overlays) merge a commit's clips into their bounding box
/// (`drm_atomic_helper_damage_merged`), set it as the panel's column and row window (CASET,
/// RASET) and send all of its pixels after RAMWR. Two changes far apart (a spinner's head and
/// tail, a quarter turn apart) so cost the box spanning both: most of the circle. Committed one
/// after the other within the frame, each group's clips merge into a window of its own.
///
/// Such panels have no vblank to wait for (a commit is done when its window is sent), so a frame
/// of two commits takes the time of their bytes and one more commit. A panel scanned out from
/// memory (HDMI, DSI, DPI) has a vblank a blocking commit waits for, and reads no window: there a
/// frame stays one commit.
public enum DamageCommits {
    /// What one commit more costs, in bytes of a 31.25 MHz wire (nine clocks a byte): about
    /// 0.3 ms for the ioctl, the atomic commit and the window's commands (the driver sends
    /// commands of 64 bytes or fewer at 10 MHz at most, each its own SPI message). Two groups are
    /// sent as one window unless the pixels between them cost more than this.
    public static let commitCostBytes = 1024
    /// The most commits a frame is split into.
    public static let mostCommits = 4
    /// CASET and RASET with their four parameters each, and RAMWR: the bytes a window costs
    /// besides its pixels.
    public static let windowCommandBytes = 11
    /// The bytes a pixel takes on the wire: RGB565 (the helpers convert an XRGB8888 framebuffer
    /// to the panel's RGB565 as they send it).
    public static let wireBytesPerPixel = 2

    /// Whether the output behind connector `name` sends each commit's damage as one window with
    /// no vblank between commits: an SPI panel (the MIPI DBI helpers' connector type, "SPI-1").
    public static func splits(connector name: String) -> Bool {
        name.lowercased().hasPrefix("spi-")
    }

    /// `rects` (a frame's damage, panel pixels) in groups, one commit each, in the order given
    /// by the first rectangle of each: starting from a group per rectangle, the two groups whose
    /// merged window adds the fewest bytes are merged while that is at most one commit's cost
    /// (or while there are more than `mostCommits`). Damage whose parts lie close together stays
    /// one group: one commit, as before.
    public static func groups(_ rects: [IntRect], bytesPerPixel: Int) -> [[IntRect]] {
        var groups: [(rects: [IntRect], box: IntRect)] = rects.filter { !$0.isEmpty }.map { ([$0], $0) }
        while groups.count > 1 {
            var best = (a: 0, b: 1, extra: Int.max)
            for a in 0..<groups.count {
                for b in (a + 1)..<groups.count {
                    let extra = area(groups[a].box.union(groups[b].box)) - area(groups[a].box) - area(groups[b].box)
                    if extra < best.extra { best = (a, b, extra) }
                }
            }
            guard best.extra * bytesPerPixel <= commitCostBytes + windowCommandBytes || groups.count > mostCommits else {
                break
            }
            let merged = (groups[best.a].rects + groups[best.b].rects, groups[best.a].box.union(groups[best.b].box))
            groups.remove(at: best.b)
            groups[best.a] = merged
        }
        return groups.map(\.rects)
    }

    /// The bytes the commits of `groups` put on the wire: each group's window, its pixels and
    /// commands.
    public static func wireBytes(_ groups: [[IntRect]], bytesPerPixel: Int) -> Int {
        groups.reduce(0) { sum, group in
            let box = group.reduce(IntRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) }
            return sum + area(box) * bytesPerPixel + windowCommandBytes
        }
    }

    static func area(_ r: IntRect) -> Int { r.isEmpty ? 0 : r.width * r.height }
}
