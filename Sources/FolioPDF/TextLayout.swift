import CCairoPango
import FolioGraphics

/// An owned Pango layout: measured once, drawn as measured, freed on deinit.
final class TextLayout {
    /// A link's byte range in the layout's text.
    struct Link {
        let url: String
        let startByte: Int
        let endByte: Int
    }

    let pointer: OpaquePointer
    var links: [Link] = []
    private var cachedMetrics: TextMetrics?

    init(context: OpaquePointer) {
        pointer = pango_layout_new(context)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

    /// Logical width, height and first baseline in points (computed once; call
    /// `invalidateMetrics` after changing the layout's width).
    var metrics: TextMetrics {
        if let cachedMetrics { return cachedMetrics }
        let computed = measure()
        cachedMetrics = computed
        return computed
    }

    func invalidateMetrics() { cachedMetrics = nil }

    private func measure() -> TextMetrics {
        var logical = PangoRectangle()
        pango_layout_get_extents(pointer, nil, &logical)
        let scale = Double(PANGO_SCALE)
        return TextMetrics(width: Double(logical.width) / scale, height: Double(logical.height) / scale,
                           baseline: Double(pango_layout_get_baseline(pointer)) / scale)
    }

    /// Logical extents of every line in layout coordinates, in points.
    var lineExtents: [Rect] {
        var extents: [Rect] = []
        guard let iterator = pango_layout_get_iter(pointer) else { return [] }
        defer { pango_layout_iter_free(iterator) }
        let scale = Double(PANGO_SCALE)
        repeat {
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iterator, nil, &logical)
            extents.append(Rect(x: Double(logical.x) / scale, y: Double(logical.y) / scale,
                                width: Double(logical.width) / scale, height: Double(logical.height) / scale))
        } while pango_layout_iter_next_line(iterator) != 0
        return extents
    }

    /// Rectangles covering the byte range, one per line it spans, in layout coordinates.
    func rects(startByte: Int, endByte: Int) -> [Rect] {
        guard endByte > startByte else { return [] }
        let scale = Double(PANGO_SCALE)
        var startLine: Int32 = 0, endLine: Int32 = 0, unused: Int32 = 0
        pango_layout_index_to_line_x(pointer, Int32(startByte), 0, &startLine, &unused)
        pango_layout_index_to_line_x(pointer, Int32(endByte - 1), 0, &endLine, &unused)
        var first = PangoRectangle(), last = PangoRectangle()
        pango_layout_index_to_pos(pointer, Int32(startByte), &first)
        pango_layout_index_to_pos(pointer, Int32(endByte - 1), &last)
        let lines = lineExtents
        guard startLine >= 0, startLine <= endLine, Int(endLine) < lines.count else { return [] }
        return (Int(startLine)...Int(endLine)).map { index in
            let line = lines[index]
            let x0 = index == Int(startLine) ? Double(min(first.x, first.x + first.width)) / scale : line.x
            let x1 = index == Int(endLine) ? Double(max(last.x, last.x + last.width)) / scale : line.maxX
            return Rect(x: x0, y: line.y, width: max(x1 - x0, 0), height: line.height)
        }
    }
}

/// Cuts a layout to one line ending in "…".
func pangoEllipsize(_ layout: TextLayout) {
    pango_layout_set_ellipsize(layout.pointer, PANGO_ELLIPSIZE_END)
    pango_layout_set_height(layout.pointer, -1)
    layout.invalidateMetrics()
}
