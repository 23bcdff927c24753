import Raster

extension ProgressScreen {
    /// What moves between two frames of the same task: the spinner's ends, the sliding segment,
    /// an eased fraction's swept arc or bar end and its percentage. Another task, label, style or
    /// context: nil (all of it).
    public func changes(since previous: any Screen, at previousTime: Double, now time: Double, size: Size) -> Damage? {
        guard let before = previous as? ProgressScreen, before.content.style == content.style,
            before.content.label == content.label, before.content.cancellable == content.cancellable,
            before.content.cancelNote == content.cancelNote, before.content.cancelling == content.cancelling,
            context.drawsLike(before.context)
        else { return nil }
        // The same layout as the frame before (what differs is the amount): taken from it.
        let layout = before.layout(for: size)
        if memo.entry == nil {
            memo.entry = before.memo.entry
            memo.spinner = before.memo.spinner
        }
        switch (before.content.amount, content.amount) {
        case (.indeterminate, .indeterminate):
            switch layout.indicator {
            case .circle(let center, let radius, let lineWidth):
                return ScreenDamage.spinner(
                    center: center, radius: radius, width: lineWidth, sweep: Self.spinnerSweep,
                    period: Self.spinnerPeriod, positions: Self.spinnerPositions, from: previousTime, to: time)
            case .bar(let bar), .toolbar(let bar):
                return segmentChange(bar, from: previousTime, to: time)
            }
        case (.determinate, .determinate):
            guard let f0 = before.fraction(at: previousTime), let f1 = fraction(at: time) else { return nil }
            if f0 == f1 { return Damage() }
            var d: Damage
            switch layout.indicator {
            case .circle(let center, let radius, let lineWidth):
                d = ScreenDamage.arcGrowth(center: center, radius: radius, width: lineWidth, from: f0, to: f1)
            case .bar(let bar), .toolbar(let bar):
                // The bar's filled part (and its anti-aliased edge).
                d = Damage(bar.insetBy(-2).enclosingPixels)
            }
            // The percentage, before and after.
            for f in [f0, f1] { d.add(ScreenDamage.text(percentBox(f, layout))) }
            return d
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
