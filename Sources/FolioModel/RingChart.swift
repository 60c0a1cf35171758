/// CareKit's ring items and activity rings: nested arcs filled to a value 0…1.
public struct RingChart: Sendable, Hashable, Codable {
    /// Outermost first; a value above 1 wraps round with a visible overlap.
    public var rings: [ChartSegment]
    /// Text in the centre.
    public var centerLabel: String?

    /// Rings from the outside in, with a centre label.
    public init(rings: [ChartSegment], centerLabel: String? = nil) {
        self.rings = rings
        self.centerLabel = centerLabel
    }
}
