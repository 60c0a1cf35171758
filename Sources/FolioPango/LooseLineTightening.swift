import CCairoPango

/// Keeps a justified paragraph's word gaps within twice the normal space. Pango breaks lines first
/// fit, so a line whose next word (or its next syllable) just misses stretches its few spaces: a
/// German line reached 2.2 times. Such a line gets a little letter spacing, as a typesetter's
/// letter-spacing tolerance does, until its gaps are back within the bound (at most a tenth of an em
/// between letters). Its breaks do not change: the spacing only fills room the line already had.
enum LooseLineTightening {
    /// The widest word gap set, in normal spaces: one and a half, since the gap a reader sees
    /// between two words' ink is up to half a space wider again where their letters' side
    /// bearings are (a comma before a capital), and that gap stays within twice the normal one.
    static let widestGap = 1.5
    /// The most letter spacing added, in ems.
    static let mostLetterSpacing = 0.1

    /// Adds letter spacing to the loose lines of `pointer` (a justified layout of `text`, whose
    /// normal space is `space` points wide, in a font of `fontSize` points).
    static func tighten(_ pointer: OpaquePointer, text: String, space: Double, fontSize: Double) {
        guard space > 0, let attributes = pango_layout_get_attributes(pointer) else { return }
        let bytes = Array(text.utf8)
        let scale = Double(PANGO_SCALE)
        let width = Double(pango_layout_get_width(pointer)) / scale
        // Natural widths: the same breaks without stretching (justifying never moves a break).
        pango_layout_set_justify(pointer, 0)
        defer { pango_layout_set_justify(pointer, 1) }
        let count = Int(pango_layout_get_line_count(pointer))
        var spacing: [(start: Int, end: Int, points: Double)] = []
        var starts: [Int32] = []
        for index in 0..<count {
            guard let line = pango_layout_get_line_readonly(pointer, Int32(index)) else { return }
            starts.append(line.pointee.start_index)
            // The last line of the layout or of a paragraph in it (before a line break) is not stretched.
            guard index + 1 < count, let next = pango_layout_get_line_readonly(pointer, Int32(index + 1)),
                next.pointee.is_paragraph_start == 0
            else { continue }
            let start = Int(line.pointee.start_index)
            var end = min(start + Int(line.pointee.length), bytes.count)
            while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x0A { end -= 1 }
            let gaps = bytes[start..<end].lazy.filter { $0 == 0x20 }.count
            let letters = bytes[start..<end].lazy.filter { $0 & 0xC0 != 0x80 }.count
            guard gaps > 0, letters > 1 else { continue }
            var ranges: UnsafeMutablePointer<Int32>?
            var rangeCount: Int32 = 0
            pango_layout_line_get_x_ranges(line, Int32(start), Int32(end), &ranges, &rangeCount)
            defer { g_free(ranges) }
            guard let ranges, rangeCount > 0 else { continue }
            let left = (0..<Int(rangeCount)).map { Double(ranges[2 * $0]) }.min() ?? 0
            let right = (0..<Int(rangeCount)).map { Double(ranges[2 * $0 + 1]) }.max() ?? 0
            let natural = (right - left) / scale
            let room = width - natural - (widestGap - 1) * space * Double(gaps)
            guard room > 0 else { continue }
            let points = min(room / Double(letters - 1) * 1.02, mostLetterSpacing * fontSize)
            // From the line's second letter: an attribute that starts where a line starts makes
            // Pango count the line before's trailing space, and that line ends a space short.
            var second = start + 1
            while second < end, bytes[second] & 0xC0 == 0x80 { second += 1 }
            var last = end - 1
            while last > second, bytes[last] & 0xC0 == 0x80 { last -= 1 }
            spacing.append((second, last, points))
        }
        guard !spacing.isEmpty, let tightened = pango_attr_list_copy(attributes) else { return }
        for line in spacing {
            guard let attribute = pango_attr_letter_spacing_new(Int32((line.points * scale).rounded(.down))) else { continue }
            attribute.pointee.start_index = UInt32(line.start)
            attribute.pointee.end_index = UInt32(line.end)
            pango_attr_list_insert(tightened, attribute)
        }
        pango_attr_list_ref(attributes)
        defer { pango_attr_list_unref(attributes) }
        pango_layout_set_attributes(pointer, tightened)
        pango_attr_list_unref(tightened)
        // Should a line now break elsewhere (rounding), the paragraph keeps its first setting.
        let moved =
            Int(pango_layout_get_line_count(pointer)) != count
            || (0..<count).contains { pango_layout_get_line_readonly(pointer, Int32($0))?.pointee.start_index != starts[$0] }
        if moved { pango_layout_set_attributes(pointer, attributes) }
    }
}
