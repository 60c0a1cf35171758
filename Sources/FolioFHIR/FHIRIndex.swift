import FolioData
import FolioModel
import Foundation

/// Every resource of a FHIR export that a record needs, sorted into a temporary SQLite file as it
/// is read (readings and doses by patient; patients by their reference keys), so an export of any
/// size is read with flat memory and each patient's data is then fetched in one indexed query.
final class FHIRIndex {
    let options: FHIRImportOptions
    let database: SQLiteDatabase
    /// What was skipped for the whole export (a file and line each), for the person running it.
    private(set) var notes = FHIRNotes()
    /// The order resources were read in: later copies of a resource win over earlier ones.
    private(set) var order: Int64 = 0
    private let insertReading: SQLiteStatement
    private let insertDose: SQLiteStatement
    private let upsertPatient: SQLiteStatement
    private let insertPatientKey: SQLiteStatement
    private let insertMedication: SQLiteStatement
    /// The system and value of each Patient identifier a resource's subject names (for a patient
    /// not in the export, whose record's subject is that identifier).
    let insertIdentifierSubject: SQLiteStatement
    /// A patient's clinical resources (problems, allergies, results, …) kept whole, the keys they are
    /// referred to by, and the supporting resources (Medication, Practitioner, …) others refer to.
    let insertClinical: SQLiteStatement
    let insertClinicalKey: SQLiteStatement
    let insertReferable: SQLiteStatement
    /// Whether the resource being read came from a Bundle (whose vital signs a Composition may list).
    private(set) var readingBundle = false
    /// The places in the reading order of the Compositions that are a `document` Bundle's first entry.
    var documentCompositions = Set<Int64>()
    /// The language of each `document` Bundle (its `language`), by its Composition's place in the reading order.
    var documentLanguages: [Int64: String] = [:]
    /// The `document` Bundles read, each kept to its Composition's subject (`keepDocumentsToTheirSubject`).
    var documents: [DocumentBundle] = []
    /// Resources of types the record does not list, kept for a Composition that may list them, by type.
    private(set) var keptForCompositions: [String: Int] = [:]
    private var inTransaction = false
    private var pending = 0
    /// Each resource naming a patient as read, for the record's Bundle (`keepsRecordBundles`).
    private let insertCompartment: SQLiteStatement

