import Foundation

/// A length in PDF points (1/72 inch). Decodes from a number of points or from
/// a string with a unit: `"2cm"`, `"20mm"`, `"1in"`, `"12pt"`.
public struct Length: Sendable, Hashable, Codable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    /// The length in points.
    public var points: Double

    /// Creates a length from points.
    public init(points: Double) { self.points = points }
    /// A length of `value` points.
    public init(floatLiteral value: Double) { points = value }
    /// A length of `value` points.
    public init(integerLiteral value: Int) { points = Double(value) }

    /// A length in millimetres.
    public static func mm(_ value: Double) -> Length { Length(points: value * 72 / 25.4) }
    /// A length in centimetres.
    public static func cm(_ value: Double) -> Length { Length(points: value * 720 / 25.4) }
    /// A length in inches.
    public static func inches(_ value: Double) -> Length { Length(points: value * 72) }

    /// Parses `"2cm"`, `"20 mm"`, `"1in"`, `"12pt"` or a bare number of points.
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(String, Double)] = [("mm", 72 / 25.4), ("cm", 720 / 25.4), ("in", 72), ("pt", 1)]
        for (suffix, factor) in units where trimmed.hasSuffix(suffix) {
            let number = trimmed.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)
            guard let value = Double(number), value.isFinite else { return nil }
            self.points = value * factor
            return
        }
        guard let value = Double(trimmed), value.isFinite else { return nil }
        self.points = value
    }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            guard number.isFinite else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a finite length")
            }
            points = number
            return
        }
        guard let text = try? container.decode(String.self) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "expected a length such as 12, \"2cm\", \"20mm\" or \"1in\"")
        }
        guard let parsed = Length(parsing: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "\"\(text)\" is not a length; use a number of points or \"2cm\", \"20mm\", \"1in\", \"12pt\"")
        }
        self = parsed
    }

    /// Encodes the value as a document writes it.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(points)
    }
}

extension Length {
    /// The least length a size (a width, a height) may have: less draws nothing a reader could
    /// see and leaves the drawing libraries with scales they refuse.
    package static let smallestSize = 1.0

    /// Throws unless the length is finite and within 0…14,400 points (200 inches);
    /// with `allowZero: false` it is a size and must be at least `smallestSize` (1 point).
    package func validate(path: String, allowZero: Bool = true) throws {
        guard points.isFinite, allowZero ? points >= 0 : points >= Length.smallestSize, points <= InputLimits.length else {
            throw FolioError(
                path: path,
                allowZero
                    ? "must be a length from 0 to 14400 points (200 inches)"
                    : "must be a length from 1 to 14400 points (200 inches)")
        }
    }
}
