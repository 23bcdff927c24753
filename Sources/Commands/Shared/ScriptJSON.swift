import Runtime
import Controls
import Activity
import Display
import Feeds
import Input
import JSON
import Raster
import Screens
import Store
import Platform


/// `--json` for scripts: `glance metric list`, `task list`, `export` and `devices` as one JSON
/// document on standard output, with the field names `glance serve` uses (docs/usage.md's
/// "For scripts" lists them; they do not change). Times are seconds since 1970, UTC.
public enum ScriptJSON {
    /// `{"metrics": [{"name", "value", "min", "max", "unit", "updated"}, …]}`.
    public static func metrics(database: String?, console: Console) -> Outcome {
        StoreJobs.with(database, access: .read, console: console) { store throws(StoreError) in
            let items = try store.metrics().map(metric)
            try console.writeResult(JSON.object([("metrics", .array(items))]).text + "\n")
            return Outcome.ok
        }
    }

    /// `{"tasks": [{"name", "state", "done", "total", "fraction", "description", "cancellable",
    /// "cancelRequested", "pid", "started", "updated"}, …]}`.
    public static func tasks(database: String?, console: Console) -> Outcome {
        StoreJobs.with(database, access: .read, console: console) { store throws(StoreError) in
            let items = try store.tasks().map(task)
            try console.writeResult(JSON.object([("tasks", .array(items))]).text + "\n")
            return Outcome.ok
        }
    }

    static func metric(_ m: Metric) -> JSON {
        guard case .object(var members) = StoreJSON.json(m) else { return StoreJSON.json(m) }
        members.append(("updated", .number(Double(m.updated))))
        return .object(members)
    }

    static func task(_ t: ProgressTask) -> JSON {
        guard case .object(var members) = StoreJSON.json(t) else { return StoreJSON.json(t) }
        members.insert(("fraction", StoreJSON.number(t.fraction)), at: 4)
        members.append(("pid", t.pid.map { .number(Double($0)) } ?? .null))
        members.append(("started", .number(Double(t.started))))
        members.append(("updated", .number(Double(t.updated))))
        return .object(members)
    }

    /// A day as `glance serve` gives it, and as `PUT /v1/days/DATE` takes it back: `{"date", "move",
    /// "moveGoal", "moveTime", "moveTimeGoal", "exercise", "exerciseGoal", "stand", "standGoal",
    /// "moveMode"}` (move and moveGoal in kcal).
    static func day(_ day: CalendarDay, _ s: ActivitySummary) -> JSON { StoreJSON.json(day, s) }

    /// `glance export --json`: `{"days": […]}`, `{"metrics": […]}` or `{"tasks": […]}`, written as
    /// it is read (the days may be many), to `write`; the days as the panel shows them (`goals`:
    /// the configuration's, where neither the day nor the standing goals have one).
    public static func export(
        _ table: Store.Table, store: Store, goals: Goals = Goals(), write: (String) throws(StoreError) -> Void
    ) throws(StoreError) {
        switch table {
        case .days:
            try write("{\"days\":[")
            var first = true
            for shown in try store.allShownDays(defaults: goals) {
                let d = shown.day, s = shown.summary
                try write((first ? "" : ",") + day(d, s).text)
                first = false
            }
            try write("]}\n")
        case .metrics: try write(JSON.object([("metrics", .array(try store.metrics().map(metric)))]).text + "\n")
        case .tasks: try write(JSON.object([("tasks", .array(try store.tasks().map(task)))]).text + "\n")
        }
    }

    // MARK: glance devices --json

    /// `{"cards": [...], "inputs": [...], "problems": [...]}` (docs/usage.md lists the fields); 69
    /// without a card, as without --json.
    public static func devices(directory: String = "/dev/dri", inputDirectory: String = "/dev/input", console: Console) -> Outcome {
        var status = Outcome.ok
        var cards: [JSON] = []
        var problems: [JSON] = []
        do throws(DisplayError) {
            for path in try Card.discover(in: directory) {
                do throws(DisplayError) {
                    let snapshot = try Card(path: path).snapshot()
                    cards.append(card(snapshot))
                } catch {
                    problems.append(.object([("path", .string(path)), ("problem", .string(error.description))]))
                }
            }
        } catch {
            problems.append(.object([("path", .string(directory)), ("problem", .string(error.description))]))
            status = Outcome.unavailable
        }
        var inputs: [JSON] = []
        for result in InputDevice.scan(inputDirectory) {
            switch result {
            case .success(let device): inputs.append(input(device))
            case .failure(let error):
                problems.append(.object([("path", .string(error.call)), ("problem", .string(error.description))]))
            }
        }
        let document = JSON.object([("cards", .array(cards)), ("inputs", .array(inputs)), ("problems", .array(problems))])
        console.say(document.text)
        return status
    }

