/// Checks that decoding cannot express: finite numbers, matching lengths, safe link targets.
extension Document {
    /// Throws a `FolioError` naming the first field that is wrong, such as
    /// `elements[3].series[1].values: values must be finite numbers`.
    public func validate() throws {
        let (width, height) = page.pageSize
        guard width.isFinite, height.isFinite, width >= 72, height >= 72, width <= 14_400, height <= 14_400 else {
            throw FolioError(path: "page.size", "width and height must be between 72 and 14400 points")
        }
        let m = page.margins
        for (name, margin) in [("top", m.top), ("right", m.right), ("bottom", m.bottom), ("left", m.left)] {
            try margin.validate(path: "page.margins.\(name)")
        }
        guard [m.top, m.right, m.bottom, m.left].allSatisfy({ $0.points >= 0 }),
            width - m.left.points - m.right.points >= 72, height - m.top.points - m.bottom.points >= 72
        else {
            throw FolioError(path: "page.margins", "margins must be positive and leave at least 1 inch of content")
        }
        try theme?.validate(path: "theme")
        try metadata.validate(path: "metadata")
        try watermark?.validate(path: "watermark")
        if let protection {
            try protection.validate(path: "protection")
            guard metadata.conformance.archivalPart == nil else {
                throw FolioError(
                    path: "protection",
                    "PDF/A (metadata.conformance: \(metadata.conformance.rawValue)) forbids encryption: leave out protection or metadata.conformance"
                )
            }
        }
        if attachments.count > Attachment.maximumCount {
            throw FolioError(path: "attachments", "has \(attachments.count) files; at most \(Attachment.maximumCount) may be attached")
        }
        if !attachments.isEmpty, metadata.conformance == .archival {
            throw FolioError(
                path: "attachments",
                "PDF/A-2u (metadata.conformance: pdfa-2u) carries no attached files but PDF/A ones: make it pdfa-3u, which carries any")
        }
        // Names are one file whatever their case (as on a case-insensitive disk, and to a reader).
        var names: [String: String] = [:]
        for (index, attachment) in attachments.enumerated() {
            try attachment.validate(path: "attachments[\(index)]")
            let key = attachment.shownName.lowercased()
            if let earlier = names[key] {
                let also = earlier == attachment.shownName ? "" : " (as \"\(earlier.escapingInvisibleControls)\")"
                throw FolioError(
                    path: "attachments[\(index)].name",
                    "\"\(attachment.shownName.escapingInvisibleControls)\" is attached twice\(also): give each file its own name")
            }
            names[key] = attachment.shownName
        }
        try header?.validate(path: "header")
        try footer?.validate(path: "footer")
        var blockCount = elements.count
        for case .columns(let columns) in elements { blockCount += columns.items.count }
        if blockCount > InputLimits.blocks {
            throw FolioError(path: "elements", "has \(blockCount) blocks; at most \(InputLimits.blocks) are allowed")
        }
        for (index, block) in elements.enumerated() {
            try block.validate(path: "elements[\(index)]")
        }
        try validateInternalLinks()
        try validateFootnotes()
    }
}

extension Document {
    /// Anchors that subtitles and sections define.
    package var anchors: Set<String> {
        Set(elements.compactMap { $0.content?.anchor })
    }

    /// Every `[text](#id)` link must name an anchor of this document.
    func validateInternalLinks() throws {
        let known = anchors
        func check(_ text: RichText, _ path: String) throws {
            for run in text.runs {
                guard let anchor = run.link?.anchor else { continue }
                if !known.contains(anchor) {
                    throw FolioError(path: path, "link to \"#\(anchor)\", but no subtitle or section has id \"\(anchor)\"")
                }
            }
        }
        func visit(_ block: Block, _ path: String) throws {
            guard let content = block.content else { return }
            for (text, field) in content.linkedTexts { try check(text, "\(path).\(field)") }
            for (nested, field) in content.nestedBlocks { try visit(nested, "\(path).\(field)") }
        }
        for (index, block) in elements.enumerated() { try visit(block, "elements[\(index)]") }
    }
}

extension Block {
    /// Throws a `FolioError` for the first invalid field under `path`: the kind's own checks.
    package func validate(path: String) throws {
        try content?.validate(path: path)
    }
}

