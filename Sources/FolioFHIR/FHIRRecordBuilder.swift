import FolioData
import FolioModel
import Foundation

/// Makes one report record per patient from a loaded `FHIRIndex`: the patient, the period, each
/// observed series (points, daily means, summary values), medication adherence, and what was
/// skipped and why. Withdrawn readings are dropped, amendments replace what they amend, absent
/// data stays missing (null), and days are the report zone's local days.
final class FHIRRecordBuilder {
    private let index: FHIRIndex
    private var options: FHIRImportOptions { index.options }
    private let medicationName: SQLiteStatement
    /// The clinical part of each record (problems, allergies, medications, results, the Composition).
    private let clinical: FHIRClinicalRecord
    /// The current record's period: the options' period, or the span of its patient's data.
    private var period: FHIRPeriod?
    /// A known patient's readings and doses (by `pord`), and those of a patient only referred to (by key).
    private let readingsOfPatient, readingsOfStranger, dosesOfPatient, dosesOfStranger: SQLiteStatement
    /// A patient's resources as read, for its Bundle (`keepsRecordBundles`).
    private let resourcesOfPatient, resourcesOfStranger: SQLiteStatement
    /// What a patient's document Bundles held about other patients (left out), by reason.
    private let leftOutOfPatient, leftOutOfStranger: SQLiteStatement

    init(index: FHIRIndex) throws {
        self.index = index
        medicationName = try index.database.prepare("SELECT name, code FROM medications WHERE key=?")
        clinical = try FHIRClinicalRecord(index: index)
        let readings =
            "SELECT ord, rid, idents, version, updated, status, series, display, t, dateonly, value, unit, problem FROM readings_by_patient"
        let doses = "SELECT ord, rid, idents, version, updated, status, med, name, t, dateonly, problem FROM doses_by_patient"
        readingsOfPatient = try index.database.prepare("\(readings) WHERE pord = ? ORDER BY ord")
        readingsOfStranger = try index.database.prepare("\(readings) WHERE pord IS NULL AND patient = ? ORDER BY ord")
        dosesOfPatient = try index.database.prepare("\(doses) WHERE pord = ? ORDER BY ord")
        dosesOfStranger = try index.database.prepare("\(doses) WHERE pord IS NULL AND patient = ? ORDER BY ord")
        resourcesOfPatient = try index.database.prepare("SELECT json FROM compartment_by_patient WHERE pord = ? ORDER BY ord")
        resourcesOfStranger = try index.database.prepare(
            "SELECT json FROM compartment_by_patient WHERE pord IS NULL AND patient = ? ORDER BY ord")
        leftOutOfPatient = try index.database.prepare(
            "SELECT reason, sum(count) FROM left_out WHERE pord = ? GROUP BY reason ORDER BY reason")
        leftOutOfStranger = try index.database.prepare(
            "SELECT reason, sum(count) FROM left_out WHERE pord IS NULL AND patient = ? GROUP BY reason ORDER BY reason")
    }

    /// The most bytes a record's Bundle may have: what a PDF may carry as one attachment.
    static let maximumBundleBytes = Attachment.maximumBytes

    /// The text of a FHIR `collection` Bundle of `subject`'s resources as read (its Patient and every
    /// resource naming it, in the order read); nil when it would pass `maximumBundleBytes` (the
    /// record's documents then fail alone, saying so).
    private func bundle(of subject: FHIRRecordSubject) throws -> String? {
        let statement: SQLiteStatement
        switch subject {
        case .known(let ord):
            statement = resourcesOfPatient
            statement.bind(1, ord)
        case .stranger(let key):
            statement = resourcesOfStranger
            statement.bind(1, key)
        }
        defer { statement.reset() }
        var text = #"{"resourceType":"Bundle","type":"collection","entry":["#
        var first = true
        while try statement.step() {
            guard let resource = statement.text(0) else { continue }
            text += first ? #"{"resource":"# : #",{"resource":"#
            text += resource
            text += "}"
            first = false
            guard text.utf8.count <= FHIRRecordBuilder.maximumBundleBytes else { return nil }
        }
        return text + "]}"
    }

