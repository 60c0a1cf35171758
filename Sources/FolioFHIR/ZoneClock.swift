import FolioModel
import Foundation

/// An IANA zone's UTC offsets, looked up once per transition: the local day and the
/// ISO 8601 text (with the zone's offset) of any instant, without calendar work per reading.
struct ZoneClock: Sendable {
    /// The zone's identifier, such as `America/New_York`.
    let identifier: String
    private let zone: TimeZone
    /// Instants (ms) from which an offset (s) holds, ascending; covers `span`.
    private let transitions: [Transition]
    private let span: ClosedRange<Int64>
    /// Whether a clinical record's times are shown at the offset they were written with (no zone was
    /// chosen), rather than in this zone.
    var showsTimesAsWritten = false

    private struct Transition: Sendable {
        let start: Int64
        let offset: Int32
    }

    /// The zone named `identifier` (`UTC`, `Europe/Paris`) with its offsets precomputed from `start` to
    /// `end` (ms; lookups outside ask the system), or nil when the system has no such zone.
    init?(identifier: String, from start: Int64, to end: Int64) {
        guard !identifier.isEmpty, identifier.count <= 64, identifier.allSatisfy(\.isASCII),
            let zone = TimeZone(identifier: identifier)
        else { return nil }
        self.identifier = identifier
        self.zone = zone
        var list: [(Int64, Int32)] = []
        var instant = start
        list.append((instant, Int32(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant) / 1000)))))
        while let next = zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: Double(instant) / 1000)),
            next.timeIntervalSince1970 * 1000 < Double(end), list.count < 10_000
        {
            let milliseconds = Int64((next.timeIntervalSince1970 * 1000).rounded())
            guard milliseconds > instant else { break }
            instant = milliseconds
            list.append((instant, Int32(zone.secondsFromGMT(for: next))))
        }
        transitions = list.map { Transition(start: $0.0, offset: $0.1) }
        span = start...max(start, end)
    }

    /// The zone's offset from UTC in seconds at `milliseconds`.
    func offset(at milliseconds: Int64) -> Int {
        guard span.contains(milliseconds), !transitions.isEmpty else {
            return zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
        }
        var low = 0
        var high = transitions.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if transitions[middle].start <= milliseconds { low = middle } else { high = middle - 1 }
        }
        return Int(transitions[low].offset)
    }

    /// The instant whose wall-clock time in this zone is `local` (ms since 1970 as if UTC).
    func instant(ofLocal local: Int64) -> Int64 {
        let guess = local - Int64(offset(at: local)) * 1000
        return local - Int64(offset(at: guess)) * 1000
    }

    /// The local day number of a reading (a date-only reading keeps its date).
    func day(of time: FHIRTime) -> Int64 {
        if time.dateOnly { return time.milliseconds / 86_400_000 }
        let local = time.milliseconds + Int64(offset(at: time.milliseconds)) * 1000
        return local >= 0 ? local / 86_400_000 : (local - 86_399_999) / 86_400_000
    }

    /// ISO 8601 with this zone's offset: `2026-11-09T21:30:00-05:00` (milliseconds when not zero);
    /// a date-only reading is its local midnight.
    func text(of time: FHIRTime) -> String {
        let instant = time.dateOnly ? instant(ofLocal: time.milliseconds) : time.milliseconds
        let offset = self.offset(at: instant)
        let local = instant + Int64(offset) * 1000
        let day = local >= 0 ? local / 86_400_000 : (local - 86_399_999) / 86_400_000
        let inDay = Int(local - day * 86_400_000)
        var text =
            CivilDate.text(day) + "T" + CivilDate.pad(inDay / 3_600_000, 2) + ":" + CivilDate.pad(inDay / 60_000 % 60, 2) + ":"
            + CivilDate.pad(inDay / 1000 % 60, 2)
        if inDay % 1000 != 0 { text += "." + CivilDate.pad(inDay % 1000, 3) }
        let magnitude = abs(offset) / 60
        text += (offset < 0 ? "-" : "+") + CivilDate.pad(magnitude / 60, 2) + ":" + CivilDate.pad(magnitude % 60, 2)
        return text
    }
}