    /// An empty index for `options`.
    init(options: FHIRImportOptions) throws {
        self.options = options
        database = try SQLiteDatabase()
        try database.execute(
            """
            CREATE TABLE patients(ord INTEGER PRIMARY KEY, id TEXT UNIQUE, name TEXT, birthDate TEXT, gender TEXT, identifier TEXT, extra TEXT,
              first_read INTEGER);
            CREATE TABLE patient_keys(key TEXT PRIMARY KEY, ord INTEGER, strength INTEGER);
            CREATE TABLE left_out(pord INTEGER, patient TEXT, reason TEXT, count INTEGER);
            CREATE TABLE skipped_patients(ord INTEGER PRIMARY KEY);
            CREATE TABLE readings(patient TEXT, ord INTEGER, rid TEXT, idents TEXT, version INTEGER, updated INTEGER, status TEXT,
              series TEXT, display TEXT, t INTEGER, dateonly INTEGER, value REAL, unit TEXT, problem TEXT);
            CREATE TABLE doses(patient TEXT, ord INTEGER, rid TEXT, idents TEXT, version INTEGER, updated INTEGER, status TEXT,
              med TEXT, name TEXT, t INTEGER, dateonly INTEGER, problem TEXT);
            CREATE TABLE medications(key TEXT PRIMARY KEY, name TEXT, code TEXT);
            CREATE TABLE clinical(patient TEXT, ord INTEGER, type TEXT, rid TEXT, version INTEGER, updated INTEGER, json TEXT);
            CREATE TABLE clinical_keys(key TEXT PRIMARY KEY, ord INTEGER);
            CREATE TABLE referable(key TEXT PRIMARY KEY, json TEXT);
            CREATE TABLE identifier_subjects(key TEXT PRIMARY KEY, system TEXT, value TEXT);
            CREATE TABLE compartment(patient TEXT, ord INTEGER, json TEXT);
            """)
        insertCompartment = try database.prepare("INSERT INTO compartment VALUES (?,?,?)")
        insertReading = try database.prepare("INSERT INTO readings VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
        insertDose = try database.prepare("INSERT INTO doses VALUES (?,?,?,?,?,?,?,?,?,?,?,?)")
        // A later copy of the same Patient (a newer version) wins, keeping its place in the order.
        upsertPatient = try database.prepare(
            """
            INSERT INTO patients(id, name, birthDate, gender, identifier, extra, first_read) VALUES (?,?,?,?,?,?,?)
            ON CONFLICT(id) DO UPDATE SET name=excluded.name, birthDate=excluded.birthDate, gender=excluded.gender,
            identifier=excluded.identifier, extra=excluded.extra RETURNING ord
            """)
        // A key two different Patients claim with the same strength (a shared identifier, one full URL
        // for two ids) belongs to neither: its ord becomes -1, and what refers to it is not given to
        // either of them. A Patient's own id is stronger than another's full URL naming it, so no entry's
        // full URL can take a Patient's id from it.
        insertPatientKey = try database.prepare(
            """
            INSERT INTO patient_keys VALUES (?,?,?) ON CONFLICT(key) DO UPDATE SET
              ord = CASE WHEN excluded.strength > strength THEN excluded.ord WHEN excluded.strength < strength THEN ord
                         WHEN ord != excluded.ord THEN -1 ELSE ord END,
              strength = max(strength, excluded.strength)
            """)
        insertMedication = try database.prepare("INSERT OR REPLACE INTO medications VALUES (?,?,?)")
        insertClinical = try database.prepare("INSERT INTO clinical VALUES (?,?,?,?,?,?,?)")
        insertClinicalKey = try database.prepare("INSERT OR REPLACE INTO clinical_keys VALUES (?,?)")
        insertReferable = try database.prepare("INSERT OR REPLACE INTO referable VALUES (?,?)")
        insertIdentifierSubject = try database.prepare("INSERT OR IGNORE INTO identifier_subjects VALUES (?,?,?)")
    }

    /// Notes a problem with the export as a whole (a file and line, and what was wrong).
    func note(_ line: String) { notes.add(line) }

    /// Adds one resource read at `place` (`Observation.ndjson:17`, `bundle.json entry[3]`); `fullUrl` is its
    /// Bundle entry's, which references inside the Bundle may use. Resource types a record does not use
    /// return false (the caller counts them).
    @discardableResult
    func add(_ resource: TreeValue, fullUrl: String?, place: String, fromBundle: Bool = false) throws -> Bool {
        readingBundle = fromBundle
        guard case .object = resource else {
            note("\(place): not a JSON object")
            return true
        }
        try beginIfNeeded()
        order += 1
        if options.keepsRecordBundles { try keepForBundle(resource, fullUrl: fullUrl) }
        switch FHIRResource.string(resource, "resourceType") {
        case "Patient": try addPatient(resource, fullUrl: fullUrl, place: place)
        case "Observation": try addObservation(resource, fullUrl: fullUrl, place: place)
        case "MedicationAdministration":
            try addDose(resource, place: place)
            // A Bundle's doses kept whole too: its Composition may list them.
            if readingBundle {
                try addClinicalIfItNamesAPatient(resource, type: "MedicationAdministration", fullUrl: fullUrl, place: place)
            }
        case "Medication":
            guard let id = checkedID(resource, type: "Medication", place: place) else { return true }
            let name = FHIRText.concept(resource["code"])
            let code = FHIRResource.codings(resource["code"]).first.map { "\($0.system ?? "")|\($0.code)" }
            for key in FHIRIndex.keys(type: "Medication", id: id, fullUrl: fullUrl) where name != nil {
                insertMedication.bind(1, key)
                insertMedication.bind(2, name)
                insertMedication.bind(3, code)
                try insertMedication.run()
            }
            try addReferable(resource, type: "Medication", id: id, fullUrl: fullUrl)
        case let type? where FHIRClinicalKinds.patientField[type] != nil:
            try addClinical(resource, type: type, fullUrl: fullUrl, place: place)
        case let type? where FHIRClinicalKinds.referable.contains(type):
            guard let id = checkedID(resource, type: type, place: place) else { return true }
            try addReferable(resource, type: type, id: id, fullUrl: fullUrl)
        case nil:
            note("\(place): not a FHIR resource (no resourceType)")
        case let type?:
            // Any other resource of a Bundle that names its patient is kept, so a Composition that lists
            // it can show it; in an export's NDJSON, only the clinical kinds a Composition may list (not
            // claims, coverage or provenance, which are most of some exports). Either way it is counted
            // as kept for a Composition only.
            guard readingBundle || FHIRClinicalKinds.keptForCompositions.contains(type) else { return false }
            guard try addClinicalIfItNamesAPatient(resource, type: type, fullUrl: fullUrl, place: place) else { return false }
            keptForCompositions[type, default: 0] += 1
            return true
        }
        return true
    }

    /// Keeps `resource` as read for its patient's Bundle: a Patient under the key of its id (or its
    /// full URL's URN), any other resource under the patient its patient field names.
    private func keepForBundle(_ resource: TreeValue, fullUrl: String?) throws {
        let key: String?
        if let type = FHIRResource.string(resource, "resourceType"), type == "Patient" {
            if let id = FHIRResource.string(resource, "id"), FHIRReference.isID(id) {
                key = "Patient/\(id)"
            } else if let fullUrl, fullUrl.hasPrefix("urn:uuid:") {
                key = fullUrl
            } else {
                key = nil
            }
        } else {
            let type = FHIRResource.string(resource, "resourceType") ?? ""
            key = FHIRResource.patientKey(resource[FHIRClinicalKinds.patientField[type] ?? "subject"]).key
        }
        guard let key else { return }
        insertCompartment.bind(1, key)
        insertCompartment.bind(2, order)
        insertCompartment.bind(3, resource.json)
        try insertCompartment.run()
    }

    /// Ends loading: each table is rewritten sorted by patient (an external sort, in bounded memory),
    /// each row with its Patient's `pord` (NULL for a patient not in the export), so one patient's rows
    /// are contiguous and are read with one index seek and a sequential scan.
    func finishLoading() throws {
        for (type, count) in keptForCompositions.sorted(by: { $0.key < $1.key }) {
            note(
                "\(count) \(type.prefix(40)) resource\(count == 1 ? "" : "s") kept only for a Composition that lists \(count == 1 ? "it" : "them")"
            )
        }
        if inTransaction { try database.execute("COMMIT") }
        inTransaction = false
        for table in ["readings", "doses", "clinical", "compartment"] {
            try database.execute(
                """
                CREATE TABLE \(table)_by_patient AS SELECT k.ord AS pord, r.* FROM \(table) r
                  LEFT JOIN patient_keys k ON k.key = r.patient ORDER BY pord, r.patient, r.ord;
                DROP TABLE \(table);
                CREATE INDEX \(table)_patient ON \(table)_by_patient(pord, patient);
                """)
        }
        try database.execute("CREATE INDEX clinical_ord ON clinical_by_patient(ord)")
        try keepDocumentsToTheirSubject()
        let ambiguous = try database.prepare(
            "SELECT (SELECT count(DISTINCT ord) FROM readings_by_patient WHERE pord = -1) + (SELECT count(*) FROM doses_by_patient WHERE pord = -1)"
        )
        if try ambiguous.step(), let count = ambiguous.integer(0), count > 0 {
            note(
                "\(count) resource\(count == 1 ? "" : "s") refer to a Patient by an identifier or full URL that two Patients share, "
                    + "and \(count == 1 ? "is" : "are") given to neither")
        }
    }

    /// A resource's id: nil inside the optional when it has none (a Bundle entry may name it by its
    /// full URL alone); nil (and a note naming `place`) when its id is not a FHIR id, for a resource
    /// whose id could otherwise be taken for another's (`p\u{0}A` for `p`, `a/b` for `a`).
    func checkedID(_ resource: TreeValue, type: String, place: String) -> String?? {
        guard let value = resource["id"] else { return .some(nil) }
        guard case .string(let id) = value, FHIRReference.isID(id) else {
            note("\(place): a \(type) whose id is not a FHIR id (1–64 of A–Z, a–z, 0–9, '-', '.') is skipped")
            return nil
        }
        return .some(id)
    }

    private func beginIfNeeded() throws {
        pending += 1
        if inTransaction, pending < 50_000 { return }
        if inTransaction { try database.execute("COMMIT") }
        try database.execute("BEGIN")
        inTransaction = true
        pending = 0
    }

    // MARK: Patient

    private func addPatient(_ resource: TreeValue, fullUrl: String?, place: String) throws {
        guard let checked = checkedID(resource, type: "Patient", place: place) else { return }
        // A Patient without an id (a transaction Bundle's new resource) is the one its full URL names:
        // `…/Patient/X` is id X; `urn:uuid:U` is a Patient of its own (stored as the URN, so it is never
        // merged with a Patient whose id is U), whose record's id is U.
        // References resolve against an entry's full URL (FHIR's Bundle rules): a Patient is found by its
        // id and by its full URL, the full URL's claim the weaker where it names another id (a Patient's
        // own id always wins), the disagreement noted.
        var recordID: String
        let id: String
        var keys: [(key: String, strength: Int)]
        switch (checked, fullUrl.flatMap { FHIRReference($0) }) {
        case (let given?, let url):
            id = given
            recordID = given
            keys = [("Patient/\(given)", 2)]
            if let fullUrl, let key = FHIRResource.patientKey(fullUrl: fullUrl, id: given) { keys.append((key, 2)) }
            if case .resource(type: "Patient", let urlID)? = url, urlID != given {
                keys.append(("Patient/\(urlID)", 1))
                note("\(place): a Patient whose full URL names Patient/\(urlID) but whose id is \(given); found by both")
            }
        case (nil, .resource(type: "Patient", let urlID)?):
            id = urlID
            recordID = urlID
            keys = [("Patient/\(urlID)", 2)]
        case (nil, .urn(let urn)?) where urn.hasPrefix("urn:uuid:"):
            id = urn
            recordID = String(urn.dropFirst(9))
            keys = [(urn, 2)]
        default:
            note("\(place): a Patient without an id or a full URL naming it is skipped")
            return
        }
        // Its subject in a DocumentReference: `Patient/ID`; for a Patient known only by a URN, its
        // first identifier (a URN means nothing outside its Bundle).
        var subject: TreeValue = .object([("reference", .string("Patient/\(recordID)"))])
        if id.hasPrefix("urn:") {
            let first = FHIRResource.array(resource, "identifier").first { FHIRResource.string($0, "value") != nil }
            if let first, let value = FHIRResource.string(first, "value") {
                var identifier: [(key: String, value: TreeValue)] = [("value", .string(value))]
                if let system = FHIRResource.string(first, "system") { identifier.insert(("system", .string(system)), at: 0) }
                subject = .object([("identifier", .object(identifier))])
            } else {
                subject = .object([("reference", .string(id))])
            }
        }
        let identifiers: [TreeValue] = FHIRResource.array(resource, "identifier").compactMap { identifier in
            guard let value = FHIRResource.string(identifier, "value") else { return nil }
            return .object([
                ("system", FHIRResource.string(identifier, "system").map(TreeValue.string) ?? .null), ("value", .string(value)),
                ("type", FHIRText.identifierType(identifier["type"]).map(TreeValue.string) ?? .null),
            ])
        }
        // What a summary shows beyond the banner: whom to call, and the resource's language.
        var extraMembers: [(key: String, value: TreeValue)] = [
            ("recordID", .string(recordID)), ("subject", subject), ("identifiers", .array(identifiers)),
        ]
        for key in ["contact", "generalPractitioner", "language", "telecom"] {
            if let value = resource[key] { extraMembers.append((key, value)) }
        }
        let extra = TreeValue.object(extraMembers)
        let name = FHIRIndex.personName(resource)
        let birthDate = FHIRResource.string(resource, "birthDate")
        let gender = FHIRResource.string(resource, "gender")
        let identifier = FHIRIndex.medicalRecordNumber(resource)
        upsertPatient.bind(1, id)
        upsertPatient.bind(2, name)
        upsertPatient.bind(3, birthDate)
        upsertPatient.bind(4, gender)
        upsertPatient.bind(5, identifier)
        upsertPatient.bind(6, extra.json)
        upsertPatient.bind(7, order)
        // The row's place: the first copy's when a Patient comes again.
        let ord = try upsertPatient.step() ? upsertPatient.integer(0) ?? 0 : 0
        upsertPatient.reset()
        keys += Set(FHIRResource.identifierKeys(resource)).sorted().map { ("identifier:\($0)", 0) }
        for (key, strength) in keys {
            insertPatientKey.bind(1, key)
            insertPatientKey.bind(2, ord)
            insertPatientKey.bind(3, Int64(strength))
            try insertPatientKey.run()
        }
    }

    /// "Given Family" of the official name, else of the first; a name's `text` when it has no parts.
    static func personName(_ resource: TreeValue) -> String? {
        let names = FHIRResource.array(resource, "name")
        guard let name = names.first(where: { FHIRResource.string($0, "use") == "official" }) ?? names.first else { return nil }
        func parts(of name: TreeValue) -> String? {
            let given = FHIRResource.array(name, "given").compactMap { value -> String? in
                guard case .string(let text) = value, !text.isEmpty else { return nil }
                return text
            }
            let parts = given + [FHIRResource.string(name, "family")].compactMap { $0 }
            return parts.isEmpty ? nil : parts.joined(separator: " ")
        }
        /// A name as written: its text, else its parts.
        func written(_ name: TreeValue) -> String? { FHIRResource.string(name, "text") ?? parts(of: name) }
        guard let shown = parts(of: name) ?? FHIRResource.string(name, "text") else { return nil }
        // The name in its own script is kept beside its Latin parts ("Taro Tanaka (田中 太郎)"): its
        // text when that says something else, and the other names written in another script.
        var others: [String] = []
        func folded(_ text: String) -> String { String(text.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic }) }
        func otherScript(_ text: String) -> Bool { text.unicodeScalars.contains { $0.properties.isAlphabetic && $0.value > 0x24F } }
        for text in [FHIRResource.string(name, "text")].compactMap({ $0 }) + names.prefix(10).compactMap(written)
        where !others.contains(text) && folded(text) != folded(shown) && otherScript(text) && !otherScript(shown) {
            others.append(text)
        }
        return others.isEmpty ? shown : "\(shown) (\(others.prefix(2).joined(separator: "; ")))"
    }