    /// Calls `body` with each record, in the order the Patients were read, then for patients that are
    /// referred to but not in the export; only patients with data in the period unless `allPatients`.
    /// What a person running the export should be told about a record goes to `note`.
    func forEachRecord(_ body: (TreeValue) throws -> Void, note: (String) -> Void = { _ in }) throws {
        // A Patient a document Bundle holds beside its subject gets no record (`keepDocumentsToTheirSubject`).
        let patients = try index.database.prepare(
            "SELECT ord, id, name, birthDate, gender, identifier, extra FROM patients WHERE ord NOT IN (SELECT ord FROM skipped_patients) ORDER BY ord"
        )
        while try patients.step() {
            let extra = try patients.text(6).map { try JSONTreeParser.parse(Data($0.utf8)) }
            let id = extra?["recordID"]?.text ?? patients.text(1) ?? ""
            let identifiers = masked(extra?["identifiers"] ?? .array([]))
            var identifier = patients.text(5)
            if let value = identifier, !options.maskedIdentifierSystems.isEmpty,
                FHIRResource.array(extra, "identifiers").contains(where: {
                    FHIRResource.string($0, "value") == value
                        && options.maskedIdentifierSystems.contains(FHIRResource.string($0, "system") ?? "")
                })
            {
                identifier = FHIRImportOptions.masked(value)
            }
            let patient: [(key: String, value: TreeValue)] = [
                ("id", .string(id)), ("name", FHIRRecordBuilder.text(patients.text(2))),
                ("birthDate", FHIRRecordBuilder.text(patients.text(3))), ("gender", FHIRRecordBuilder.text(patients.text(4))),
                ("identifier", FHIRRecordBuilder.text(identifier)),
                ("identifiers", identifiers),
                ("subject", extra?["subject"] ?? .object([("reference", .string("Patient/\(id)"))])),
            ]
            var notices: [String] = []
            let made = try record(patient: patient, of: .known(patients.integer(0) ?? 0), resource: extra, warnings: [], notices: &notices)
            notices.forEach(note)
            if let made { try body(made) }
        }
        let strangers = try index.database.prepare(
            """
            SELECT s.patient, i.system, i.value FROM (SELECT patient FROM readings_by_patient WHERE pord IS NULL
              UNION SELECT patient FROM doses_by_patient WHERE pord IS NULL UNION SELECT patient FROM clinical_by_patient WHERE pord IS NULL) s
            LEFT JOIN identifier_subjects i ON i.key = s.patient ORDER BY 1
            """)
        while try strangers.step() {
            guard let key = strangers.text(0) else { continue }
            // A patient the export only refers to: by id, by a Bundle entry's URN, or by an identifier.
            let id: String
            let subject: TreeValue
            let shown: String
            if key.hasPrefix("Patient/") || key.hasPrefix("urn:") {
                id = key.hasPrefix("Patient/") ? String(key.dropFirst(8)) : key
                subject = .object([("reference", .string(key))])
                shown = key
            } else if let value = strangers.text(2) {
                let system = strangers.text(1)
                id = value
                var identifier: [(key: String, value: TreeValue)] = [("value", .string(value))]
                if let system { identifier.insert(("system", .string(system)), at: 0) }
                subject = .object([("identifier", .object(identifier))])
                shown = "with identifier \(system.map { "\($0)|" } ?? "")\(value)"
            } else {
                continue
            }
            let patient: [(key: String, value: TreeValue)] = [
                ("id", .string(id)), ("name", .null), ("birthDate", .null), ("gender", .null), ("identifier", .null),
                ("identifiers", .array([])), ("subject", subject),
            ]
            var notices: [String] = []
            let made = try record(
                patient: patient, of: .stranger(key), resource: nil, warnings: [("the Patient \(shown) is not in the export", 1)],
                notices: &notices)
            notices.forEach(note)
            if let made { try body(made) }
        }
    }

