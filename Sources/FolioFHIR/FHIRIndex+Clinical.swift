import FolioData
import FolioModel
import Foundation

/// The clinical resources of a patient's record (problems, allergies, medications, results, …),
/// kept whole for `FHIRClinicalRecord`, and the resources they refer to.
extension FHIRIndex {
    /// The keys a resource is referred to by: `TYPE/ID` and its Bundle entry's full URL (a URN,
    /// or an absolute URL ending in the same type and id).
    static func keys(type: String, id: String?, fullUrl: String?) -> [String] {
        var keys: [String] = []
        if let id { keys.append("\(type)/\(id)") }
        if let fullUrl, let reference = FHIRReference(fullUrl) {
            switch reference {
            case .urn(let urn): keys.append(urn)
            case .resource(let urlType, let urlID) where urlType == type && (id == nil || urlID == id):
                if id == nil { keys.append(reference.key) }
            default: break
            }
        }
        return keys
    }

    /// Keeps a resource others refer to (a Medication, a Practitioner, an Organization, …).
    func addReferable(_ resource: TreeValue, type: String, id: String?, fullUrl: String?) throws {
        let keys = FHIRIndex.keys(type: type, id: id, fullUrl: fullUrl)
        guard !keys.isEmpty else { return }
        let json = FHIRClinicalKinds.stored(resource).json
        for key in keys {
            insertReferable.bind(1, key)
            insertReferable.bind(2, json)
            try insertReferable.run()
        }
    }

    /// Keeps a clinical resource for the patient it names; one that names none is a note naming
    /// `place` (a Device without a patient is kept as a resource others refer to).
    func addClinical(_ resource: TreeValue, type: String, fullUrl: String?, place: String) throws {
        guard let checked = checkedID(resource, type: type, place: place) else { return }
        let field = FHIRClinicalKinds.patientField[type] ?? "subject"
        let subject = FHIRResource.patientKey(resource[field])
        guard let patient = subject.key else {
            if FHIRClinicalKinds.referable.contains(type) {
                try addReferable(resource, type: type, id: checked, fullUrl: fullUrl)
                return
            }
            let shown = checked.map { "\(type) \($0)" } ?? "\(type) (no id)"
            note("\(place): \(shown) has \(subject.problem ?? "no Patient subject") and is skipped")
            return
        }
        try noteIdentifierSubject(patient: patient, identifier: subject.identifier)
        try storeClinical(resource, type: type, patient: patient, id: checked ?? "#\(order)", fullUrl: fullUrl)
    }

    /// Stores a clinical resource of `patient` (its key) under the current place in the reading order.
    func storeClinical(_ resource: TreeValue, type: String, patient: String, id: String, fullUrl: String?) throws {
        let version = FHIRResource.version(resource, clock: options.clock)
        let s = insertClinical
        s.bind(1, patient)
        s.bind(2, order)
        s.bind(3, type)
        s.bind(4, id)
        s.bind(5, version.number)
        s.bind(6, version.updated)
        s.bind(7, FHIRClinicalKinds.stored(resource).json)
        try s.run()
        for key in FHIRIndex.keys(type: type, id: id.hasPrefix("#") ? nil : id, fullUrl: fullUrl) {
            insertClinicalKey.bind(1, key)
            insertClinicalKey.bind(2, order)
            try insertClinicalKey.run()
        }
    }

    /// Keeps a resource of a type the record does not list when its `subject` or `patient` names a
    /// Patient (a Composition may list it); false when it names none.
    @discardableResult
    func addClinicalIfItNamesAPatient(_ resource: TreeValue, type: String, fullUrl: String?, place: String) throws -> Bool {
        guard FHIRReference.isResourceType(type) else { return false }
        for field in ["subject", "patient"] {
            guard let reference = resource[field], let patient = FHIRResource.patientKey(reference).key else { continue }
            guard let checked = checkedID(resource, type: type, place: place) else { return true }
            try storeClinical(resource, type: type, patient: patient, id: checked ?? "#\(order)", fullUrl: fullUrl)
            return true
        }
        return false
    }

    /// Remembers the system and value of an identifier a resource names its patient by (for a
    /// patient not in the export, whose record's subject is that identifier).
    func noteIdentifierSubject(patient: String, identifier: (system: String?, value: String)?) throws {
        guard let identifier else { return }
        insertIdentifierSubject.bind(1, patient)
        insertIdentifierSubject.bind(2, identifier.system)
        insertIdentifierSubject.bind(3, identifier.value)
        try insertIdentifierSubject.run()
    }
}