extension Table {
    /// Throws for the first table dimension, cell or span out of bounds.
    package func validate(path: String) throws {
        let widest = rows.reduce(header?.count ?? 0) { max($0, $1.count) }
        if widest > InputLimits.tableColumns {
            throw FolioError(path: "\(path).rows", "has \(widest) columns; at most \(InputLimits.tableColumns) are allowed")
        }
        if rows.count > InputLimits.tableRows {
            throw FolioError(path: "\(path).rows", "has \(rows.count) rows; at most \(InputLimits.tableRows) are allowed")
        }
        func checkCells(_ cells: [String], _ rowPath: @autoclosure () -> String) throws {
            for (index, cell) in cells.enumerated()
            where cell.utf8.count > InputLimits.tableCellScalars
                && cell.unicodeScalars.count > InputLimits.tableCellScalars
            {
                throw FolioError(
                    path: "\(rowPath())[\(index)]",
                    "a table cell holds at most \(InputLimits.tableCellScalars) characters; put longer text in a paragraph")
            }
        }
        func checkLinks(_ cells: [String], _ rowPath: @autoclosure () -> String) throws {
            for (index, cell) in cells.enumerated() where RichText.mayHoldMarkup(cell) {
                try RichText(cell).validateLinks(path: "\(rowPath())[\(index)]")
            }
        }
        if let header {
            try checkCells(header, "\(path).header")
            try checkLinks(header, "\(path).header")
        }
        for (index, row) in rows.enumerated() { try checkLinks(row, "\(path).rows[\(index)]") }
        for (index, row) in rows.enumerated() { try checkCells(row, "\(path).rows[\(index)]") }
        for (index, sparkline) in sparklines.enumerated() {
            guard (0..<rows.count).contains(sparkline.row), (0..<InputLimits.tableColumns).contains(sparkline.cell) else {
                throw FolioError(path: "\(path).sparklines[\(index)]", "names a row or cell the table does not have")
            }
            if sparkline.values.count > 1000 {
                throw FolioError(
                    path: "\(path).rows[\(sparkline.row)][\(sparkline.cell)].sparkline",
                    "has \(sparkline.values.count) values; at most 1,000")
            }
            if let bad = sparkline.values.firstIndex(where: { $0.map { !$0.isFinite || abs($0) > InputLimits.magnitude } ?? false }) {
                throw FolioError(
                    path: "\(path).rows[\(sparkline.row)][\(sparkline.cell)].sparkline[\(bad)]",
                    "must be a finite number between -1e15 and 1e15")
            }
        }
        if !rowKinds.isEmpty, rowKinds.count != rows.count {
            throw FolioError(path: "\(path).rowKinds", "has \(rowKinds.count) entries for \(rows.count) rows; give one per row")
        }
        for (index, kind) in rowKinds.enumerated() where !(0..<16).contains(kind.level) {
            throw FolioError(path: "\(path).rowKinds[\(index)].level", "a group level is 0 to 15")
        }
        for (index, highlight) in highlights.enumerated()
        where !(0..<rows.count).contains(highlight.row) || !(0..<InputLimits.tableColumns).contains(highlight.cell ?? 0) {
            throw FolioError(path: "\(path).highlights[\(index)]", "names a row or cell the table does not have")
        }
        if report != nil, rows.isEmpty, rowKinds.isEmpty, header == nil {
            throw FolioError(
                path: "\(path).records", "a table of records is made into rows by Folio's DocumentDecoder (or Document.expandingReports())")
        }
        for (index, span) in spans.enumerated() {
            guard (1...64).contains(span.span), span.row >= -1, span.row < rows.count, span.cell >= 0 else {
                throw FolioError(path: "\(path).spans[\(index)]", "span must be 1 to 64, in a row and cell of the table")
            }
        }
        if let language, !Metadata.isLanguageTag(language) {
            throw FolioError(path: "\(path).language", "\"\(language)\" is not a BCP 47 language tag such as en, fr-CA or zh-Hant")
        }
        for entry in cellLanguages where !Metadata.isLanguageTag(entry.language) {
            let cell = entry.row < 0 ? "header[\(entry.cell)]" : "rows[\(entry.row)][\(entry.cell)]"
            throw FolioError(
                path: "\(path).\(cell).language", "\"\(entry.language)\" is not a BCP 47 language tag such as en, fr-CA or zh-Hant")
        }
        let columns = columnCount
        if columns == 0 {
            throw FolioError(path: "\(path).rows", "a table needs a header or at least one cell")
        }
        if columns > InputLimits.tableColumns {
            throw FolioError(path: "\(path).rows", "spans \(columns) columns; at most \(InputLimits.tableColumns) are allowed")
        }
        for (index, width) in (widths ?? []).enumerated() {
            switch width {
            case .fixed(let length): try length.validate(path: "\(path).widths[\(index)]", allowZero: false)
            case .percent(let value) where !(value > 0 && value <= 100):
                throw FolioError(path: "\(path).widths[\(index)]", "a percentage must be above 0% and at most 100%")
            default: break
            }
        }
    }
}

extension Metadata {
    func validate(path: String) throws {
        guard Metadata.isLanguageTag(language) else {
            throw FolioError(path: "\(path).language", "\"\(language)\" is not a BCP 47 language tag such as en, fr-CA or zh-Hant")
        }
    }

    /// Whether `tag` has a BCP 47 language tag's form: letters, digits and hyphens, at most 35.
    package static func isLanguageTag(_ tag: String) -> Bool {
        let scalars = tag.unicodeScalars
        return !scalars.isEmpty && scalars.count <= 35 && scalars.first != "-"
            && scalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// The primary subtag of a language tag, in lower case: `fr` for `fr-CA`, `pt` for `pt_BR`.
    package static func primaryLanguage(of tag: String) -> String {
        tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
    }
}

extension RichText {
    /// Throws naming `path` for the first link target the text wrote that is no link a document may hold.
    func validateLinks(path: String) throws {
        for run in runs {
            if let link = run.rejectedLink {
                throw FolioError(
                    path: path,
                    "link target \"\(String(link.prefix(100)).escapingInvisibleControls)\" must be an http(s) or mailto URL, or #anchor, without spaces, quotes or control characters"
                )
            }
        }
    }
}