    private static func text(_ value: String?) -> TreeValue { value.map(TreeValue.string) ?? .null }

    /// A Patient's identifiers with the values of the masked systems masked.
    private func masked(_ identifiers: TreeValue) -> TreeValue {
        guard !options.maskedIdentifierSystems.isEmpty, case .array(let items) = identifiers else { return identifiers }
        return .array(
            items.map { item in
                guard case .object(var members) = item, let system = FHIRResource.string(item, "system"),
                    options.maskedIdentifierSystems.contains(system), let index = members.firstIndex(where: { $0.key == "value" }),
                    case .string(let value) = members[index].value
                else { return item }
                members[index].value = .string(FHIRImportOptions.masked(value))
                return .object(members)
            })
    }

    /// The patient's age in whole years on `day` and whether they are an adult (18 or over), from a
    /// full birth date; nothing when the birth date is partial or missing.
    static func age(of patient: [(key: String, value: TreeValue)], on day: Int64) -> [(key: String, value: TreeValue)] {
        guard case .string(let text)? = patient.first(where: { $0.key == "birthDate" })?.value, text.utf8.count == 10,
            let born = CivilDate.parse(text), born <= day
        else { return [("age", .null), ("isAdult", .null)] }
        let birth = CivilDate.date(born)
        let today = CivilDate.date(day)
        var years = today.year - birth.year
        if (today.month, today.day) < (birth.month, birth.day) { years -= 1 }
        return [("age", .number(Double(years))), ("isAdult", .bool(years >= 18))]
    }

    // MARK: one patient

    /// One stored row of a resource: a reading, or a dose.
    private struct Row {
        var order: Int64
        var id: String
        var identifiers: [String]
        var version: Int64?
        var updated: Int64?
        var status: String
        var key: String
        var display: String?
        var time: FHIRTime?
        var value: Double?
        var unit: String?
        var problem: String?
    }

    /// The rows of one copy of one resource (an observation has a row per component).
    private struct Copy {
        var rows: [Row]
        var first: Row { rows[0] }
    }

    private func copies(of subject: FHIRRecordSubject, dose: Bool) throws -> [Copy] {
        let statement: SQLiteStatement
        switch subject {
        case .known(let ord):
            statement = dose ? dosesOfPatient : readingsOfPatient
            statement.bind(1, ord)
        case .stranger(let key):
            statement = dose ? dosesOfStranger : readingsOfStranger
            statement.bind(1, key)
        }
        defer { statement.reset() }
        var copies: [Copy] = []
        while try statement.step() {
            let time = statement.integer(8).map { FHIRTime(milliseconds: $0, dateOnly: statement.integer(9) == 1) }
            let row = Row(
                order: statement.integer(0) ?? 0, id: statement.text(1) ?? "",
                identifiers: statement.text(2).map { $0.split(separator: "\n").map(String.init) } ?? [],
                version: statement.integer(3), updated: statement.integer(4), status: statement.text(5) ?? "",
                key: statement.text(6) ?? "", display: statement.text(7), time: time, value: dose ? nil : statement.real(10),
                unit: dose ? nil : statement.text(11), problem: statement.text(dose ? 10 : 12))
            if let last = copies.last, last.first.order == row.order {
                copies[copies.count - 1].rows.append(row)
            } else {
                copies.append(Copy(rows: [row]))
            }
        }
        return copies
    }

    /// Whether `a` is a newer copy of a resource than `b`: a higher versionId, else a later lastUpdated;
    /// without either, a withdrawal (entered-in-error) outranks a correction, which outranks a final
    /// reading (a reading withdrawn anywhere in the export stays withdrawn); else the one read later.
    private static func isNewer(_ a: Row, than b: Row) -> Bool {
        if let x = a.version, let y = b.version, x != y { return x > y }
        if let x = a.updated, let y = b.updated, x != y { return x > y }
        func rank(_ status: String) -> Int {
            switch status {
            case "entered-in-error": return 3
            case "amended", "corrected": return 2
            case "final": return 1
            default: return 0
            }
        }
        if rank(a.status) != rank(b.status) { return rank(a.status) > rank(b.status) }
        return a.order > b.order
    }