    /// The value of the first identifier typed MR (medical record number, HL7 v2 table 0203).
    static func medicalRecordNumber(_ resource: TreeValue) -> String? {
        for identifier in FHIRResource.array(resource, "identifier") {
            if FHIRResource.codings(identifier["type"]).contains(where: { $0.code == "MR" }),
                let value = FHIRResource.string(identifier, "value")
            {
                return value
            }
        }
        return nil
    }

    // MARK: Observation

    /// The statuses whose readings are reported; every other status is skipped and counted.
    static let reportedStatuses: Set<String> = ["final", "amended", "corrected"]

    private func addObservation(_ resource: TreeValue, fullUrl: String?, place: String) throws {
        guard let row = try resourceRow(resource, type: "Observation", place: place) else { return }
        let status = row.status
        // A final reading far from the period is not needed; corrections and withdrawals are kept
        // wherever they are, since they may replace a reading inside it.
        if status == "final", let time = row.time, !options.isNearPeriod(time) { return }
        if status == "final", row.time == nil, let text = row.timeText, !options.isNearPeriod(partial: text) { return }
        let catalogued =
            FHIRIndex.seriesKey(resource["code"])?.named != nil
            || FHIRResource.codings(resource["code"]).contains {
                ($0.system ?? FHIRSeriesCatalog.loinc) == FHIRSeriesCatalog.loinc && FHIRSeriesCatalog.panels.contains($0.code)
            }
        let vitalSign = catalogued || FHIRClinicalKinds.categories(resource).contains(FHIRClinicalKinds.vitalSigns)
        // Results, social history and the rest are kept whole for the record; the catalogued vital signs
        // are series, kept whole too when a Bundle (whose Composition may list them) holds them.
        // (A correction far from the period is kept as a reading that may replace one inside it, not as a result.)
        let nearPeriod = row.time.map(options.isNearPeriod) ?? row.timeText.map { options.isNearPeriod(partial: $0) } ?? true
        if !catalogued || readingBundle, nearPeriod {
            try storeClinical(resource, type: "Observation", patient: row.patient, id: row.id, fullUrl: fullUrl)
        }
        // A categorical value (smoking status, blood group, a finding) is presented as the value it is, not
        // as a reading; so is a group of other observations (`hasMember`) and a result coded in words only.
        if !catalogued, FHIRIndex.hasCategoricalValue(resource) { return }
        if !vitalSign, !FHIRResource.array(resource, "hasMember").isEmpty, !FHIRIndex.hasValue(resource) { return }
        if !vitalSign, FHIRResource.codings(resource["code"]).isEmpty, FHIRResource.string(resource["code"], "text") != nil { return }
        guard FHIRIndex.reportedStatuses.contains(status) else {
            try insert(row, series: FHIRIndex.seriesKey(resource["code"])?.key ?? "", display: nil, value: nil, unit: nil, problem: nil)
            return
        }
        if let problem = row.timeProblem {
            try insert(row, series: FHIRIndex.seriesKey(resource["code"])?.key ?? "", display: nil, value: nil, unit: nil, problem: problem)
            return
        }
        var inserted = false
        let components = FHIRResource.array(resource, "component")
        let isPanel = FHIRResource.codings(resource["code"]).contains {
            ($0.system ?? FHIRSeriesCatalog.loinc) == FHIRSeriesCatalog.loinc && FHIRSeriesCatalog.panels.contains($0.code)
        }
        if !(isPanel || !components.isEmpty) || FHIRIndex.hasValue(resource) {
            if let key = FHIRIndex.seriesKey(resource["code"]) {
                try insertReading(of: resource, key: key, row: row)
            } else {
                try insert(row, series: "", display: nil, value: nil, unit: nil, problem: "an observation without a code")
            }
            inserted = true
        }
        for component in components {
            guard let key = FHIRIndex.seriesKey(component["code"]) else { continue }
            // A component in words (the method of oxygen delivery beside its flow rate) is shown with
            // its observation, not counted as a reading left out.
            if key.named == nil, FHIRIndex.hasCategoricalValue(component) { continue }
            try insertReading(of: component, key: key, row: row)
            inserted = true
        }
        if !inserted {
            try insert(
                row, series: FHIRIndex.seriesKey(resource["code"])?.key ?? "", display: nil, value: nil, unit: nil, problem: "no value")
        }
    }

