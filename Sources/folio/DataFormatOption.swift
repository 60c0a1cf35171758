import ArgumentParser
import Folio
import FolioFHIR

/// `--data-format` and, for FHIR data, `--period`, `--zone` and `--all-patients`: one meaning for
/// `folio batch` and `folio records`.
struct DataFormatOption: ParsableArguments {
    /// The kinds of data a batch reads.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case auto, fhir
    }

    @Option(
        help: """
            auto: JSON lines, a JSON array or CSV, by the file's extension and first character; \
            fhir: a FHIR R4 Bulk Data export folder (NDJSON files), one NDJSON file or a Bundle, one record per Patient.
            """)
    var dataFormat: Format = .auto

    @Option(
        help:
            "FHIR data: the report period, START/END (dates, both included), START/P7D, or last-week (Monday to Sunday before this week, in --zone); without it, all of the data."
    )
    var period: String?

    @Option(
        help:
            "The IANA time zone (America/New_York) the date filter and report tables show times in where the template names none; with FHIR data, also the one whose local days the readings are counted in (default UTC)."
    )
    var zone: String?

    @Flag(help: "FHIR data: a record for every Patient, even one without data in the period.")
    var allPatients = false

    @Option(
        help:
            "FHIR data: identifier systems whose values are not printed (comma-separated URIs): masked but for their last four characters."
    )
    var maskIdentifiers: String?

    func validate() throws {
        if dataFormat != .fhir, period != nil || allPatients || maskIdentifiers != nil {
            throw ValidationError("--period, --all-patients and --mask-identifiers are for --data-format fhir")
        }
        // FHIR data's zone is checked where the import reads it, in the same words.
        if dataFormat != .fhir, let zone, Metadata.zone(zone) == nil {
            throw ValidationError("--zone: \"\(zone.prefix(64))\" is not an IANA time zone, such as UTC or America/New_York")
        }
    }

    /// How FHIR data becomes records, or nil for other data; a bad period or zone is an error naming it.
    func fhirOptions() throws -> FHIRImportOptions? {
        guard dataFormat == .fhir else { return nil }
        var options = try FHIRImportOptions(period: period, zone: zone, allPatients: allPatients)
        options.maskedIdentifierSystems = Set(maskedSystems)
        return options
    }

    /// The systems of `--mask-identifiers`.
    var maskedSystems: [String] {
        (maskIdentifiers ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