    /// The newest copy of each resource (by id); older copies are counted in `warnings`.
    private static func newest(_ copies: [Copy], warnings: inout FHIRRecordWarnings) -> [Copy] {
        var newestByID: [String: Int] = [:]
        for (position, copy) in copies.enumerated() {
            if let other = newestByID[copy.first.id], !isNewer(copy.first, than: copies[other].first) { continue }
            newestByID[copy.first.id] = position
        }
        let kept = Set(newestByID.values)
        let older = copies.count - kept.count
        if older > 0 { warnings.add("an older version of a resource replaced by a newer one", older) }
        return copies.indices.filter { kept.contains($0) }.map { copies[$0] }
    }

    private func isInPeriod(_ time: FHIRTime?) -> Bool {
        guard let time, let period else { return true }
        return period.index(of: options.clock.day(of: time)) != nil
    }

    /// The days from the first to the last reading or dose (for a record of all of the data).
    private func span(of copies: [Copy]) -> FHIRPeriod? {
        var first: Int64?
        var last: Int64?
        for copy in copies {
            for row in copy.rows {
                guard let time = row.time else { continue }
                let day = options.clock.day(of: time)
                first = min(first ?? day, day)
                last = max(last ?? day, day)
            }
        }
        guard let first, let last else { return nil }
        return FHIRPeriod(first: first, last: min(last, first + Int64(FHIRPeriod.maximumDays) - 1))
    }

    private func record(
        patient: [(key: String, value: TreeValue)], of subject: FHIRRecordSubject, resource patientResource: TreeValue?,
        warnings initial: [(String, Int)], notices: inout [String]
    ) throws -> TreeValue? {
        var warnings = FHIRRecordWarnings()
        for (reason, count) in initial { warnings.add(reason, count) }
        // What its document Bundles held about other patients, left out.
        switch subject {
        case .known(let ord):
            leftOutOfPatient.bind(1, ord)
            while try leftOutOfPatient.step() { warnings.add(leftOutOfPatient.text(0) ?? "", Int(leftOutOfPatient.integer(1) ?? 0)) }
            leftOutOfPatient.reset()
        case .stranger(let key):
            leftOutOfStranger.bind(1, key)
            while try leftOutOfStranger.step() { warnings.add(leftOutOfStranger.text(0) ?? "", Int(leftOutOfStranger.integer(1) ?? 0)) }
            leftOutOfStranger.reset()
        }
        let readings = try copies(of: subject, dose: false)
        let doses = try copies(of: subject, dose: true)
        period = options.period ?? span(of: readings + doses)
        let series = seriesValues(readings, warnings: &warnings)
        let medications = try medicationValues(doses, warnings: &warnings)
        let clinicalMembers = try clinical.members(of: subject, patient: patientResource, fields: patient, warnings: &warnings)
        notices += clinicalMembers.notices.map { "patient \(patient.first { $0.key == "id" }?.value.text ?? "?"): \($0)" }
        // Data in the period: a reading or dose, or one that could not be used (its warning must reach
        // someone), or the clinical record (problems, allergies, …).
        guard
            options.allPatients || !series.named.isEmpty || !series.coded.isEmpty || !medications.isEmpty || series.unusable
                || clinicalMembers.hasData
        else { return nil }
        let periodValue: TreeValue
        if let period {
            periodValue = .object([
                ("start", .string(CivilDate.text(period.first))), ("end", .string(CivilDate.text(period.last))),
                ("days", .array(period.dayTexts.map(TreeValue.string))),
                ("labels", .array((period.first...period.last).map { .string(CivilDate.shortLabel($0)) })),
                ("zone", .string(options.clock.identifier)),
            ])
        } else {
            periodValue = .object([
                ("start", .null), ("end", .null), ("days", .array([])), ("labels", .array([])), ("zone", .string(options.clock.identifier)),
            ])
        }
        var members: [(key: String, value: TreeValue)] = [
            ("patient", .object(patient + FHIRRecordBuilder.age(of: patient, on: period?.last ?? options.referenceDay))),
            ("period", periodValue),
            ("series", .object(series.named.map { (key: $0.key, value: $0.value) })),
            ("codes", .object(series.coded.map { (key: $0.key, value: $0.value) })),
        ]
        if let pressure = series.bloodPressure { members.append(("bloodPressure", pressure)) }
        members.append(("medications", .array(medications)))
        members += clinicalMembers.members
        members.append(
            ("warnings", .array(warnings.list.map { .object([("reason", .string($0.reason)), ("count", .number(Double($0.count)))]) })))
        if options.keepsRecordBundles { members.append(("fhirBundle", try bundle(of: subject).map(TreeValue.string) ?? .null)) }
        return .object(members)
    }