    /// What every stored row of a resource begins with: its patient, its place in the reading order,
    /// its id and identifiers, its version, its status and when it was taken.
    struct ResourceRow {
        let patient: String
        let order: Int64
        /// The resource's id; a resource without one is told apart by its place in the reading order.
        let id: String
        let identifiers: String
        let version: Int64?
        let updated: Int64?
        let status: String
        let time: FHIRTime?
        /// The effective time as written, when there is one.
        let timeText: String?

        /// Why the reading cannot be placed on a day, or nil when it can.
        var timeProblem: String? {
            guard time == nil else { return nil }
            if let timeText, FHIRText.isPartialDate(timeText) { return "a time of only a month or a year (\(timeText))" }
            return timeText.map { "an effective time that cannot be placed on a day (\($0.prefix(40)))" } ?? "no effective time"
        }
    }

    /// The row a resource of `type` begins with, or nil (and a note naming `place`) when it has no
    /// status or no Patient subject.
    private func resourceRow(_ resource: TreeValue, type: String, place: String) throws -> ResourceRow? {
        guard let checked = checkedID(resource, type: type, place: place) else { return nil }
        let id = checked
        let shown = id.map { "\(type) \($0)" } ?? "\(type) (no id)"
        let subject = FHIRResource.patientKey(resource["subject"])
        guard let patient = subject.key else {
            note("\(place): \(shown) has \(subject.problem ?? "no Patient subject") and is skipped")
            return nil
        }
        try noteIdentifierSubject(patient: patient, identifier: subject.identifier)
        // No status: kept with an empty one, so the patient's record counts it among what was left out.
        let status = FHIRResource.string(resource, "status") ?? ""
        let (time, timeText) = FHIRResource.effectiveTime(resource, clock: options.clock)
        let version = FHIRResource.version(resource, clock: options.clock)
        return ResourceRow(
            patient: patient, order: order, id: id ?? "#\(order)",
            identifiers: FHIRResource.identifierKeys(resource).joined(separator: "\n"), version: version.number,
            updated: version.updated, status: status, time: time, timeText: timeText)
    }

