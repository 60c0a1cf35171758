import FolioModel
import Foundation

/// How FHIR data becomes report records: the period (or all of the data), the zone whose local
/// days it counts, and whether patients without readings in the period still get a record.
public struct FHIRImportOptions: Sendable {
    /// The report period; nil for all of the data (each record's period is then its data's span).
    public let period: FHIRPeriod?
    /// The zone local days are counted in (and point times are written in).
    let clock: ZoneClock
    /// A record for every Patient, even one with no data in the period.
    public let allPatients: Bool
    /// Identifier systems whose values a site must not print: masked in `patient.identifiers` and
    /// `patient.identifier` (all but the last four characters; the record's `subject` keeps the value).
    public var maskedIdentifierSystems: Set<String> = []
    /// Whether each record carries its patient's resources as read (the Patient and every resource
    /// naming it) as the text of a FHIR `collection` Bundle, in `fhirBundle`: what `folio batch
    /// --attach fhir` embeds in each PDF. Off by default: the index then keeps no resource whole that
    /// a record does not show.
    public var keepsRecordBundles = false

    /// `value` masked: bullets, then its last four characters when it has more than six.
    static func masked(_ value: String) -> String {
        let kept = value.count > 6 ? String(value.suffix(4)) : ""
        return "••••" + (kept.isEmpty ? "" : " " + kept)
    }

    /// The error for a `--zone` that names no IANA time zone.
    private static func unknownZone(_ zone: String) -> FolioError {
        FolioError(path: "--zone", "\"\(zone.prefix(64))\" is not an IANA time zone, such as UTC or America/New_York")
    }

    /// Options for `period` (`START/END`, or `last-week` for the Monday-to-Sunday week before today's
    /// in `zone`; nil for all of the data) in the IANA `zone` (nil: days are counted in UTC, and a
    /// clinical record's times are shown as their source wrote them); errors name `--period` or `--zone`.
    /// `now` (seconds since 1970) is when "today" is.
    public init(
        period given: String?, zone givenZone: String? = nil, allPatients: Bool = false, now: Int64 = FHIRImportOptions.currentSeconds
    ) throws {
        let zone = givenZone ?? "UTC"
        var text = given
        if given == FHIRPeriod.lastWeekName {
            guard let timeZone = TimeZone(identifier: zone) else {
                throw Self.unknownZone(zone)
            }
            let local = now + Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(now))))
            text = FHIRPeriod.week(before: local >= 0 ? local / 86_400 : (local - 86_399) / 86_400).text
        }
        let period = try text.map { try FHIRPeriod(parsing: $0, field: "--period") }
        self.period = period
        // Offsets precomputed from two days before to two days after the period (zones are within ±14 h);
        // for all of the data, from 1900 to 2100 (other instants ask the system).
        let from = period.map { ($0.first - 2) * 86_400_000 } ?? CivilDate.days(year: 1900, month: 1, day: 1) * 86_400_000
        let to = period.map { ($0.last + 3) * 86_400_000 } ?? CivilDate.days(year: 2100, month: 1, day: 1) * 86_400_000
        guard var clock = ZoneClock(identifier: zone, from: from, to: to) else { throw Self.unknownZone(zone) }
        clock.showsTimesAsWritten = givenZone == nil
        self.clock = clock
        self.allPatients = allPatients
        periodText = text
    }

    /// Now, in seconds since 1970: `SOURCE_DATE_EPOCH` when it is set (reproducible builds), else the clock's.
    public static var currentSeconds: Int64 {
        if let text = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"], let seconds = Int64(text),
            (0...253_402_300_799).contains(seconds)
        {
            return seconds
        }
        return Int64(exactly: Date().timeIntervalSince1970.rounded(.down)) ?? 0
    }

    /// The day ages are counted to when there is no period: `SOURCE_DATE_EPOCH`'s day when it is
    /// set (reproducible builds), else today.
    let referenceDay: Int64 = FHIRImportOptions.currentSeconds / 86_400

    /// The period as it was given (`2026-11-09/2026-11-15`), or nil for all of the data.
    public let periodText: String?
    /// Whether a zone was chosen (else days are UTC's and clinical times are shown as written).
    public var zoneIsChosen: Bool { !clock.showsTimesAsWritten }
    /// The zone's IANA identifier.
    public var zoneIdentifier: String { clock.identifier }

    /// Whether a time of only a year or a month (`2026`, `2026-10`) overlaps the period (with a
    /// day's margin each side); such a time cannot be placed on a day, and outside the period it is
    /// not needed at all.
    func isNearPeriod(partial text: String) -> Bool {
        guard let period else { return true }
        guard FHIRText.isPartialDate(text), let year = Int(text.prefix(4)) else { return true }
        let month = text.count == 7 ? Int(text.suffix(2)) : nil
        let first = CivilDate.days(year: year, month: month ?? 1, day: 1)
        let last =
            month.map { CivilDate.days(year: year, month: $0, day: CivilDate.daysInMonth(year: year, month: $0)) }
            ?? CivilDate.days(year: year, month: 12, day: 31)
        return last >= period.first - 2 && first <= period.last + 2
    }

    /// Whether an instant is near enough the period to be kept in the index (a day's margin each side).
    func isNearPeriod(_ time: FHIRTime) -> Bool {
        guard let period else { return true }
        let day = time.milliseconds / 86_400_000
        return day >= period.first - 2 && day <= period.last + 2
    }
}
