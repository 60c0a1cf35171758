import FolioData
import FolioModel
import Foundation

/// Who wrote, attested and keeps a document, and whom to call about the patient, named from the
/// resources the Bundle or export holds: a Practitioner, a PractitionerRole (its practitioner, its
/// role and its organisation), an Organization, a Device, the Patient, a RelatedPerson, a CareTeam.
struct FHIRPeople {
    let words: FHIRWords
    /// Resolves a reference made by `container`.
    let resolve: (TreeValue?, TreeValue) -> TreeValue?

    /// The name of whoever `reference` (made by `container`) names, or its display; nil when neither.
    func name(_ reference: TreeValue?, in container: TreeValue) -> String? {
        guard let reference else { return nil }
        guard let resource = resolve(reference, container) else { return FHIRText.display(reference) }
        return name(of: resource) ?? FHIRText.display(reference)
    }

    /// A resource's name as an author or contact: a person's name, an organisation's, a device's, a
    /// practitioner in a role ("Dr Ann Smith, general practitioner, Example Clinic").
    func name(of resource: TreeValue) -> String? {
        switch FHIRResource.string(resource, "resourceType") {
        case "PractitionerRole":
            let practitioner = name(resource["practitioner"], in: resource)
            let role = FHIRText.concepts(FHIRResource.array(resource, "code"), words: words)
            let organization = name(resource["organization"], in: resource)
            let parts = [practitioner, role, organization].compactMap { $0 }
            return parts.isEmpty ? nil : parts.joined(separator: words[.listSeparator])
        case "Device":
            let named = FHIRResource.array(resource, "deviceName").lazy.compactMap { FHIRResource.string($0, "name") }.first
            let model = [FHIRResource.string(resource, "manufacturer"), FHIRResource.string(resource, "modelNumber")].compactMap { $0 }
            return named ?? (model.isEmpty ? FHIRText.concept(resource["type"], words: words) : model.joined(separator: " "))
        case "CareTeam":
            return FHIRResource.string(resource, "name")
        case "RelatedPerson":
            let person = FHIRIndex.personName(resource)
            let relationship = FHIRText.concepts(FHIRResource.array(resource, "relationship"), words: words)
            return [person, relationship.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ").nilIfEmpty
        default:
            return FHIRText.name(of: resource)
        }
    }

    /// The people the patient's record names to call: the Patient's contacts (their relationship and
    /// how to reach them), its general practitioners, and the members of its care teams.
    func whomToCall(patient: TreeValue?, careTeams: [TreeValue]) -> [TreeValue] {
        var rows: [TreeValue] = []
        func row(_ name: String?, _ role: String?, _ reach: String?) {
            guard let name, !name.isEmpty else { return }
            rows.append(
                .object([
                    ("name", .string(name)), ("role", role.map(TreeValue.string) ?? .null), ("reach", reach.map(TreeValue.string) ?? .null),
                ]))
        }
        for contact in FHIRResource.array(patient, "contact").prefix(20) {
            let person = FHIRIndex.personName(.object([("name", .array(contact["name"].map { [$0] } ?? []))]))
            let organization = name(contact["organization"], in: patient ?? .null)
            row(
                person ?? organization, FHIRText.concepts(FHIRResource.array(contact, "relationship"), words: words),
                FHIRPeople.telecom(contact))
        }
        for practitioner in FHIRResource.array(patient, "generalPractitioner").prefix(10) {
            let resource = resolve(practitioner, patient ?? .null)
            row(
                resource.flatMap { name(of: $0) } ?? FHIRText.display(practitioner), words[.generalPractitioner],
                resource.flatMap(FHIRPeople.telecom))
        }
        for team in careTeams.prefix(10) {
            let teamName = FHIRResource.string(team, "name")
            for participant in FHIRResource.array(team, "participant").prefix(20) {
                let member = resolve(participant["member"], team)
                let role = FHIRText.concepts(FHIRResource.array(participant, "role"), words: words)
                let label = [role, teamName ?? words[.careTeam]].compactMap { $0 }.joined(separator: words[.listSeparator])
                row(member.flatMap { name(of: $0) } ?? FHIRText.display(participant["member"]), label, member.flatMap(FHIRPeople.telecom))
            }
        }
        return rows
    }

    /// How to reach someone: their phone numbers, e-mail and other contact points, joined.
    static func telecom(_ resource: TreeValue) -> String? {
        let points = FHIRResource.array(resource, "telecom").compactMap { FHIRResource.string($0, "value") }.prefix(4)
        return points.isEmpty ? nil : points.joined(separator: ", ")
    }
}

extension String {
    /// The text, or nil when it is empty.
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