    /// Binds a row's first columns (patient, order, id, identifiers, version, updated, status) to
    /// parameters 1–7 of `statement`, and its time to `timeColumn` and the next.
    private func bind(_ row: ResourceRow, to statement: SQLiteStatement, timeColumn: Int32) {
        statement.bind(1, row.patient)
        statement.bind(2, row.order)
        statement.bind(3, row.id)
        statement.bind(4, row.identifiers.isEmpty ? nil : row.identifiers)
        statement.bind(5, row.version)
        statement.bind(6, row.updated)
        statement.bind(7, row.status)
        statement.bind(timeColumn, row.time?.milliseconds)
        statement.bind(timeColumn + 1, row.time.map { Int64($0.dateOnly ? 1 : 0) })
    }

    /// Whether an observation's value is not a number (a concept, text, a yes or no, a time, a
    /// ratio) and it has no components that are readings.
    static func hasCategoricalValue(_ resource: TreeValue) -> Bool {
        guard case .object(let members) = resource, FHIRResource.array(resource, "component").isEmpty,
            let value = members.first(where: { $0.key.hasPrefix("value") })
        else { return false }
        return value.key != "valueQuantity" && value.key != "valueInteger"
    }

    /// Whether an element carries a value or says why it has none.
    static func hasValue(_ element: TreeValue) -> Bool {
        guard case .object(let members) = element else { return false }
        return members.contains { $0.key.hasPrefix("value") || $0.key == "dataAbsentReason" }
    }

