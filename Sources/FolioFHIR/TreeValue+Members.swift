import FolioData

extension TreeValue {
    /// The keys of an object (none for any other value).
    var objectKeys: [String] {
        guard case .object(let members) = self else { return [] }
        return members.map(\.key)
    }

    /// The text of a string value, else nil.
    var textOrNil: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }
}
