import Foundation

/// An sRGB colour with alpha, written `#RRGGBB` or `#RRGGBBAA` in documents.
public struct Color: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Red, 0…1.
    public var red: Double
    /// Green, 0…1.
    public var green: Double
    /// Blue, 0…1.
    public var blue: Double
    /// Opacity, 0…1.
    public var alpha: Double

    /// A colour from components in 0…1.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Parses `#RGB`, `#RRGGBB` or `#RRGGBBAA`. Anything else is an error that names the text,
    /// never a silent fallback to another colour: `try Color(hex: "#E5484D")`.
    public init(hex: String) throws {
        guard let color = Color(parsing: hex) else {
            throw FolioError(path: "", "\"\(hex)\" is not a colour; expected #RGB, #RRGGBB or #RRGGBBAA")
        }
        self = color
    }

    /// Parses `#RGB`, `#RRGGBB` or `#RRGGBBAA`; nil for anything else.
    public init?(parsing hex: String) {
        var digits = Substring(hex)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        if digits.count == 3 { digits = Substring(digits.map { "\($0)\($0)" }.joined()) }
        guard digits.count == 6 || digits.count == 8, let value = UInt32(digits, radix: 16) else { return nil }
        let rgba = digits.count == 6 ? (value << 8 | 0xFF) : value
        self.init(
            red: Double(rgba >> 24 & 0xFF) / 255, green: Double(rgba >> 16 & 0xFF) / 255,
            blue: Double(rgba >> 8 & 0xFF) / 255, alpha: Double(rgba & 0xFF) / 255)
    }

    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque.
    public var hex: String {
        let digits = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = [UInt8(ascii: "#")]
        bytes.reserveCapacity(9)
        func byte(_ v: Double) {
            let b = (min(max(v, 0), 1) * 255).clampedInt()
            bytes.append(digits[b >> 4 & 15])
            bytes.append(digits[b & 15])
        }
        byte(red)
        byte(green)
        byte(blue)
        if alpha < 1 { byte(alpha) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The value as text.
    public var description: String { hex }

    /// The same colour with another alpha.
    public func withAlpha(_ alpha: Double) -> Color { Color(red: red, green: green, blue: blue, alpha: alpha) }

    /// This colour mixed with white: `amount` 0 keeps it, 1 gives white.
    public func lightened(_ amount: Double) -> Color {
        Color(
            red: red + (1 - red) * amount, green: green + (1 - green) * amount,
            blue: blue + (1 - blue) * amount, alpha: alpha)
    }

    /// This colour mixed with black: `amount` 0 keeps it, 1 gives black.
    public func darkened(_ amount: Double) -> Color {
        Color(red: red * (1 - amount), green: green * (1 - amount), blue: blue * (1 - amount), alpha: alpha)
    }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let color = Color(parsing: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "\"\(text)\" is not a colour; use #RRGGBB")
        }
        self = color
    }

    /// Encodes the value as a document writes it.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }

    /// Black.
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// White.
    public static let white = Color(red: 1, green: 1, blue: 1)
}

extension Color {
    /// Relative luminance (WCAG 2.1).
    public var luminance: Double {
        func channel(_ c: Double) -> Double { c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)
    }

    /// WCAG contrast ratio between this colour and `other`, from 1 to 21.
    public func contrast(with other: Color) -> Double {
        let a = luminance + 0.05
        let b = other.luminance + 0.05
        return max(a, b) / min(a, b)
    }

    /// This colour as it shows over `background`: a translucent colour blended with it, opaque.
    public func composited(over background: Color) -> Color {
        guard alpha < 1 else { return self }
        let a = min(max(alpha, 0), 1)
        return Color(
            red: red * a + background.red * (1 - a), green: green * a + background.green * (1 - a),
            blue: blue * a + background.blue * (1 - a), alpha: 1)
    }

    /// This colour as it shows on `background` (translucency blended in), darkened just enough
    /// to reach `ratio` against it (4.5 for body text); always opaque, so text drawn in it
    /// keeps its contrast in PDF and HTML alike.
    public func readable(on background: Color, ratio: Double = 4.5) -> Color {
        var color = composited(over: background)
        var step = 0
        while color.contrast(with: background) < ratio && step < 40 {
            let lighter = background.luminance < 0.5
            let k = lighter ? 0.06 : -0.06
            color = Color(
                red: min(max(color.red + (lighter ? (1 - color.red) : color.red) * k, 0), 1),
                green: min(max(color.green + (lighter ? (1 - color.green) : color.green) * k, 0), 1),
                blue: min(max(color.blue + (lighter ? (1 - color.blue) : color.blue) * k, 0), 1), alpha: color.alpha)
            step += 1
        }
        return color
    }

    /// Black or white, whichever reads better on this colour (drawn over white).
    public var labelColor: Color {
        let shown = composited(over: .white)
        return shown.contrast(with: .white) >= shown.contrast(with: .black) ? .white : .black
    }
}
