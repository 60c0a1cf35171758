import FolioData
import FolioModel
import Foundation

/// The resource types of a patient's record beyond vital signs and doses (the sections of an
/// International Patient Summary), where each names its patient, and the supporting resources
/// that they refer to.
enum FHIRClinicalKinds {
    /// Resources about one patient, kept whole (without narrative and meta) for the record, with
    /// the element naming their patient.
    static let patientField: [String: String] = [
        "Composition": "subject", "Condition": "subject", "AllergyIntolerance": "patient",
        "MedicationStatement": "subject", "MedicationRequest": "subject", "MedicationDispense": "subject",
        "Immunization": "patient", "Procedure": "subject", "DiagnosticReport": "subject", "Observation": "subject",
        "Device": "patient", "DeviceUseStatement": "subject", "CarePlan": "subject", "ClinicalImpression": "subject",
        "Flag": "subject", "Consent": "patient", "Goal": "subject", "DocumentReference": "subject",
    ]

    /// Resources that patients' resources refer to, kept whole to resolve those references.
    static let referable: Set<String> = [
        "Medication", "Practitioner", "PractitionerRole", "Organization", "Substance", "Location", "RelatedPerson",
        "Specimen", "Device",
    ]

    /// Resource types kept from an export's NDJSON (when they name a patient) only so that a
    /// Composition listing them can show them.
    static let keptForCompositions: Set<String> = [
        "Encounter", "ServiceRequest", "FamilyMemberHistory", "CareTeam", "ImagingStudy", "Specimen", "Media",
        "QuestionnaireResponse", "NutritionOrder", "RiskAssessment", "EpisodeOfCare", "DetectedIssue", "List",
    ]

    /// Observation categories (HL7 observation-category codes).
    static let vitalSigns = "vital-signs"
    static let socialHistory = "social-history"

    /// An Observation's category codes.
    static func categories(_ resource: TreeValue) -> Set<String> {
        Set(FHIRResource.array(resource, "category").flatMap { FHIRResource.codings($0).map(\.code) })
    }

    /// A resource kept for the record without what a report never shows (its narrative, meta and
    /// extensions are the bulk of many exports' resources).
    static func stored(_ resource: TreeValue) -> TreeValue {
        guard case .object(let members) = resource else { return resource }
        return .object(members.filter { $0.key != "text" && $0.key != "meta" })
    }
}
