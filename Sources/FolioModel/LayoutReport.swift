/// What pagination did with a document: where each block went and every rule it
/// had to bend. `folio render --layout-report FILE` writes it as JSON.
public struct LayoutReport: Sendable, Hashable, Codable {
    /// One block's placement.
    public struct Block: Sendable, Hashable, Codable {
        /// The block's field path, such as `elements[7]`.
        public var path: String
        /// Its `type` name.
        public var type: String
        /// Pages (from 1) the block appears on.
        public var pages: [Int]
        /// For tables: the data rows on each page, `[first, last]` from 0; a row split inside its cells appears twice.
        public var rows: [[Int]]?

        /// Where the block at `path` went: its pages and, for tables, the rows on each.
        public init(path: String, type: String, pages: [Int], rows: [[Int]]? = nil) {
            self.path = path
            self.type = type
            self.pages = pages
            self.rows = rows
        }
    }

    /// Something a reader might notice.
    public struct Warning: Sendable, Hashable, Codable {
        /// What rule bent.
        public enum Kind: String, Sendable, Hashable, Codable {
            /// A keep-together or keep-with-next rule could not be kept.
            case keepBroken
            /// A block taller than a page was shrunk to fit.
            case scaledToFit
            /// A table row taller than a page was split inside its cells.
            case rowSplit
            /// Content did not fit its box and was cut.
            case overflow
            /// Text has characters no installed font can draw.
            case missingGlyphs
            /// An image has no text alternative.
            case missingAlt
            /// A chart has more untinted series than distinguishable palette colours.
            case colorsRepeat
            /// A chart's series colour has less than 3:1 contrast against the page (WCAG 1.4.11).
            case lowContrast
        }

        /// What rule bent.
        public var kind: Kind
        /// The field path of the block concerned.
        public var path: String
        /// The page, when the warning is about one.
        public var page: Int?
        /// What happened, in words.
        public var message: String

        /// A warning of `kind` about `path`.
        public init(kind: Kind, path: String, page: Int? = nil, message: String) {
            self.kind = kind
            self.path = path
            self.page = page
            self.message = message
        }
    }

    /// The number of pages.
    public var pages: Int
    /// Every block and its pages.
    public var blocks: [Block]
    /// Every rule that bent.
    public var warnings: [Warning]

    /// A report of `pages` pages.
    public init(pages: Int = 0, blocks: [Block] = [], warnings: [Warning] = []) {
        self.pages = pages
        self.blocks = blocks
        self.warnings = warnings
    }
}
