extension Double {
    /// This value rounded by `rule` as an `Int`, never trapping: NaN gives 0 and values
    /// beyond ±2⁵³ are clamped there. Every Double → Int conversion in Folio goes through it.
    package func clampedInt(_ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int {
        guard !isNaN else { return 0 }
        let limit = 9_007_199_254_740_992.0
        return Int(Swift.min(Swift.max(rounded(rule), -limit), limit))
    }
}