    // MARK: readings

    /// A series' points before they are summarised.
    private struct SeriesPoints {
        var display: String?
        var unit: String?
        /// Whether the day's value is the sum of its readings (a count), not their mean.
        var summed = false
        var points: [(time: FHIRTime, order: Int64, value: Double?)] = []
    }

    private func seriesValues(_ all: [Copy], warnings: inout FHIRRecordWarnings) -> (
        named: [(key: String, value: TreeValue)], coded: [(key: String, value: TreeValue)], bloodPressure: TreeValue?, unusable: Bool
    ) {
        var unusable = false
        var copies = FHIRRecordBuilder.newest(all, warnings: &warnings)
        // Withdrawn, cancelled, preliminary and other unreported statuses: skipped, counted (in the period).
        copies = copies.filter { copy in
            if FHIRIndex.reportedStatuses.contains(copy.first.status) { return true }
            if isInPeriod(copy.first.time) {
                let status = copy.first.status
                warnings.add(status.isEmpty ? "an observation without a status" : "an observation with status \(status.prefix(30))", 1)
            }
            return false
        }
        copies = FHIRRecordBuilder.withoutAmended(copies, warnings: &warnings, counting: isInPeriod)
        var bySeries: [String: SeriesPoints] = [:]
        // A reading sent twice under new ids (same code, time and value) is counted once.
        var seen = Set<String>()
        for copy in copies {
            for row in copy.rows {
                if let problem = row.problem {
                    if isInPeriod(row.time) {
                        warnings.add(problem, 1)
                        unusable = true
                    }
                    continue
                }
                guard let time = row.time, isInPeriod(time) else { continue }
                var entry =
                    bySeries[row.key]
                    ?? SeriesPoints(display: row.display, summed: FHIRSeriesCatalog.series(named: row.key)?.summed ?? false)
                var value = row.value
                if let reading = value, let unit = row.unit, FHIRSeriesCatalog.series(named: row.key) == nil {
                    // A coded series keeps the unit of its first value; others are converted to it when they can be.
                    if let seriesUnit = entry.unit {
                        if let converted = FHIRUnits.convert(reading, from: unit, to: seriesUnit), abs(converted) < InputLimits.magnitude {
                            value = converted
                        } else {
                            warnings.add("a \(row.key.prefix(60)) value in \(unit.prefix(20)), not \(seriesUnit.prefix(20))", 1)
                            continue
                        }
                    } else {
                        entry.unit = unit
                    }
                } else if entry.unit == nil {
                    entry.unit = FHIRSeriesCatalog.series(named: row.key)?.unit ?? row.unit
                }
                if let value, !seen.insert("\(row.key)@\(time.milliseconds)=\(value)").inserted { continue }
                entry.points.append((time, row.order, value))
                bySeries[row.key] = entry
            }
        }
        var named: [(key: String, value: TreeValue)] = []
        var coded: [(key: String, value: TreeValue)] = []
        var dailyByName: [String: [Double?]] = [:]
        for key in bySeries.keys.sorted(by: { (FHIRSeriesCatalog.order(of: $0), $0) < (FHIRSeriesCatalog.order(of: $1), $1) }) {
            guard let entry = bySeries[key] else { continue }
            let summary = summarise(entry)
            if FHIRSeriesCatalog.series(named: key) != nil {
                named.append((key, summary.value))
                dailyByName[key] = summary.daily
            } else {
                coded.append((key, summary.value))
            }
        }
        var bloodPressure: TreeValue?
        let systolic = dailyByName["systolic"]
        let diastolic = dailyByName["diastolic"]
        if systolic != nil || diastolic != nil {
            let days = period?.dayCount ?? 0
            let pairs = (0..<days).map { day -> TreeValue in
                guard let high = systolic?[day] ?? nil, let low = diastolic?[day] ?? nil else { return .array([]) }
                return .array([.number(low), .number(high)])
            }
            bloodPressure = .object([("unit", .string("mm[Hg]")), ("daily", .array(pairs))])
        }
        return (named, coded, bloodPressure, unusable)
    }

