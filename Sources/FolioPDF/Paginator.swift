/// A flowable placed on a page, `y` from the top of the content area.
struct Placement {
    let flowable: Flowable
    let y: Double
}

/// Fills pages with flowables in one linear pass: place if it fits, else split
/// and carry the rest, else move to a fresh page, else shrink to fit.
struct Paginator {
    let pageHeight: Double

    func paginate(_ flowables: [Flowable]) -> [[Placement]] {
        var pages: [[Placement]] = [[]]
        var y = 0.0
        var pending = flowables[...]
        var carried: Flowable?

        func newPage() {
            pages.append([])
            y = 0
        }

        while let next = carried ?? pending.first {
            if carried == nil { pending = pending.dropFirst() }
            carried = nil
            if next.isPageBreak {
                if !(pages.last?.isEmpty ?? true) { newPage() }
                continue
            }
            let gap = y > 0 ? next.spaceBefore : 0
            let remaining = pageHeight - y - gap
            // Keep-with-next: this block and the start of the following one go together.
            if next.keepWithNext, y > 0, let following = pending.first, !following.isPageBreak {
                let needed = next.height + following.spaceBefore + min(following.minimumHeadHeight, pageHeight / 3)
                if needed > remaining {
                    newPage()
                    carried = next
                    continue
                }
            }
            if next.height <= remaining {
                pages[pages.count - 1].append(Placement(flowable: next, y: y + gap))
                y += gap + next.height
            } else if let (head, tail) = next.split(available: remaining) {
                pages[pages.count - 1].append(Placement(flowable: head, y: y + gap))
                newPage()
                carried = tail
            } else if y > 0 {
                newPage()
                carried = next
            } else if let shrunk = next.scaled(toFit: pageHeight) {
                pages[pages.count - 1].append(Placement(flowable: shrunk, y: 0))
                y = shrunk.height
            } else {
                // Taller than a page and neither splittable nor scalable: place it and let it be clipped.
                pages[pages.count - 1].append(Placement(flowable: next, y: 0))
                y = pageHeight
            }
        }
        if pages.count > 1, pages[pages.count - 1].isEmpty { pages.removeLast() }
        return pages
    }
}
