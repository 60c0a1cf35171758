import CCairoPango
import FolioGraphics
import FolioModel

/// Shapes and measures text with Pango at 72 dpi with hinting off, so sizes are
/// the same in every backend: Folio's `TextShaper`. One engine per thread: Pango's font map is per-thread.
package final class PangoTextEngine: TextShaper {
    private let context: OpaquePointer
    /// A right-to-left document: text without a strong direction (digits) runs right to left, and
    /// alignments are logical: left is the start of a line (the right for Arabic), right its end.
    package let rightToLeft: Bool
    /// Font descriptions, made once (a thread's engine serves many documents, and a size is any
    /// number: at most `keptFontLimit`; a layout keeps a copy of its description, so letting one go
    /// changes nothing drawn).
    private var fonts = BoundedCache<FontSpec, FontDescription>(limit: PangoTextEngine.keptFontLimit)
    /// Single lines measured or drawn, so each is shaped once: in this render, and in the thread's
    /// later renders when the engine is the thread's (`forCurrentThread`). A line is never changed
    /// once shaped (drawing only reads it), so a kept line draws as a new one would.
    private var lineCache = BoundedCache<MetricsKey, TextLayout>(limit: PangoTextEngine.cachedLineLimit)
    /// The widths `lineWidth` measured, likewise.
    private var widthCache = BoundedCache<MetricsKey, Double>(limit: PangoTextEngine.cachedLineLimit)
    /// Wrapped paragraphs laid out, likewise (a template's headings and boilerplate, a table's
    /// recurring cells), costing the bytes of their text: at most `cachedParagraphLimit` paragraphs
    /// of `cachedParagraphBytes` bytes of text in all (a laid-out paragraph takes many times its
    /// text's bytes: glyphs, clusters, lines), none longer than `cachedParagraphLongest`.
    private var paragraphCache = BoundedCache<ParagraphKey, TextLayout>(
        limit: PangoTextEngine.cachedParagraphLimit, budget: PangoTextEngine.cachedParagraphBytes)
    package static let cachedParagraphLimit = 1024
    static let cachedParagraphBytes = 128 << 10
    static let cachedParagraphLongest = 8192

    private struct ParagraphKey: Hashable {
        let runs: [TextRun]
        let font: FontSpec
        let width: Double
        let alignment: Paragraph.Alignment
        let linkColor: Color?
        let lineSpacing: Double
        let direction: TextDirection?
    }
    /// The most lines (and widths) kept; beyond them the cache starts again (a long table's cells
    /// are each measured once and would otherwise all be kept).
    package static let cachedLineLimit = 4096
    /// The most fonts (descriptions, and layouts `lineWidth` measures with) kept.
    static let keptFontLimit = 256
    /// How many shaped lines are kept now.
    package var cachedLineCount: Int { lineCache.count }
    /// How many wrapped paragraphs are kept now.
    package var cachedParagraphCount: Int { paragraphCache.count }
    /// How many font descriptions are kept now.
    package var keptFontCount: Int { fonts.count }

    private struct MetricsKey: Hashable {
        let text: String
        let font: FontSpec
    }

    /// Creates an engine on this thread's default Pango font map for a document written in
    /// `rightToLeft`'s direction: wrapped text runs the direction it is given (layout gives a
    /// paragraph its document's or its language's), other text its first strong character's, and
    /// text with none of its own (numbers) the document's.
    package init(rightToLeft: Bool = false) {
        self.rightToLeft = rightToLeft
        // This thread's default font map; the first engine of a process that started loading fonts
        // takes over the font map they were loaded into.
        let fontMap = folio_font_map_for_this_thread()
        // Pango measures a font's metrics (for line spacing) in a context of its own at the font
        // map's resolution; at 72 dpi, as ours, it finds the fonts this engine loaded instead of
        // sorting every font again at 96 dpi (half the font matching of a cold render).
        pango_cairo_font_map_set_resolution(OpaquePointer(fontMap), 72)
        context = pango_font_map_create_context(fontMap)
        if rightToLeft { pango_context_set_base_dir(context, PANGO_DIRECTION_RTL) }
        // 72 dpi, no hinting, grey antialiasing: the settings the font loader's context has too, so
        // the fonts it loaded are the ones this context asks for.
        folio_configure_context(context)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(context))
        if let madeOppositeContext { g_object_unref(UnsafeMutableRawPointer(madeOppositeContext)) }
    }

    /// The language text is shaped in (fontconfig's tag, such as `zh-tw`), set per document.
    private(set) var language = ""

    /// The context's language before any document set one (Pango's default, from the environment).
    private lazy var defaultLanguage = pango_context_get_language(context)

    /// Shapes text as `tag` (a document's BCP 47 language) is written where that decides glyph forms:
    /// Chinese, Japanese and Korean, where one font serves several regions (Noto CJK's Simplified and
    /// Traditional Chinese, Japanese and Korean forms of one character), fontconfig then picks the
    /// region's. Other languages keep Pango's default (naming one costs every render font work, 5 %
    /// of W1). A change of language lets go of what the engine kept, shaped in the language before.
    package func setLanguage(_ tag: String) {
        let fontLanguage = PangoTextEngine.fontLanguage(tag)
        let language = ["zh", "ja", "ko"].contains(fontLanguage.prefix(2)) ? fontLanguage : ""
        guard language != self.language else { return }
        let original = defaultLanguage
        self.language = language
        pango_context_set_language(context, language.isEmpty ? original : pango_language_from_string(language))
        if let madeOppositeContext { pango_context_set_language(madeOppositeContext, pango_context_get_language(context)) }
        lineCache.removeAll()
        widthCache.removeAll()
        paragraphCache.removeAll()
        wrapMeasurers.removeAll()
    }

    /// fontconfig's language for a BCP 47 tag: Chinese by script or region (`zh-Hant`, `zh-TW` →
    /// `zh-tw`; `zh-HK` → `zh-hk`; `zh`, `zh-Hans` → `zh-cn`), others as written, lowercased.
    static func fontLanguage(_ tag: String) -> String {
        let parts = tag.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let primary = parts.first, primary.count <= 8, primary.allSatisfy({ $0.isASCII && $0.isLetter }) else { return "en" }
        guard primary == "zh" else { return primary + (parts.dropFirst().first { $0.count == 2 }.map { "-" + $0 } ?? "") }
        let rest = Set(parts.dropFirst())
        if rest.contains("hk") || rest.contains("mo") { return "zh-hk" }
        if rest.contains("hant") || rest.contains("tw") { return "zh-tw" }
        return "zh-cn"
    }

    /// This thread's engine for documents of `rightToLeft`'s direction, made on first use and kept
    /// for the thread's later renders (a batch's worker, a service's render thread): the lines,
    /// widths and paragraphs it shaped (a template's words and boilerplate, chart ticks, legends,
    /// labels, recurring cells) are shaped once per thread instead of once per document, and its
    /// fonts are looked up once.
    package static func forCurrentThread(rightToLeft: Bool) -> PangoTextEngine {
        let text = ThreadText.current
        if let engine = rightToLeft ? text.rightToLeft : text.leftToRight { return engine }
        let engine = PangoTextEngine(rightToLeft: rightToLeft)
        if rightToLeft { text.rightToLeft = engine } else { text.leftToRight = engine }
        return engine
    }

    /// Starts loading, on a thread of its own, the font configuration (fontconfig's files and cache)
    /// and the fonts `theme` sets text in most (`Theme.commonFonts`), for a process about to render:
    /// both then overlap reading the arguments and the document, instead of holding up the first
    /// text shaped (each font Pango meets first costs 0.3 ms). The process's first engine takes
    /// over that font map, waiting at most for the font being loaded. A theme of another family
    /// than the default's loads nothing but the configuration: its family is known only once
    /// fontconfig can say what is installed.
    package static func startLoadingFonts(for theme: Theme = .standard) {
        let requests =
            theme.fontFamily == FontSpec.defaultFamily
            ? theme.commonFonts.map { folio_font_request(size: $0.size, bold: $0.bold ? 1 : 0, italic: $0.italic ? 1 : 0) } : []
        folio_start_loading_fonts(theme.fontFamily, requests, requests.count)
    }

    /// The Pango font description for `font`, created once. (Pango never answers NULL, as GLib
    /// aborts when memory runs out; were it to, a layout given NULL keeps its context's font.)
    func fontDescription(_ font: FontSpec) -> OpaquePointer? {
        if let kept = fonts[font] { return kept.pointer }
        guard let description = FontDescription(font, family: InstalledFontFamilies.resolve(font.family)) else { return nil }
        fonts.keep(description, for: font)
        return description.pointer
    }

    /// One line of plain text, as a layout ready to draw.
    package func singleLine(_ text: String, font: FontSpec) -> ShapedText { line(text, font: font) }

    /// One line of plain text, as a Pango layout ready to draw.
    func line(_ text: String, font: FontSpec) -> TextLayout {
        let layout = TextLayout(context: context)
        pango_layout_set_font_description(layout.pointer, fontDescription(font))
        setText(text.replacingDisallowedCharacters, of: layout.pointer)
        return layout
    }

    /// Sets a plain text of a layout (one of its own or a measuring one used again): its Chinese
    /// characters shaped as Chinese where the document's language does not choose their forms.
    private func setText(_ text: String, of layout: OpaquePointer) {
        pango_layout_set_text(layout, text, -1)
        let attributes = language.isEmpty ? chineseLanguage(text) : nil
        if attributes != nil || pango_layout_get_attributes(layout) != nil {
            pango_layout_set_attributes(layout, attributes)
            if let attributes { pango_attr_list_unref(attributes) }
        }
    }

    /// Attributes shaping the Chinese characters of `text` in Chinese (`ChineseCharacters`), or nil
    /// when it has none. Only for documents whose language leaves the forms to fontconfig.
    private func chineseLanguage(_ text: String) -> OpaquePointer? {
        let ranges = ChineseCharacters.ranges(in: text)
        guard !ranges.isEmpty else { return nil }
        let attributes = pango_attr_list_new()
        addChinese(ranges, to: attributes)
        return attributes
    }

    /// Adds to `attributes` Chinese as the language of each of the byte `ranges`.
    private func addChinese(_ ranges: [Range<Int>], to attributes: OpaquePointer?) {
        // Simplified Chinese: the forms of Chinese characters in a document that does not say which.
        let chinese = pango_language_from_string("zh-cn")
        for range in ranges {
            guard let attribute = pango_attr_language_new(chinese) else { continue }
            attribute.pointee.start_index = UInt32(clamping: range.lowerBound)
            attribute.pointee.end_index = UInt32(clamping: range.upperBound)
            pango_attr_list_insert(attributes, attribute)
        }
    }

    /// `text` ready for Pango: characters it cannot take (NUL, controls, noncharacters) replaced by
    /// U+FFFD, so nothing after them is lost, and with a zero-width space every 32 characters
    /// inside words longer than 64, so a 40,000-character word wraps at those points instead
    /// of making Pango try every break in it (which takes quadratic time). Zero-width spaces
    /// draw nothing and are not inserted inside a character's combining marks.
    static func prepared(_ text: String) -> String {
        let clean = text.replacingDisallowedCharacters
        var run = 0
        var needsBreaks = false
        // Bytes, not scalars: any non-space byte counts, so a word of 64 bytes is a candidate; checked exactly below.
        for byte in clean.utf8 {
            run = byte == 0x20 || byte == 0x0A || byte == 0x09 ? 0 : run + 1
            if run > 64 {
                needsBreaks = true
                break
            }
        }
        guard needsBreaks else { return clean }
        var result = String.UnicodeScalarView()
        run = 0
        var previous: Unicode.Scalar = " "
        for scalar in clean.unicodeScalars {
            if scalar.hasWhiteSpaceProperty {
                run = 0
            } else {
                run += 1
                let joins =
                    previous == "\u{200D}" || scalar == "\u{200D}" || (0xFE00...0xFE0F).contains(scalar.value)
                    || [.nonspacingMark, .spacingMark, .enclosingMark].contains(scalar.properties.generalCategory)
                if run > 32, !joins {
                    result.append("\u{200B}")
                    run = 1
                }
            }
            result.append(scalar)
            previous = scalar
        }
        return String(result)
    }

    /// Wrapped rich text at `width` points; `justify` stretches every line but the last.
    package func wrapped(
        _ runs: [TextRun], font: FontSpec, width: Double, alignment: Paragraph.Alignment, linkColor: Color?,
        lineSpacing: Double, direction: TextDirection?
    ) -> ShapedText {
        let bytes = runs.reduce(0) { $0 + $1.text.utf8.count }
        guard bytes <= PangoTextEngine.cachedParagraphLongest else {
            return paragraphLayout(
                runs, font: font, width: width, alignment: alignment, linkColor: linkColor, lineSpacing: lineSpacing, direction: direction)
        }
        let key = ParagraphKey(
            runs: runs, font: font, width: width, alignment: alignment, linkColor: linkColor, lineSpacing: lineSpacing, direction: direction
        )
        if let kept = paragraphCache[key] { return kept }
        let layout = paragraphLayout(
            runs, font: font, width: width, alignment: alignment, linkColor: linkColor, lineSpacing: lineSpacing, direction: direction)
        paragraphCache.keep(layout, for: key, cost: bytes)
        return layout
    }

    /// The context of layouts set in the direction opposite to the engine's, once one was made.
    private var madeOppositeContext: OpaquePointer?

    /// The context of layouts set in the direction opposite to the engine's: made on first use, with
    /// the engine's settings and language.
    private var oppositeContext: OpaquePointer? {
        if let madeOppositeContext { return madeOppositeContext }
        let opposite = pango_font_map_create_context(pango_context_get_font_map(context))
        pango_context_set_base_dir(opposite, rightToLeft ? PANGO_DIRECTION_LTR : PANGO_DIRECTION_RTL)
        folio_configure_context(opposite)
        pango_context_set_language(opposite, pango_context_get_language(context))
        madeOppositeContext = opposite
        return opposite
    }

    /// Wrapped rich text at `width` points as a Pango layout, in `direction` (nil: its first letter's).
    func paragraphLayout(
        _ runs: [TextRun], font: FontSpec, width: Double, alignment: Paragraph.Alignment,
        linkColor: Color? = nil, lineSpacing: Double = 1.25, direction: TextDirection? = nil
    ) -> TextLayout {
        // A direction given is the layout's whatever its text (Pango's base direction, not its first
        // letter's): the engine's context for its own, the opposite one for the other.
        let rightToLeft = direction.map { $0 == .rightToLeft } ?? self.rightToLeft
        let opposite = rightToLeft != self.rightToLeft
        let layout = TextLayout(context: opposite ? (oppositeContext ?? context) : context)
        let pointer = layout.pointer
        if direction != nil { pango_layout_set_auto_dir(pointer, 0) }
        configure(pointer, font: font, width: width, alignment: alignment, lineSpacing: lineSpacing, rightToLeft: rightToLeft)
        var text = ""
        var links: [TextLayout.Link] = []
        var passages: [TextLayout.Passage] = []
        let attributes = pango_attr_list_new()
        var offset = 0
        for run in runs {
            let runText = PangoTextEngine.prepared(run.text)
            let length = runText.utf8.count
            let start = UInt32(offset)
            let end = UInt32(offset + length)
            func add(_ attribute: UnsafeMutablePointer<PangoAttribute>?) {
                guard let attribute else { return }
                attribute.pointee.start_index = start
                attribute.pointee.end_index = end
                pango_attr_list_insert(attributes, attribute)
            }
            if run.bold { add(pango_attr_weight_new(PANGO_WEIGHT_BOLD)) }
            if run.italic { add(pango_attr_style_new(PANGO_STYLE_ITALIC)) }
            if run.footnote != nil {
                // A footnote's number: raised a third of the font's size, at 70 % of it.
                add(pango_attr_rise_new(Int32(clamping: (font.size * 0.35 * Double(PANGO_SCALE)).clampedInt())))
                add(pango_attr_scale_new(0.7))
            }
            if let url = run.link {
                if run.footnote == nil { add(pango_attr_underline_new(PANGO_UNDERLINE_SINGLE)) }
                if let color = linkColor {
                    func channel(_ value: Double) -> UInt16 { UInt16(clamping: (value * 65535).clampedInt()) }
                    add(pango_attr_foreground_new(channel(color.red), channel(color.green), channel(color.blue)))
                }
                links.append(TextLayout.Link(url: url, startByte: offset, endByte: offset + length))
            }
            if let language = run.language {
                // Shaped in its language (its glyph forms: fontconfig's tag, zh-tw for zh-Hant), and
                // tagged with it in the PDF.
                add(pango_attr_language_new(pango_language_from_string(PangoTextEngine.fontLanguage(language))))
                passages.append(TextLayout.Passage(language: language, startByte: offset, endByte: offset + length))
            }
            text += runText
            offset += length
        }
        if language.isEmpty {
            // Passages in a language of their own keep its forms.
            let ranges = ChineseCharacters.ranges(in: text).filter { range in
                !passages.contains { $0.startByte < range.upperBound && range.lowerBound < $0.endByte }
            }
            addChinese(ranges, to: attributes)
        }
        pango_layout_set_text(pointer, text, -1)
        pango_layout_set_attributes(pointer, attributes)
        pango_attr_list_unref(attributes)
        if alignment == .justify {
            LooseLineTightening.tighten(pointer, text: text, space: lineWidth(" ", font: font), fontSize: font.size)
        }
        layout.links = links
        layout.passages = passages
        return layout
    }

    /// Sets a layout's font, wrapping width, alignment (by the start and end of lines of
    /// `rightToLeft`'s direction, the engine's unless given) and line spacing.
    private func configure(
        _ pointer: OpaquePointer, font: FontSpec, width: Double, alignment: Paragraph.Alignment, lineSpacing: Double,
        rightToLeft: Bool? = nil
    ) {
        let rightToLeft = rightToLeft ?? self.rightToLeft
        pango_layout_set_font_description(pointer, fontDescription(font))
        pango_layout_set_width(pointer, Int32(min(max(width, 1), 100_000) * Double(PANGO_SCALE)))
        pango_layout_set_wrap(pointer, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_line_spacing(pointer, Float(lineSpacing))
        // Pango swaps left and right for a paragraph whose direction differs from the context's, so
        // in a right-to-left context "right" is where a right-to-left paragraph starts.
        let start = rightToLeft ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT
        let end = rightToLeft ? PANGO_ALIGN_LEFT : PANGO_ALIGN_RIGHT
        switch alignment {
        case .left: pango_layout_set_alignment(pointer, start)
        case .center: pango_layout_set_alignment(pointer, PANGO_ALIGN_CENTER)
        case .right: pango_layout_set_alignment(pointer, end)
        case .justify:
            pango_layout_set_alignment(pointer, start)
            pango_layout_set_justify(pointer, 1)
        }
    }

    /// The shaped single line for `text`, shared by measuring and drawing.
    package func cachedLine(_ text: String, font: FontSpec) -> TextLayout {
        let key = MetricsKey(text: text, font: font)
        if let cached = lineCache[key] { return cached }
        let layout = line(text, font: font)
        lineCache.keep(layout, for: key)
        return layout
    }

    /// One reusable layout per font for `lineWidth`, and per wrapping setting for
    /// `wrappedHeight`: measuring sets their text and reads their size, keeping nothing else.
    private var lineMeasurers = BoundedCache<FontSpec, TextLayout>(limit: PangoTextEngine.keptFontLimit)
    /// Bounded: a table has a few column widths, but spans and many tables add more.
    private var wrapMeasurers = BoundedCache<WrapKey, TextLayout>(limit: 256)

    private struct WrapKey: Hashable {
        let font: FontSpec
        let width: Double
        let alignment: Paragraph.Alignment
        let lineSpacing: Double
    }

    package func lineWidth(_ text: String, font: FontSpec) -> Double {
        let key = MetricsKey(text: text, font: font)
        if let known = widthCache[key] { return known }
        let layout: TextLayout
        if let kept = lineMeasurers[font] {
            layout = kept
        } else {
            layout = line("", font: font)
            lineMeasurers.keep(layout, for: font)
        }
        setText(text.replacingDisallowedCharacters, of: layout.pointer)
        layout.invalidateMetrics()
        let width = layout.metrics.width
        widthCache.keep(width, for: key)
        return width
    }

    /// `runs` with soft hyphens where `language`'s dictionary (libhyphen) breaks their words.
    package func hyphenated(_ runs: [TextRun], language: String) -> [TextRun] {
        Hyphenator.hyphenated(runs, language: language)
    }

    package func wrappedHeight(_ text: String, font: FontSpec, width: Double, alignment: Paragraph.Alignment, lineSpacing: Double) -> Double
    {
        let key = WrapKey(font: font, width: width, alignment: alignment, lineSpacing: lineSpacing)
        let layout: TextLayout
        if let known = wrapMeasurers[key] {
            layout = known
        } else {
            layout = TextLayout(context: context)
            configure(layout.pointer, font: font, width: width, alignment: alignment, lineSpacing: lineSpacing)
            wrapMeasurers.keep(layout, for: key)
        }
        setText(PangoTextEngine.prepared(text), of: layout.pointer)
        layout.invalidateMetrics()
        return layout.metrics.height
    }

    /// The size of `text` on one line in `font`, shaped by Pango.
    package func measure(_ text: String, font: FontSpec) -> TextMetrics {
        cachedLine(text, font: font).metrics
    }
}
