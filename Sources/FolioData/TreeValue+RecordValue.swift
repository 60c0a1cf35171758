import FolioModel

extension TreeValue {
    /// A record value as a template tree, for the template filters.
    package init(_ value: RecordValue) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .number(let number): self = .number(number)
        case .text(let text): self = .string(text)
        case .list(let items): self = .array(items.map(TreeValue.init))
        case .object(let members): self = .object(members.map { (key: $0.key, value: TreeValue($0.value)) })
        }
    }
}

extension RecordValue {
    /// A template tree as a record value.
    package init(_ tree: TreeValue) {
        switch tree {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .number(let number): self = .number(number)
        case .string(let text): self = .text(text)
        case .array(let items): self = .list(items.map(RecordValue.init))
        case .object(let members): self = .object(members.map { Member(key: $0.key, value: RecordValue($0.value)) })
        }
    }
}
