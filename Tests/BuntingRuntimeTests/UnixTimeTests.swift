import BuntingRuntime
import Testing

/// Times as scripts write them: Unix seconds or RFC 3339, one reading everywhere.
@Suite struct UnixTimeTests {
    @Test func unixSecondsAreReadAsTheyAre() {
        #expect(UnixTime.parse("1764600000") == 1_764_600_000)
        #expect(UnixTime.parse("1764600000.25") == 1_764_600_000.25)
        #expect(UnixTime.parse("-1") == -1)
        #expect(UnixTime.parse("nan") == nil)
        #expect(UnixTime.parse("inf") == nil)
        #expect(UnixTime.parse("1e20") == nil, "past the year 9999")
    }

    @Test func rfc3339DateTimesAreReadWithTheirOffset() {
        #expect(UnixTime.parse("2026-12-08T09:00:00Z") == 1_796_720_400)
        #expect(UnixTime.parse("2026-12-08t09:00:00z") == 1_796_720_400)
        #expect(UnixTime.parse("2026-12-08 10:00:00+01:00") == 1_796_720_400)
        #expect(UnixTime.parse("2026-12-08T04:30:00.5-04:30") == 1_796_720_400.5)
        #expect(UnixTime.parse("1970-01-01T00:00:00Z") == 0)
        #expect(UnixTime.parse("1969-12-31T23:59:59Z") == -1)
        #expect(UnixTime.parse("2024-02-29T00:00:00Z") == 1_709_164_800, "a leap day")
        #expect(
            UnixTime.parse("2016-12-31T23:59:60Z") == 1_483_228_800,
            "a leap second reads as the next minute's first")
        #expect(UnixTime.parse("0000-01-01T00:00:00Z") == UnixTime.earliest)
        #expect(UnixTime.parse("9999-12-31T23:59:59Z") == UnixTime.latest)
    }

    @Test func whatIsNotOneOfTheTwoIsRefused() {
        for text in [
            "", "2026-12-08", "2026-12-08T09:00:00", "2026-12-08T09:00Z", "2026-13-01T00:00:00Z",
            "2023-02-29T00:00:00Z",
            "2026-12-08T24:00:00Z", "2026-12-08T09:00:00.Z", "2026-12-08T09:00:00+1:00", "next tuesday",
            "2026-12-08T09:00:00Z ",
        ] {
            #expect(UnixTime.parse(text) == nil, "\(text)")
        }
    }

    @Test func rfc3339IsWrittenInUTCWithAFractionOnlyWhenThereIsOne() {
        #expect(UnixTime.rfc3339(1_796_720_400) == "2026-12-08T09:00:00Z")
        #expect(UnixTime.rfc3339(1_700_000_000.5) == "2023-11-14T22:13:20.5Z")
        #expect(UnixTime.rfc3339(-1) == "1969-12-31T23:59:59Z")
        #expect(UnixTime.rfc3339(0.9999999) == "1970-01-01T00:00:01Z", "rounded to the microsecond")
        for seconds in [0.0, 951_782_400, 1_709_164_800, 4_102_444_800.25, -86_400 * 365.0] {
            #expect(UnixTime.parse(UnixTime.rfc3339(seconds)) == seconds, "round trip of \(seconds)")
        }
    }
}
