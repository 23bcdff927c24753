import Raster

extension ProgressScreen {
    /// What moves between two frames of the same task: the spinner's ends, the sliding segment,
    /// an eased fraction's swept arc or bar end and its percentage. Another task, label, style or
    /// context: nil (all of it).
    public func changes(since previous: any Screen, at previousTime: Double, now time: Double, size: Size) -> Damage? {
        guard let before = previous as? ProgressScreen, before.content.style == content.style,
            before.content.label == content.label, before.content.cancellable == content.cancellable,
            before.content.cancelNote == content.cancelNote, context.drawsLike(before.context)
        else { return nil }
        let layout = layout(for: size)
        let w = Float(size.width)
        switch (before.content.amount, content.amount) {
        case (.indeterminate, .indeterminate):
            switch content.style {
            case .circular:
                let (center, radius, lineWidth, _, _) = circle(layout, width: w)
                return ScreenDamage.spinner(
                    center: center, radius: radius, width: lineWidth, sweep: Self.spinnerSweep,
                    period: Self.spinnerPeriod, from: previousTime, to: time)
            case .bar:
                return segmentChange(barPlace(layout).0, from: previousTime, to: time)
            case .toolbar:
                return segmentChange(toolbarPlace(layout, width: w), from: previousTime, to: time)
            }
        case (.determinate, .determinate):
            guard let f0 = before.fraction(at: previousTime), let f1 = fraction(at: time) else { return nil }
            if f0 == f1 { return Damage() }
            let text = TextLayout(context)
            let strings = context.strings
            switch content.style {
            case .circular:
                let (center, radius, lineWidth, side, _) = circle(layout, width: w)
                var d = ScreenDamage.arcGrowth(center: center, radius: radius, width: lineWidth, from: f0, to: f1)
                for percent in [strings.percent(f0), strings.percent(f1)] {
                    let style = percentStyle(percent, side: side, radius: radius)
                    let m = text.measure(percent, style)
                    let box = Rect(
                        x: center.x - m.width / 2, y: center.y + (m.ascent - m.descent) / 2 - m.ascent, width: m.width,
                        height: m.height)
                    d.add(ScreenDamage.text(box))
                }
                return d
            case .bar:
                // The bar and the line over it (the percentage, and the label cut to leave it room).
                let (bar, top, _) = barPlace(layout)
                let grow = layout.labelStyle.size / 4 + 2
                return Damage(
                    Rect(x: 0, y: top - grow, width: w, height: bar.maxY - top + 2 * grow).enclosingPixels)
            case .toolbar:
                // The bar and the line under it.
                let bar = toolbarPlace(layout, width: w)
                let sm = text.measure(shownLabel, layout.smallStyle)
                let bottom = bar.maxY + 10 * layout.u + sm.height + layout.smallStyle.size / 4 + 2
                return Damage(Rect(x: 0, y: bar.y - 2, width: w, height: bottom - bar.y + 2).enclosingPixels)
            }
        default:
            return nil
        }
    }

    /// The sliding segment's old and new places (each with its anti-aliased edge).
    func segmentChange(_ bar: Rect, from time0: Double, to time1: Double) -> Damage {
        if time0 == time1 { return Damage() }
        var d = Damage()
        for segment in [segment(bar, time: time0), segment(bar, time: time1)].compactMap({ $0 }) {
            d.add(segment.insetBy(-1).enclosingPixels)
        }
        return d
    }
}
