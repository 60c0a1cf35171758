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
        guard [m.top, m.right, m.bottom, m.left].allSatisfy({ $0.points >= 0 }),
              width - m.left.points - m.right.points >= 72, height - m.top.points - m.bottom.points >= 72 else {
            throw FolioError(path: "page.margins", "margins must be positive and leave at least 1 inch of content")
        }
        try theme?.validate(path: "theme")
        for (index, block) in elements.enumerated() {
            try block.validate(path: "elements[\(index)]")
        }
        try validateInternalLinks()
    }
}

extension Document {
    /// Anchors that subtitles and sections define.
    public var anchors: Set<String> {
        Set(elements.compactMap { block -> String? in
            switch block {
            case .subtitle(let subtitle): return subtitle.id
            case .section(let section): return section.id
            default: return nil
            }
        })
    }

    /// Every `[text](#id)` link must name an anchor of this document.
    func validateInternalLinks() throws {
        let known = anchors
        func check(_ text: RichText, _ path: String) throws {
            for run in text.runs {
                guard let link = run.link, link.hasPrefix("#") else { continue }
                if !known.contains(String(link.dropFirst())) {
                    throw FolioError(path: path, "link to \"\(link)\", but no subtitle or section has id \"\(link.dropFirst())\"")
                }
            }
        }
        func visit(_ block: Block, _ path: String) throws {
            switch block {
            case .paragraph(let paragraph): try check(paragraph.text, "\(path).text")
            case .message(let message): try check(message.text, "\(path).text")
            case .columns(let columns):
                for (index, item) in columns.items.enumerated() { try visit(item, "\(path).items[\(index)]") }
            default: break
            }
        }
        for (index, block) in elements.enumerated() { try visit(block, "elements[\(index)]") }
    }
}

extension Block {
    /// Throws a `FolioError` for the first invalid field under `path`.
    public func validate(path: String) throws {
        switch self {
        case .subtitle, .pageBreak:
            break
        case .section(let section):
            if section.title.isEmpty { throw FolioError(path: "\(path).title", "a section needs a title") }
        case .columns(let columns):
            if columns.items.isEmpty { throw FolioError(path: "\(path).items", "columns need at least one item") }
            if let widths = columns.widths {
                if widths.count != columns.items.count {
                    throw FolioError(path: "\(path).widths", "has \(widths.count) widths for \(columns.items.count) items")
                }
                if let bad = widths.firstIndex(where: { !($0 > 0) || !$0.isFinite }) {
                    throw FolioError(path: "\(path).widths[\(bad)]", "widths must be positive numbers")
                }
            }
            for (index, item) in columns.items.enumerated() {
                switch item {
                case .table, .section, .pageBreak, .columns:
                    throw FolioError(path: "\(path).items[\(index)]", "a \(item.typeName) cannot stand in a column")
                default:
                    try item.validate(path: "\(path).items[\(index)]")
                }
            }
        case .paragraph(let paragraph):
            try paragraph.text.validateLinks(path: "\(path).text")
        case .image(let image):
            if let width = image.width, !(width.points > 0) {
                throw FolioError(path: "\(path).width", "width must be a positive length")
            }
            if case .data(let data) = image.source, data.isEmpty {
                throw FolioError(path: "\(path).data", "image data is empty")
            }
        case .table(let table):
            if table.columnCount == 0 {
                throw FolioError(path: "\(path).rows", "a table needs a header or at least one cell")
            }
        case .chart(let chart):
            try chart.validate(path: path)
        case .message(let message):
            try message.text.validateLinks(path: "\(path).text")
        case .widgets(let widgets):
            if widgets.items.isEmpty {
                throw FolioError(path: "\(path).items", "a widgets row needs at least one item")
            }
        }
    }
}

extension RichText {
    /// The URL schemes a link may use.
    public static let allowedSchemes = ["http", "https", "mailto"]

    /// Whether `url` starts with an allowed scheme, or is an internal `#anchor`.
    public static func isAllowedLink(_ url: String) -> Bool {
        if url.hasPrefix("#") { return url.count > 1 }
        guard let colon = url.firstIndex(of: ":") else { return false }
        return allowedSchemes.contains(url[..<colon].lowercased())
    }

    func validateLinks(path: String) throws {
        for run in runs {
            if let link = run.link, !RichText.isAllowedLink(link) {
                throw FolioError(path: path, "link target \"\(link)\" must be an http(s) or mailto URL, or #anchor")
            }
        }
    }
}
