import CCairoPango
import FolioGraphics
import FolioModel
import Foundation

/// An owned Pango layout: measured once, drawn as measured, freed on deinit. The `ShapedText`
/// Folio's layout keeps; the PDF draws it with pango_cairo.
package final class TextLayout: ShapedText {
    /// A link's byte range in the layout's text.
    package struct Link {
        package let url: LinkTarget
        package let startByte: Int
        package let endByte: Int
    }

    /// A passage in another language: its byte range and BCP 47 tag.
    package struct Passage {
        package let language: String
        package let startByte: Int
        package let endByte: Int
    }

    package let pointer: OpaquePointer
    package var links: [Link] = []
    /// The passages its author marked as in another language, in text order.
    package var passages: [Passage] = []
    private var cachedMetrics: TextMetrics?

    init(context: OpaquePointer) {
        pointer = pango_layout_new(context)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

    /// Logical width, height and first baseline in points (computed once; call
    /// `invalidateMetrics` after changing the layout's width).
    package var metrics: TextMetrics {
        if let cachedMetrics { return cachedMetrics }
        let computed = measure()
        cachedMetrics = computed
        return computed
    }

    package func invalidateMetrics() {
        cachedMetrics = nil
        cachedLines = nil
    }

    private func measure() -> TextMetrics {
        var logical = PangoRectangle()
        pango_layout_get_extents(pointer, nil, &logical)
        let scale = Double(PANGO_SCALE)
        return TextMetrics(
            width: Double(logical.width) / scale, height: Double(logical.height) / scale,
            baseline: Double(pango_layout_get_baseline(pointer)) / scale)
    }

    /// One laid-out line: its logical extents and baseline in layout coordinates (points),
    /// and the bytes of the text it shows.
    package struct Line {
        package let pointer: UnsafeMutablePointer<PangoLayoutLine>
        package let extents: Rect
        package let baseline: Double
        package let startByte: Int
        package let endByte: Int
    }

    private var cachedLines: [Line]?

    /// Every line, found once by one pass of a layout iterator (never per line or per link).
    package var lines: [Line] {
        if let cachedLines { return cachedLines }
        var result: [Line] = []
        if let iterator = pango_layout_get_iter(pointer) {
            defer { pango_layout_iter_free(iterator) }
            let scale = Double(PANGO_SCALE)
            repeat {
                var logical = PangoRectangle()
                pango_layout_iter_get_line_extents(iterator, nil, &logical)
                guard let line = pango_layout_iter_get_line_readonly(iterator) else { continue }
                let start = Int(line.pointee.start_index)
                result.append(
                    Line(
                        pointer: line,
                        extents: Rect(
                            x: Double(logical.x) / scale, y: Double(logical.y) / scale,
                            width: Double(logical.width) / scale, height: Double(logical.height) / scale),
                        baseline: Double(pango_layout_iter_get_baseline(iterator)) / scale,
                        startByte: start, endByte: start + Int(line.pointee.length)))
            } while pango_layout_iter_next_line(iterator) != 0
        }
        cachedLines = result
        return result
    }

    /// Logical extents of every line in layout coordinates, in points.
    package var lineExtents: [Rect] { lines.map(\.extents) }

    /// Characters no installed font could draw.
    package var unknownGlyphCount: Int { Int(pango_layout_get_unknown_glyphs_count(pointer)) }

    /// The first 64 characters no installed font could draw, in text order.
    package var unknownCharacters: [Unicode.Scalar] {
        var found = [UInt32](repeating: 0, count: 64)
        let count = folio_layout_unknown_characters(pointer, &found, found.count)
        return found.prefix(count).compactMap(Unicode.Scalar.init)
    }

    /// The laid-out text up to the end of line `index`.
    package func text(throughLine index: Int) -> String {
        let all = lines
        guard let text = pango_layout_get_text(pointer), !all.isEmpty else { return "" }
        let end = all[min(max(index, 0), all.count - 1)].endByte
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: max(0, end))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Each link's target and the line it starts on.
    package var linkLines: [(url: String, line: Int)] { links.map { ($0.url.url, lineIndex(containing: $0.startByte)) } }

    /// Index of the first line whose text ends after `byte` (binary search).
    func lineIndex(containing byte: Int) -> Int {
        let all = lines
        var low = 0
        var high = all.count
        while low < high {
            let mid = (low + high) / 2
            if all[mid].endByte <= byte { low = mid + 1 } else { high = mid }
        }
        return min(low, max(all.count - 1, 0))
    }

    /// Rectangles covering the byte range, one per line it spans, in layout coordinates.
    package func rects(startByte: Int, endByte: Int) -> [Rect] {
        guard endByte > startByte, !lines.isEmpty else { return [] }
        var result: [Rect] = []
        var index = lineIndex(containing: startByte)
        let all = lines
        while index < all.count, all[index].startByte < endByte {
            result += rects(of: all[index], startByte: startByte, endByte: endByte)
            index += 1
        }
        return result
    }

    /// The parts of `line` that show bytes `startByte..<endByte`, in layout coordinates, left to right:
    /// one for text of one direction, more where the bytes run both ways (Pango's visual ranges, so a
    /// Latin link inside Arabic covers its own words, not the gap between two logical positions).
    package func rects(of line: Line, startByte: Int, endByte: Int) -> [Rect] {
        let from = max(startByte, line.startByte)
        let to = min(endByte, line.endByte)
        guard to > from, let start = Int32(exactly: from), let end = Int32(exactly: to) else { return [] }
        var ranges: UnsafeMutablePointer<Int32>?
        var count: Int32 = 0
        pango_layout_line_get_x_ranges(line.pointer, start, end, &ranges, &count)
        defer { g_free(ranges) }
        guard let ranges, count > 0 else { return [] }
        let scale = Double(PANGO_SCALE)
        return (0..<Int(count)).compactMap { index in
            let left = Double(ranges[2 * index]) / scale
            let right = Double(ranges[2 * index + 1]) / scale
            guard right > left else { return nil }
            return Rect(x: left, y: line.extents.y, width: right - left, height: line.extents.height)
        }
    }
}

extension TextLayout {
    /// What a link says, for its annotation's description: its text, else its address.
    package func description(of link: Link) -> String {
        if let text = pango_layout_get_text(pointer) {
            let length = strlen(text)
            if link.startByte >= 0, link.startByte < link.endByte, link.endByte <= length {
                let bytes = UnsafeRawBufferPointer(
                    start: UnsafeRawPointer(text).advanced(by: link.startByte), count: link.endByte - link.startByte)
                let words = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\u{AD}", with: "")
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                if !words.isEmpty { return words }
            }
        }
        return link.url.url
    }
}
