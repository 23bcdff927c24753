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

/// What a screen placed where: every line of text and every group of rings, arc and shape, as
/// the drawing code placed them (the layout tests, damage, `glance render --explain`).
public final class LayoutProbe {
    /// Every line of text, in the order drawn.
    public private(set) var runs: [TextRun] = []
    /// Rects the ring groups were fitted into, and the groups' outer diameter and gap.
    public private(set) var ringGroups: [(rect: Rect, geometry: RingGeometry)] = []
    /// What each ring group showed (nil where the drawing did not say).
    public private(set) var ringSets: [RingSet?] = []
    /// Other drawn elements (bars, markers, buttons) by their bounding boxes.
    public private(set) var shapes: [(name: String, box: Rect)] = []
    /// Arcs drawn (gauge paths, progress circles): the band from `start` over `sweep` turns.
    public private(set) var arcs: [(center: Point, inner: Float, outer: Float, start: Double, sweep: Double)] = []

    public init() {}

    /// The text of every line and its box.
    public var texts: [(text: String, box: Rect)] { runs.map { ($0.text, $0.box) } }

    func run(_ run: TextRun) { runs.append(run) }
    func rings(_ rect: Rect, _ set: RingSet? = nil) {
        ringGroups.append((rect, RingGeometry(fitting: rect)))
        ringSets.append(set)
    }
    func shape(_ name: String, _ box: Rect) { shapes.append((name, box)) }
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
/// `progress.cancelling`; `refresh.failed`. Boxes are in the picture's coordinates (the panel's
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

    /// What `screen` draws on a picture of `size` at `time` on the animation clock.
    public init(of screen: any Screen, size: Size, shape: PanelShape = .rectangle, at time: Double = 0) {
        let probe = LayoutProbe()
        screen.explain(into: probe, size: size, at: time)
        self.init(probe, size: size, shape: shape)
    }

    public init(_ probe: LayoutProbe, size: Size, shape: PanelShape = .rectangle) {
        self.size = size
        self.shape = shape
        texts = probe.runs
        rings = probe.ringGroups.map { Rings(rect: $0.rect, geometry: $0.geometry) }
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