    /// Readings replaced by an amended or corrected one: the same identifier, or the same series at the same instant.
    private static func withoutAmended(_ copies: [Copy], warnings: inout FHIRRecordWarnings, counting: (FHIRTime?) -> Bool) -> [Copy] {
        let amending = copies.indices.filter { ["amended", "corrected"].contains(copies[$0].first.status) }
        guard !amending.isEmpty else { return copies }
        var byIdentifier: [String: [Int]] = [:]
        var byReading: [String: [Int]] = [:]
        for (position, copy) in copies.enumerated() {
            for identifier in copy.first.identifiers { byIdentifier[identifier, default: []].append(position) }
            for row in copy.rows where row.problem == nil {
                if let time = row.time { byReading["\(row.key)@\(time.milliseconds)", default: []].append(position) }
            }
        }
        var replaced = Set<Int>()
        for position in amending where !replaced.contains(position) {
            let copy = copies[position]
            var others = copy.first.identifiers.flatMap { byIdentifier[$0] ?? [] }
            for row in copy.rows where row.problem == nil {
                if let time = row.time { others += byReading["\(row.key)@\(time.milliseconds)"] ?? [] }
            }
            for other in Set(others) where other != position && !replaced.contains(other) {
                let candidate = copies[other].first
                let candidateAmends = ["amended", "corrected"].contains(candidate.status)
                guard !candidateAmends || isNewer(copy.first, than: candidate) else { continue }
                replaced.insert(other)
                if counting(candidate.time) { warnings.add("a reading replaced by an amended or corrected one", 1) }
            }
        }
        return copies.indices.filter { !replaced.contains($0) }.map { copies[$0] }
    }

    private func summarise(_ entry: SeriesPoints) -> (value: TreeValue, daily: [Double?]) {
        // A date-only reading is at its local midnight (not UTC's), before that day's timed readings.
        let clock = options.clock
        func instant(_ time: FHIRTime) -> Int64 { time.dateOnly ? clock.instant(ofLocal: time.milliseconds) : time.milliseconds }
        let points = entry.points.map { (point: $0, key: instant($0.time)) }
            .sorted { ($0.key, $0.point.order) < ($1.key, $1.point.order) }.map(\.point)
        // Each reading's time as text, once: for `points`, and for `times` beside its value.
        let texts = points.map { clock.text(of: $0.time) }
        let dayCount = period?.dayCount ?? 0
        var sums = [Double](repeating: 0, count: dayCount)
        var counts = [Int](repeating: 0, count: dayCount)
        var values: [Double] = []
        var times: [TreeValue] = []
        for (point, text) in zip(points, texts) {
            guard let value = point.value, let day = period?.index(of: clock.day(of: point.time)) else { continue }
            sums[day] += value
            counts[day] += 1
            values.append(value)
            times.append(.string(text))
        }
        // A count (steps) is summed over the day; a measurement is averaged.
        let summed = entry.summed
        let daily: [Double?] = zip(sums, counts).map { $1 > 0 ? FHIRUnits.tidy(summed ? $0 : $0 / Double($1)) : nil }
        let totals = daily.compactMap { $0 }
        let number: (Double?) -> TreeValue = { $0.map(TreeValue.number) ?? .null }
        var members: [(key: String, value: TreeValue)] = []
        if let display = entry.display { members.append(("name", .string(display))) }
        members += [
            ("unit", entry.unit.map(TreeValue.string) ?? .null),
            (
                "points",
                .array(
                    zip(points, texts).map { point, text in .object([("time", .string(text)), ("value", number(point.value))]) })
            ),
            ("daily", .array(daily.map(number))),
            // The readings as two lists a line chart takes (`x` and `values`), for a record of any length.
            ("times", .array(times)),
            ("values", .array(values.map(TreeValue.number))),
            (
                "mean",
                number(
                    summed
                        ? (totals.isEmpty ? nil : FHIRUnits.tidy(totals.reduce(0, +) / Double(totals.count)))
                        : (values.isEmpty ? nil : FHIRUnits.tidy(values.reduce(0, +) / Double(values.count))))
            ),
            ("min", number(values.min())), ("max", number(values.max())), ("last", number(values.last)),
            ("count", .number(Double(values.count))),
        ]
        if summed { members.append(("total", number(FHIRUnits.tidy(values.reduce(0, +))))) }
        return (.object(members), daily)
    }

