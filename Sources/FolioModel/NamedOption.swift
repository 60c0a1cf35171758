/// A choice written as a word in documents (`align: right`, `kind: tip`). Decoders use
/// the names to answer a misspelling with the words that would have worked.
package protocol NamedOption {
    /// Every accepted word, in declaration order.
    static var optionNames: [String] { get }
}

extension NamedOption where Self: CaseIterable & RawRepresentable, RawValue == String {
    /// Every option's name, for error messages.
    package static var optionNames: [String] { allCases.map(\.rawValue) }
}
