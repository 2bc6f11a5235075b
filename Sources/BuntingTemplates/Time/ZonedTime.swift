/// A moment with the UTC offset and zone name it is shown in: what the
/// `date` filter formats and `time_zone` makes.
final class ZonedTime: Sendable, CustomStringConvertible {
    struct Instant: Comparable, Sendable {
        var seconds: Int64
        var nanoseconds: Int

        static func < (lhs: Instant, rhs: Instant) -> Bool {
            (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
        }
    }

    let instant: Instant
    /// Seconds east of UTC.
    let offset: Int
    /// The zone's abbreviation for this moment (`PST`, `CEST`, `UTC`, `+0530`).
    let abbreviation: String
    /// Shown as UTC (Ruby prints `UTC` rather than `+0000` then).
    let isUTC: Bool
    let civil: CivilTime

    init(instant: Instant, offset: Int, abbreviation: String, isUTC: Bool) {
        self.instant = instant
        self.offset = offset
        self.abbreviation = abbreviation
        self.isUTC = isUTC
        self.civil = CivilTime(unixSeconds: instant.seconds, offset: offset)
    }

    /// Unix seconds (with their fraction) in UTC.
    convenience init?(unixTime: Double) {
        guard unixTime.isFinite, abs(unixTime) < Self.maxSeconds else { return nil }
        let seconds = unixTime.rounded(.down)
        let nanoseconds = Int(((unixTime - seconds) * 1e9).rounded(.down))
        self.init(
            instant: Instant(seconds: Int64(seconds), nanoseconds: min(nanoseconds, 999_999_999)), offset: 0,
            abbreviation: "UTC", isUTC: true)
    }

    convenience init?(unixSeconds seconds: Int64) {
        guard abs(Double(seconds)) < Self.maxSeconds else { return nil }
        self.init(instant: Instant(seconds: seconds, nanoseconds: 0), offset: 0, abbreviation: "UTC", isUTC: true)
    }

    /// About ±3 million years: beyond it a date means nothing, and the
    /// calendar arithmetic stays far from 64-bit overflow.
    static let maxSeconds = 1e14

    /// The same moment in another zone.
    func shown(in zone: TimeZoneRules) -> ZonedTime {
        let local = zone.localTime(at: instant.seconds)
        return ZonedTime(instant: instant, offset: local.offset, abbreviation: local.abbreviation, isUTC: zone.isUTC)
    }

    /// Ruby's `Time#to_s`: `2026-03-14 09:26:53 -0700`, or `… UTC`.
    var description: String {
        let date = Strftime.format("%Y-%m-%d %H:%M:%S", self, maxWidth: 16)
        return (try? date.get()).map { $0 + (isUTC ? " UTC" : " " + Strftime.offsetText(offset, colons: 0)) } ?? ""
    }
}
