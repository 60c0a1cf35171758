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
