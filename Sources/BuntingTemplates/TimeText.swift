/// Reading a moment written by a person, for callers that take a time as
/// text (`bunting render --at`): Unix seconds, or a date as the `date`
/// filter reads one (`2026-03-14T09:26:53Z`, `March 14, 2026 9:26`; UTC
/// unless a zone is written).
public enum TimeText {
    public static func unixTime(_ text: String) -> Double? {
        if let seconds = Double(text), seconds.isFinite, abs(seconds) < ZonedTime.maxSeconds { return seconds }
        guard let time = DateParsing.parse(text, now: 0) else { return nil }
        return Double(time.instant.seconds) + Double(time.instant.nanoseconds) / 1e9
    }
}