    /// The series of a code: a named series (`heartRate`) for a catalogued LOINC code, else
    /// `SYSTEM|CODE` of its first coding; with the words it is shown by.
    static func seriesKey(_ code: TreeValue?) -> (key: String, display: String?, named: FHIRSeriesCatalog.Series?)? {
        let codings = FHIRResource.codings(code)
        for coding in codings where (coding.system ?? FHIRSeriesCatalog.loinc) == FHIRSeriesCatalog.loinc {
            if let series = FHIRSeriesCatalog.series(loincCode: coding.code) { return (series.name, nil, series) }
        }
        guard let first = codings.first else { return nil }
        return ("\(first.system ?? "")|\(first.code)", FHIRResource.displayText(code), nil)
    }

    private func insertReading(
        of element: TreeValue, key: (key: String, display: String?, named: FHIRSeriesCatalog.Series?), row: ResourceRow
    ) throws {
        let reading = FHIRIndex.reading(of: element, series: key.named, name: key.key)
        try insert(row, series: key.key, display: key.display, value: reading.value, unit: reading.unit, problem: reading.problem)
    }

    /// The value of an observation or component: converted to the series' canonical unit (named
    /// series) or in its own unit (others); nil with no problem when the data is absent (`dataAbsentReason`).
    static func reading(of element: TreeValue, series: FHIRSeriesCatalog.Series?, name: String) -> (
        value: Double?, unit: String?, problem: String?
    ) {
        if case .object(let members) = element, let member = members.first(where: { $0.key.hasPrefix("value") }) {
            switch member.key {
            case "valueQuantity":
                let quantity = member.value
                if case .number(let value)? = quantity["value"], !(abs(value) < InputLimits.magnitude) {
                    return (nil, nil, "a value out of range (beyond ±1e15)")
                }
                guard case .number(let value)? = quantity["value"], value.isFinite else {
                    return quantity["value"] == nil && element["dataAbsentReason"] != nil
                        ? (nil, series?.unit, nil) : (nil, nil, "a quantity without a numeric value")
                }
                if let comparator = FHIRResource.string(quantity, "comparator") {
                    return (nil, nil, "a value with comparator \(comparator) (not an exact reading)")
                }
                let unit = FHIRUnits.unit(
                    code: FHIRResource.string(quantity, "code"), system: FHIRResource.string(quantity, "system"),
                    text: FHIRResource.string(quantity, "unit"))
                guard let series else { return (value, unit.ucum ?? (unit.raw.isEmpty ? nil : unit.raw), nil) }
                if unit.raw.isEmpty || unit.ucum == "1" && series.unitless {
                    return series.unitless ? (value, series.unit, nil) : (nil, nil, "a \(name) value without a unit")
                }
                guard let ucum = unit.ucum,
                    let converted = FHIRUnits.convert(value, from: ucum, to: series.unit, glucose: series.name == "glucose")
                else {
                    return (nil, nil, "unknown unit \"\(unit.raw.prefix(30))\" for \(name) (expected \(series.unit))")
                }
                guard abs(converted) < InputLimits.magnitude else { return (nil, nil, "a value out of range (beyond ±1e15)") }
                return (converted, series.unit, nil)
            case "valueInteger":
                guard case .number(let value) = member.value, abs(value) < InputLimits.magnitude else {
                    return (nil, nil, "a valueInteger that is not a number in range")
                }
                if let series, !series.unitless { return (nil, nil, "a \(name) value without a unit") }
                return (value, series?.unit, nil)
            default:
                return (nil, nil, "a value that is not a number (\(member.key.prefix(30)))")
            }
        }
        if element["dataAbsentReason"] != nil { return (nil, series?.unit, nil) }
        return (nil, nil, "no value")
    }