    static func card(_ s: CardSnapshot) -> JSON {
        var members: [(key: String, value: JSON)] = [
            ("path", .string(s.path)), ("driver", .string(s.driver)), ("dumbBuffers", .bool(s.supportsDumbBuffers)),
            ("atomic", .bool(s.supportsAtomic)),
        ]
        members.append(("connectors", .array(s.connectors.map(connector))))
        members.append(
            ("crtcs", .array(s.crtcs.map { c in
                .object([
                    ("id", .number(Double(c.id))), ("index", .number(Double(c.index))),
                    ("mode", c.mode.map(mode) ?? .null), ("framebuffer", .number(Double(c.framebuffer))),
                ])
            })))
        members.append(
            ("planes", .array(s.planes.map { p in
                .object([
                    ("id", .number(Double(p.id))), ("kind", .string(p.kind.rawValue)),
                    ("crtcIndexes", .array((0..<32).filter { p.canDrive(crtcIndex: $0) }.map { .number(Double($0)) })),
                    ("formats", .array(p.formats.map { .string(fourCCName($0)) })), ("damageClips", .bool(p.acceptsDamageClips)),
                ])
            })))
        // What glance run would choose here.
        if let plan = try? OutputPlan.choose(in: s, for: OutputRequest()) {
            members.append(
                ("chosen", .object([
                    ("connector", .string(plan.connector.name)), ("mode", .string(plan.mode.description)),
                    ("format", .string(fourCCName(plan.format.fourCC))),
                ])))
        } else {
            members.append(("chosen", .null))
        }
        return .object(members)
    }

    static func connector(_ c: Connector) -> JSON {
        .object([
            ("name", .string(c.name)), ("status", .string(c.status.rawValue)),
            ("widthMillimetres", .number(Double(c.widthMillimetres))), ("heightMillimetres", .number(Double(c.heightMillimetres))),
            ("crtc", c.currentCRTC.map { .number(Double($0)) } ?? .null), ("modes", .array(c.modes.map(mode))),
        ])
    }

    static func mode(_ m: DisplayMode) -> JSON {
        .object([
            ("name", .string(m.description)), ("width", .number(Double(m.width))), ("height", .number(Double(m.height))),
            ("refreshHz", .number(Double(m.refreshMillihertz) / 1000)), ("preferred", .bool(m.isPreferred)),
        ])
    }

    static func input(_ d: InputDevice) -> JSON {
        let c = d.capabilities
        return .object([
            ("path", .string(d.path)), ("name", .string(d.name)), ("kinds", .array(c.kinds.map { .string($0.rawValue) })),
            ("keys", .array(c.keys.sorted().filter { $0 < InputCapabilities.btnMisc || $0 >= InputCapabilities.btnRangeEnd }
                .map { .string(EventNames.codeName(1, UInt16($0))) })),
            ("multiTouchSlots", .bool(c.hasTouchSlots)), ("summary", .string(c.summary)),
        ])
    }
}

extension ScriptJSON {
    /// What a picture shows, as `glance render --explain` prints it: every text run (the string as
    /// drawn, what it says whole where it was shortened, its size in pixels, its box, its
    /// element), the rings, the arcs and the shapes, in the picture's coordinates (upright).
    public static func explanation(_ e: Explanation) -> JSON {
        /// Three decimals: what a reader compares, without a double's noise.
        func rounded(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }
        func box(_ r: Rect) -> JSON {
            .object([("x", .number(Double(r.x))), ("y", .number(Double(r.y))), ("width", .number(Double(r.width))),
                     ("height", .number(Double(r.height)))])
        }
        let texts: [JSON] = e.texts.map { t in
            var members: [(key: String, value: JSON)] = [
                ("element", .string(t.element)), ("text", .string(t.text)), ("size", .number(Double(t.style.size))),
                ("weight", .string("\(t.style.weight)")), ("box", box(t.box)), ("number", .bool(t.isNumber)),
            ]
            if let full = t.full { members.append(("full", .string(full))) }
            let cap = e.capHeight(t)
            members.append(("figure", .bool(e.isFigure(t))))
            members.append(("capHeight", .object([
                ("px", .number(rounded(cap.pixels))), ("mm", .number(rounded(cap.millimetres))),
                ("arcMinutes", .number(rounded(cap.arcMinutes))),
            ])))
            return .object(members)
        }
        func point(_ p: Point) -> JSON { .object([("x", .number(Double(p.x))), ("y", .number(Double(p.y)))]) }
        let arcs: [JSON] = e.arcs.map { a in
            let members: [(key: String, value: JSON)] = [
                ("center", point(a.center)), ("inner", .number(Double(a.inner))), ("outer", .number(Double(a.outer))),
                ("start", .number(a.start)), ("sweep", .number(a.sweep)),
            ]
            return .object(members)
        }
        let shapes: [JSON] = e.shapes.map { .object([("name", .string($0.name)), ("box", box($0.box))]) }
        let size: JSON = .object([("width", .number(Double(e.size.width))), ("height", .number(Double(e.size.height)))])
        let v = e.viewing
        let viewing: JSON = .object([
            ("diagonal", .number(rounded(v.diagonal))), ("diagonalFrom", .string(v.diagonalSource.rawValue)),
            ("distance", .number(rounded(v.distance))), ("distanceFrom", .string(v.distanceGiven ? "setting" : "usual")),
            ("pixelsPerMillimetre", .number(rounded(v.pixelsPerMillimetre))),
        ])
        let members: [(key: String, value: JSON)] = [
            ("size", size), ("shape", .string(e.shape.rawValue)), ("viewing", viewing),
            ("page", .number(Double(e.page + 1))), ("pageCount", .number(Double(e.pageCount))),
            ("omitted", .array(e.omitted.map { .object([("element", .string($0.element)), ("why", .string($0.why))]) })),
            ("texts", .array(texts)),
            ("rings", .array(e.rings.map { box($0.rect) })), ("arcs", .array(arcs)), ("shapes", .array(shapes)),
        ]
        return .object(members)
    }
}
