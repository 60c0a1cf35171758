/// HTML a custom element writes for itself, built as a tree so it is always safe: element names
/// come from a fixed list, attribute names from another, and every text and attribute value is
/// escaped when written. There is no way to write a script, a style or an event handler.
public indirect enum ElementMarkup: Sendable, Hashable {
    /// Elements a custom element may use.
    public enum Tag: String, Sendable, Hashable, CaseIterable {
        case div, span, p, strong, em, small, br, hr, ul, ol, li, dl, dt, dd, table, thead, tbody, tr, th, td, figure, figcaption
    }

    /// Attributes a custom element may set.
    public enum Attribute: String, Sendable, Hashable, CaseIterable {
        case `class`, title, lang, dir, role, colspan, rowspan, scope
        case ariaLabel = "aria-label"
        case ariaHidden = "aria-hidden"
    }

    /// Text, escaped.
    case text(String)
    /// An element with attributes and children.
    case element(Tag, [Attribute: String], [ElementMarkup])
    /// The element's own drawing, as inline SVG, at this place.
    case drawing

    /// An element with `attributes` and `children`.
    public static func tag(_ tag: Tag, _ attributes: [Attribute: String] = [:], _ children: ElementMarkup...) -> ElementMarkup {
        .element(tag, attributes, children)
    }
}
