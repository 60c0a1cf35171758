import FolioInput
import FolioModel
import Foundation

/// How FHIR data becomes report records: the period, the zone whose local days it counts, and
/// whether patients without readings in the period still get a record.
public struct FHIRImportOptions: Sendable {
    /// The report period.
    public let period: FHIRPeriod
    /// The zone local days are counted in (and point times are written in).
    let clock: ZoneClock
    /// A record for every Patient, even one with no data in the period.
    public let allPatients: Bool

    /// Options for `period` (`START/END`) in the IANA `zone`; errors name `--period` or `--zone`.
    public init(period text: String, zone: String = "UTC", allPatients: Bool = false) throws {
        period = try FHIRPeriod(parsing: text, field: "--period")
        // Offsets precomputed from two days before to two days after the period (zones are within ±14 h).
        guard
            let clock = ZoneClock(
                identifier: zone, from: (period.first - 2) * 86_400_000, to: (period.last + 3) * 86_400_000)
        else {
            throw FolioError(path: "--zone", "\"\(zone.prefix(64))\" is not an IANA time zone, such as UTC or America/New_York")
        }
        self.clock = clock
        self.allPatients = allPatients
        periodText = text
    }

    /// The period as it was given (`2026-11-09/2026-11-15`).
    public let periodText: String
    /// The zone's IANA identifier.
    public var zoneIdentifier: String { clock.identifier }

    /// Whether an instant is near enough the period to be kept in the index (a day's margin each side).
    func isNearPeriod(_ time: FHIRTime) -> Bool {
        let day = time.milliseconds / 86_400_000
        return day >= period.first - 2 && day <= period.last + 2
    }
}