    private func insert(_ row: ResourceRow, series: String, display: String?, value: Double?, unit: String?, problem: String?) throws {
        let s = insertReading
        bind(row, to: s, timeColumn: 10)
        s.bind(8, series)
        s.bind(9, display)
        s.bind(12, value)
        s.bind(13, unit)
        s.bind(14, problem)
        try s.run()
    }

    // MARK: MedicationAdministration

    private func addDose(_ resource: TreeValue, place: String) throws {
        guard let row = try resourceRow(resource, type: "MedicationAdministration", place: place) else { return }
        if row.status != "entered-in-error", let time = row.time, !options.isNearPeriod(time) { return }
        if row.status != "entered-in-error", row.time == nil, let text = row.timeText, !options.isNearPeriod(partial: text) { return }
        var key: String?
        var name: String?
        if let concept = resource["medicationCodeableConcept"] {
            let coding = FHIRResource.codings(concept).first
            key = coding.map { "\($0.system ?? "")|\($0.code)" } ?? FHIRResource.string(concept, "text")
            name = FHIRResource.displayText(concept)
        } else if let reference = resource["medicationReference"] {
            key = FHIRResource.string(reference, "reference").flatMap(FHIRResource.medicationKey)
            name = FHIRResource.string(reference, "display")
            key = key ?? name
        }
        let s = insertDose
        bind(row, to: s, timeColumn: 10)
        s.bind(8, key)
        s.bind(9, name)
        s.bind(12, key == nil ? "a medication administration without a medication" : row.timeProblem)
        try s.run()
    }
}
