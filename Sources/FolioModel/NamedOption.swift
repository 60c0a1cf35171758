/// A choice written as a word in documents (`align: right`, `kind: tip`). Decoding a word no
/// case has answers with the words that would have worked.
public protocol NamedOption {
    /// Every accepted word, in declaration order.
    static var optionNames: [String] { get }
}

extension NamedOption where Self: CaseIterable & RawRepresentable, RawValue == String {
    /// Every option's name, for error messages.
    public static var optionNames: [String] { allCases.map(\.rawValue) }
}

extension NamedOption where Self: CaseIterable & RawRepresentable & Decodable, RawValue == String {
    /// Decodes the word; an unknown one is an error that lists every accepted word. (Declared
    /// here, by the type, so decoders need no run-time protocol check per decoded type.)
    public init(from decoder: any Decoder) throws {
        let word = try decoder.singleValueContainer().decode(String.self)
        guard let value = Self(rawValue: word) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "unknown value \"\(word)\"; expected one of: \(Self.optionNames.joined(separator: ", "))"))
        }
        self = value
    }
}