    // MARK: medications

    /// Statuses of a dose that was given, and of one that was recorded but not given.
    private static let given: Set<String> = ["completed", "in-progress"]
    private static let notGiven: Set<String> = ["not-done", "on-hold", "stopped"]

    private func medicationValues(_ all: [Copy], warnings: inout FHIRRecordWarnings) throws -> [TreeValue] {
        let copies = FHIRRecordBuilder.newest(all, warnings: &warnings)
        struct Tally {
            var name: String
            var given: [Int]
            var recorded: [Int]
        }
        var tallies: [String: Tally] = [:]
        var order: [String] = []
        for copy in copies {
            let row = copy.first
            guard isInPeriod(row.time) else { continue }
            if let problem = row.problem {
                warnings.add(problem, 1)
                continue
            }
            let wasGiven = FHIRRecordBuilder.given.contains(row.status)
            guard wasGiven || FHIRRecordBuilder.notGiven.contains(row.status) else {
                warnings.add(
                    row.status.isEmpty
                        ? "a medication administration without a status"
                        : "a medication administration with status \(row.status.prefix(30))", 1)
                continue
            }
            guard let time = row.time, let day = period?.index(of: options.clock.day(of: time)) else { continue }
            // A Medication referred to is counted under its code, with the doses that name the code itself.
            var key = row.key
            var name = row.display
            if key.hasPrefix("Medication/") || key.hasPrefix("urn:") {
                medicationName.bind(1, key)
                if try medicationName.step() {
                    name = name ?? medicationName.text(0)
                    if let code = medicationName.text(1) { key = code }
                }
                medicationName.reset()
            }
            if tallies[key] == nil {
                let days = period?.dayCount ?? 0
                tallies[key] = Tally(
                    name: name ?? key, given: [Int](repeating: 0, count: days), recorded: [Int](repeating: 0, count: days))
                order.append(key)
            }
            tallies[key]?.recorded[day] += 1
            if wasGiven { tallies[key]?.given[day] += 1 }
        }
        return order.compactMap { key in
            guard let tally = tallies[key] else { return nil }
            let given = tally.given.reduce(0, +)
            let recorded = tally.recorded.reduce(0, +)
            let daily: [TreeValue] = zip(tally.given, tally.recorded).map {
                $1 > 0 ? .number(FHIRUnits.tidy(Double($0) / Double($1))) : .null
            }
            return .object([
                ("name", .string(tally.name)), ("code", .string(key)),
                (
                    "adherence",
                    .object([
                        ("daily", .array(daily)),
                        ("mean", recorded > 0 ? .number(FHIRUnits.tidy(Double(given) / Double(recorded))) : .null),
                        ("given", .number(Double(given))), ("recorded", .number(Double(recorded))),
                    ])
                ),
            ])
        }
    }
}
