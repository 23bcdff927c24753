import Activity
import Raster

/// One line of text as a screen laid it out and drew it.
public struct TextRun: Sendable, Hashable {
    /// The part of the screen it belongs to: `rings.day`, `rings.figure.move.value`,
    /// `gauge.1.maximum`, `progress.label.2`, `refresh.failed` (see `Explanation`).
    public var element: String
    /// The text as drawn.
    public var text: String
    /// What it says whole when it was drawn shorter: a title cut with "…", a number in a shorter
    /// form or without its unit. nil when it is drawn whole.
    public var full: String?
    /// Its size (the em, in pixels) and weight.
    public var style: TextStyle
    /// The box it takes: its advances across, the fonts' ascent and descent down.
    public var box: Rect
    /// A number (with its unit, when on the same run): fitted to its room, never cut.
    public var isNumber: Bool

    public init(element: String, text: String, full: String? = nil, style: TextStyle, box: Rect, isNumber: Bool = false) {
        self.element = element
        self.text = text
        self.full = full
        self.style = style
        self.box = box
        self.isNumber = isNumber
    }
}

/// Something a screen had to show but left out, with why: what a person who asked for it (a
/// `--name`, a gauge's range) is told.
public struct Omission: Sendable, Hashable {
    /// The element it would have been (`rings.name`, `gauge.2.minimum`).
    public var element: String
    public var why: String

    public init(_ element: String, _ why: String) {
        self.element = element
        self.why = why
    }
}

/// What a screen placed where: every line of text and every group of rings, arc and shape, as
/// the drawing code placed them (the layout tests, damage, `glance render --explain`).
public final class LayoutProbe {
    /// Every line of text, in the order drawn.
    public private(set) var runs: [TextRun] = []
    /// Rects the ring groups were fitted into, and the groups' outer diameter and gap.
    public private(set) var ringGroups: [Explanation.Rings] = []
    /// What each ring group showed (nil where the drawing did not say).
    public private(set) var ringSets: [RingSet?] = []
    /// Other drawn elements (bars, markers, buttons) by their bounding boxes.
    public private(set) var shapes: [(name: String, box: Rect)] = []
    /// Arcs drawn (gauge paths, progress circles): the band from `start` over `sweep` turns.
    public private(set) var arcs: [(center: Point, inner: Float, outer: Float, start: Double, sweep: Double)] = []
    /// The page drawn and how many the screen has (a screen not in pages: 0 of 1).
    public private(set) var page = 0
    public private(set) var pageCount = 1
    /// What the screen left out, and why.
    public private(set) var omitted: [Omission] = []

    public init() {}

    /// The text of every line and its box.
    public var texts: [(text: String, box: Rect)] { runs.map { ($0.text, $0.box) } }

    func run(_ run: TextRun) { runs.append(run) }
    func rings(_ rect: Rect, _ set: RingSet? = nil) {
        ringGroups.append(Explanation.Rings(rect: rect, geometry: RingGeometry(fitting: rect)))
        ringSets.append(set)
    }
    func shape(_ name: String, _ box: Rect) { shapes.append((name, box)) }
    func pages(_ page: Int, of count: Int) {
        self.page = page
        pageCount = count
    }
    func omit(_ omission: Omission) { omitted.append(omission) }
    func arc(_ a: ArcStroke, sweep: Double) {
        arcs.append((a.center, a.radius - a.width / 2, a.radius + a.width / 2, a.start, sweep))
    }
}

/// What a screen drew on a picture of a given size: every line of text with the string as drawn,
/// its size in pixels, its box and the element it belongs to; the ring groups, arcs and other
/// shapes. It comes from the drawing code itself, run with nothing drawn (`Screen.explain`), so
/// it is the layout the picture has.
///
/// Elements are named `screen.part`: `rings.name`, `rings.day`, `rings.date`, `rings.time`,
/// `rings.figure.move.label|value|unit`, `rings.week.N`; `clock.time`, `clock.period`,
/// `clock.date`; `gauge.N.title|value|minimum|maximum|age` and `gauge.N.value.unit` (a unit
/// drawn apart, smaller; N from 1, in the screen's order);
/// `progress.label.N` (its lines), `progress.percent`, `progress.note.N`, `progress.cancel`,
/// `progress.cancelling`; `refresh.failed`; `family.N.name|push`, `family.N.figure.move|exercise|stand.value`
/// (and `.unit`), the shapes `family.N.bar` (N from 1, in the people's order); `competition.title|winner`,
/// `competition.columns.points|today`, `competition.N.rank|name|total|today` (N the standing, from 1);
/// `page dot` shapes. Boxes are in the picture's coordinates (the panel's
/// turned by its rotation: `FrameComposer.pictureSize`).
public struct Explanation: Sendable {
    public struct Rings: Sendable, Equatable {
        public var rect: Rect
        public var geometry: RingGeometry
    }
    /// A band of a circle from `start` (turns clockwise from 12 o'clock) over `sweep` turns.
    public struct Arc: Sendable, Equatable {
        public var center: Point
        public var inner: Float
        public var outer: Float
        public var start: Double
        public var sweep: Double
    }
    public struct Shape: Sendable, Equatable {
        public var name: String
        public var box: Rect
    }

