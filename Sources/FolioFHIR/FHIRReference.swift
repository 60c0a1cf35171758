import FolioModel

/// What a FHIR reference's text names, checked against FHIR R4's grammar: a resource by type and id
/// (`Patient/123`, `https://host/fhir/Patient/123/_history/2`), or a Bundle entry by its
/// `urn:uuid:` or `urn:oid:` full URL. Anything else (`Patient/../../etc/passwd`, `Patient/a/b`,
/// an id with a NUL, a space or a letter outside ASCII) names nothing, so no text can reach
/// another resource's key by a trick of its spelling.
package enum FHIRReference: Hashable {
    /// `TYPE/ID`, with the version and any server base dropped.
    case resource(type: String, id: String)
    /// A Bundle entry's full URL, lowercased (`urn:uuid:…` or `urn:oid:…`).
    case urn(String)

    /// The key rows are stored and matched by: `TYPE/ID`, or the URN.
    package var key: String {
        switch self {
        case .resource(let type, let id): return "\(type)/\(id)"
        case .urn(let urn): return urn
        }
    }

    /// Whether `id` is a FHIR id: 1–64 of A–Z, a–z, 0–9, '-' and '.' (FHIR R4, 2.24.0.1 `id`).
    package static func isID(_ id: some StringProtocol) -> Bool {
        (1...64).contains(id.utf8.count) && id.utf8.allSatisfy(isIDByte)
    }

    private static func isIDByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D || byte == 0x2E
    }

    /// The reference `text` names, or nil when FHIR's grammar allows no such reference:
    /// `[BASE/]TYPE/ID[/_history/VERSION]`, where BASE is an `http`/`https` URL, TYPE a resource
    /// type (a capital letter, then letters) and ID and VERSION FHIR ids; or `urn:uuid:` with a
    /// UUID, or `urn:oid:` with an OID.
    package init?(_ text: String) {
        guard text.utf8.count <= 4096 else { return nil }
        if let urn = FHIRReference.urn(text) {
            self = .urn(urn)
            return
        }
        var parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count >= 4, parts[parts.count - 2] == "_history" {
            guard FHIRReference.isID(parts[parts.count - 1]) else { return nil }
            parts.removeLast(2)
        }
        guard parts.count >= 2 else { return nil }
        let type = parts[parts.count - 2]
        let id = parts[parts.count - 1]
        guard FHIRReference.isResourceType(type), FHIRReference.isID(id) else { return nil }
        if parts.count > 2 {
            // An absolute reference: http(s)://host[/path…]/TYPE/ID, no empty or dot segment in its base.
            let base = parts[..<(parts.count - 2)]
            guard base.count >= 3, base[base.startIndex] == "http:" || base[base.startIndex] == "https:",
                base[base.startIndex + 1].isEmpty,
                base.dropFirst(2).allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && $0.utf8.allSatisfy(FHIRReference.isBaseByte) })
            else { return nil }
        }
        self = .resource(type: String(type), id: String(id))
    }

    /// A resource type's name: a capital ASCII letter, then ASCII letters (at most 64).
    package static func isResourceType(_ name: some StringProtocol) -> Bool {
        guard let first = name.utf8.first, (0x41...0x5A).contains(first), name.utf8.count <= 64 else { return false }
        return name.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }

    /// A byte FHIR allows in a reference's server base (`[A-Za-z0-9\-\\\.\:\%\$]`, plus '_' and '~' of URLs).
    private static func isBaseByte(_ byte: UInt8) -> Bool {
        isIDByte(byte) || byte == 0x3A || byte == 0x25 || byte == 0x24 || byte == 0x5F || byte == 0x7E
    }

    /// `text` lowercased when it is `urn:uuid:` and a UUID (8-4-4-4-12 hex digits) or `urn:oid:` and an
    /// OID (numbers joined by dots, the first 0, 1 or 2, no leading zeros); else nil.
    package static func urn(_ text: String) -> String? {
        let lower = text.lowercased()
        if lower.hasPrefix("urn:uuid:") {
            let uuid = Array(lower.utf8.dropFirst(9))
            guard uuid.count == 36 else { return nil }
            for (position, byte) in uuid.enumerated() {
                if [8, 13, 18, 23].contains(position) {
                    guard byte == 0x2D else { return nil }
                } else {
                    guard (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) else { return nil }
                }
            }
            return lower
        }
        if lower.hasPrefix("urn:oid:") {
            let arcs = lower.dropFirst(8).split(separator: ".", omittingEmptySubsequences: false)
            guard arcs.count >= 2, arcs.count <= 64, let first = arcs.first, ["0", "1", "2"].contains(first) else { return nil }
            for arc in arcs {
                guard !arc.isEmpty, arc.count <= 20, arc.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                    arc == "0" || arc.first != "0"
                else { return nil }
            }
            return lower
        }
        return nil
    }
}
