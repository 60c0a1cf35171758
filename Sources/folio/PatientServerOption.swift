import ArgumentParser
import FolioConnect
import Foundation

/// `--fhir-server BASE_URL --patient ID` and the server's authorization: one patient's record read
/// from a FHIR server (`folio render`, `folio preview`).
struct PatientServerOption: ParsableArguments {
    @Option(
        name: .customLong("fhir-server"),
        help: "Read the record from this FHIR server (with --patient): Patient/ID/$summary, else $everything, else a search per type.")
    var fhirServer: String?

    @Option(help: "With --fhir-server: the Patient's id.")
    var patient: String?

    @OptionGroup var server: ServerOptions

    /// The patient's record written to `record.json` in a folder only this user may read (the
    /// caller removes the folder), or nil when no server is given.
    func fetchRecord() throws -> URL? {
        guard let fhirServer, let patient else { return nil }
        return try PatientRecordFetch.temporaryCopy(
            server: fhirServer, patient: patient,
            authorization: { try server.authorization(base: $0, neededScopes: ["system/*.rs"]) }, connection: server.connection)
    }
}