    public var size: Size
    public var shape: PanelShape
    public var texts: [TextRun]
    public var rings: [Rings]
    public var arcs: [Arc]
    public var shapes: [Shape]
    /// The panel's size and distance the layout was made for.
    public var viewing: ResolvedViewing
    /// The capitals' height over the em of the fonts drawn with.
    public var capRatio: Float
    /// The page drawn (from 0) and how many the screen has on this picture.
    public var page: Int
    public var pageCount: Int
    /// What the screen left out, and why.
    public var omitted: [Omission]

    /// What `screen` draws on a picture of `size` at `time` on the animation clock, for a panel
    /// seen as `viewing` says (its type scale), drawn with fonts of `capRatio`.
    public init(
        of screen: any Screen, size: Size, shape: PanelShape = .rectangle, viewing: Viewing = Viewing(),
        capRatio: Float = Legibility.usualCapRatio, at time: Double = 0
    ) {
        let probe = LayoutProbe()
        screen.explain(into: probe, size: size, at: time)
        self.init(probe, size: size, shape: shape, viewing: viewing, capRatio: capRatio)
    }

    public init(
        _ probe: LayoutProbe, size: Size, shape: PanelShape = .rectangle, viewing: Viewing = Viewing(),
        capRatio: Float = Legibility.usualCapRatio
    ) {
        self.size = size
        self.shape = shape
        self.viewing = viewing.resolved(for: size, shape: shape)
        self.capRatio = capRatio
        page = probe.page
        pageCount = probe.pageCount
        omitted = probe.omitted
        texts = probe.runs
        rings = probe.ringGroups
        arcs = probe.arcs.map { Arc(center: $0.center, inner: $0.inner, outer: $0.outer, start: $0.start, sweep: $0.sweep) }
        shapes = probe.shapes.map { Shape(name: $0.name, box: $0.box) }
    }
}

/// A screen drawn through a `ScreenContext`: it explains itself by drawing with a probe into a
/// picture that keeps nothing.
protocol ContextScreen: Screen {
    var context: ScreenContext { get set }
}

extension ContextScreen {
    public func explain(into probe: LayoutProbe, size: Size, at time: Double) {
        var s = self
        s.context.probe = probe
        s.context.drawsText = false
        s.draw(into: .measuring(size), at: time)
    }
}

extension Explanation {
    /// How large a line's capitals are: in pixels, in millimetres on the panel, and the angle they
    /// make at the viewer's eye.
    public struct CapHeight: Sendable, Equatable {
        public var pixels: Double
        public var millimetres: Double
        public var arcMinutes: Double
    }

    /// The capitals' height of `run` as the viewing sees it.
    public func capHeight(_ run: TextRun) -> CapHeight {
        let px = Double(run.style.size * capRatio)
        return CapHeight(pixels: px, millimetres: viewing.millimetres(px), arcMinutes: viewing.arcMinutes(px))
    }

    /// Whether `run` is one of the figures the screen is for (held to 20′; every other text 12′).
    public func isFigure(_ run: TextRun) -> Bool { Legibility.isFigure(run.element) }

    /// The lines whose capitals make less than the rule asks at the eye (20′ for a figure, 12′ for
    /// any other text), with a small allowance for the sizes' rounding.
    public var illegible: [TextRun] {
        texts.filter { run in
            let needed = isFigure(run) ? Legibility.figureArcMinutes : Legibility.textArcMinutes
            return capHeight(run).arcMinutes < needed - 0.05
        }
    }

    /// The numbers drawn in a form that reads as another number than their whole ("123k" for
    /// 123,456; "1013" for 1013.3): each number of the text drawn against the same one of what it
    /// says whole.
    public var rounded: [TextRun] {
        texts.filter { run in
            guard run.isNumber, let full = run.full else { return false }
            return zip(NumberLine.numbers(in: run.text), NumberLine.numbers(in: full)).contains {
                !NumberLine.sameNumber($0, $1)
            }
        }
    }
}
