/// Paper size, orientation and margins of every page.
public struct PageSetup: Sendable, Hashable, Codable {
    /// The paper size before orientation is applied.
    public enum Size: Sendable, Hashable, Codable {
        case a4
        case letter
        case custom(width: Length, height: Length)

        /// The paper of the document's region when its size is not given, as CareKit chose it:
        /// US Letter for a language tag whose region uses it (`en-US`, `es-MX`, `fr-CA`, …), else A4.
        public static func standard(forLanguage tag: String) -> Size {
            let parts = tag.split(separator: "-").dropFirst()
            // The region is the two-letter (or three-digit) subtag after the language and any script.
            guard let region = parts.first(where: { $0.count == 2 || ($0.count == 3 && $0.allSatisfy(\.isNumber)) }) else { return .a4 }
            return letterRegions.contains(region.uppercased()) ? .letter : .a4
        }

        /// Regions whose usual paper is US Letter.
        private static let letterRegions: Set<String> = [
            "US", "CA", "MX", "PH", "CL", "CO", "VE", "CR", "GT", "PA", "PR", "SV", "DO", "NI", "BZ", "HN",
        ]

        /// Width and height in points, portrait.
        public var points: (width: Double, height: Double) {
            switch self {
            case .a4: return (595.2756, 841.8898)
            case .letter: return (612, 792)
            case .custom(let width, let height): return (width.points, height.points)
            }
        }

        private struct Custom: Codable {
            var width: Length
            var height: Length
        }

        /// Decodes the value from a document, as written in JSON or YAML.
        public init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let name = try? container.decode(String.self) {
                switch name.lowercased() {
                case "a4": self = .a4
                case "letter", "us-letter", "usletter": self = .letter
                default:
                    throw DecodingError.dataCorruptedError(
                        in: container,
                        debugDescription: "unknown page size \"\(name)\"; use \"A4\", \"Letter\" or {width, height}")
                }
                return
            }
            let custom = try container.decode(Custom.self)
            self = .custom(width: custom.width, height: custom.height)
        }

        /// Encodes the value as a document writes it.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .a4: try container.encode("A4")
            case .letter: try container.encode("Letter")
            case .custom(let width, let height): try container.encode(Custom(width: width, height: height))
            }
        }
    }

    /// Portrait or landscape.
    public enum Orientation: String, Sendable, Hashable, Codable, CaseIterable, NamedOption {
        case portrait, landscape
    }

    /// Space between the paper edge and the content, per side.
    public struct Margins: Sendable, Hashable, Codable {
        /// Top margin.
        public var top: Length
        /// Right margin.
        public var right: Length
        /// Bottom margin.
        public var bottom: Length
        /// Left margin.
        public var left: Length

        /// The same margin on every side.
        public init(all: Length) {
            top = all
            right = all
            bottom = all
            left = all
        }
        /// Margins on each side.
        public init(top: Length, right: Length, bottom: Length, left: Length) {
            self.top = top
            self.right = right
            self.bottom = bottom
            self.left = left
        }

        /// Decodes the value from a document, as written in JSON or YAML.
        public init(from decoder: Decoder) throws {
            // A mapping of sides, else one length for all (its error, if any, says what a length is).
            guard let container = try? decoder.container(keyedBy: CodingKeys.self) else {
                self.init(all: try decoder.singleValueContainer().decode(Length.self))
                return
            }
            let fallback = Length.cm(2)
            self.init(
                top: try container.decodeIfPresent(Length.self, forKey: .top) ?? fallback,
                right: try container.decodeIfPresent(Length.self, forKey: .right) ?? fallback,
                bottom: try container.decodeIfPresent(Length.self, forKey: .bottom) ?? fallback,
                left: try container.decodeIfPresent(Length.self, forKey: .left) ?? fallback)
        }
    }

    /// Paper size.
    public var size: Size
    /// Portrait or landscape.
    public var orientation: Orientation
    /// Margins.
    public var margins: Margins

    /// A4 portrait with 2 cm margins unless told otherwise; without an orientation, a custom size is
    /// the page as written (wide when its width is the larger), A4 and Letter portrait.
    public init(size: Size = .a4, orientation: Orientation? = nil, margins: Margins = Margins(all: .cm(2))) {
        self.size = size
        self.orientation = orientation ?? Self.asWritten(size)
        self.margins = margins
    }

    /// The orientation of `size` as written: landscape for a custom size wider than tall.
    static func asWritten(_ size: Size) -> Orientation {
        let (width, height) = size.points
        if case .custom = size, width > height { return .landscape }
        return .portrait
    }

    /// The page's width and height in points, orientation applied.
    public var pageSize: (width: Double, height: Double) {
        let (w, h) = size.points
        switch orientation {
        case .portrait: return (min(w, h), max(w, h))
        case .landscape: return (max(w, h), min(w, h))
        }
    }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        size = try container.decode(.size, default: .a4)
        // A size given as width and height is that page as written unless an orientation turns it.
        orientation = try container.decode(.orientation, default: Self.asWritten(size))
        margins = try container.decode(.margins, default: Margins(all: .cm(2)))
    }
}
