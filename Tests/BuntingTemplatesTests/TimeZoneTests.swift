import BuntingJSON
import Testing
@testable import BuntingTemplates

/// `date` and `time_zone` on the caller's clock, with IANA zones read from
/// the system's TZif files (Debian's tzdata).
@Suite struct TimeZoneTests {
    // 2026-03-14 09:26:53.5 UTC (a Saturday); in Los Angeles PDT since March 8.
    @Test func nowIsTheCallersClock() throws {
        #expect(try render("{{ 'now' | date: '%Y-%m-%d %H:%M:%S %Z' }}") == "2026-03-14 09:26:53 UTC")
        #expect(try render("{{ 'today' | date: '%A %j' }}") == "Saturday 073")
        #expect(try render("{{ 'now' | date: '%s' }}", now: 0) == "0")
        #expect(try render("{{ 'now' | date: '%s.%L' }}") == "1773480413.500")
    }

    @Test func timeZoneShiftsWhatDateShows() throws {
        #expect(try render("{{ 'now' | time_zone: 'America/Los_Angeles' | date: '%H:%M %Z %z' }}") == "02:26 PDT -0700")
        #expect(try render("{{ 'now' | time_zone: 'Europe/Paris' | date: '%H:%M %Z' }}") == "10:26 CET")
        #expect(try render("{{ 'now' | time_zone: 'Asia/Kolkata' | date: '%H:%M %:z' }}") == "14:56 +05:30")
        #expect(
            try render(
                "{{ 'now' | time_zone: ${time_zone} | date: '%H' }}", attributes: ["time_zone": "Australia/Sydney"])
                == "20")
        #expect(try render("{{ 'now' | time_zone: '-0005' | date: '%H:%M %z' }}") == "09:21 -0005")
        #expect(try render("{{ 'now' | time_zone: 'UTC' | date: '%H %Z' }}") == "09 UTC")
    }

    @Test func transitionsBeforeAndAfterTheListedYears() throws {
        // Before and after the 2026 spring change in New York (March 8, 07:00 UTC).
        #expect(try render("{{ 1772953199 | time_zone: 'America/New_York' | date: '%H:%M %Z' }}") == "01:59 EST")
        #expect(try render("{{ 1772953200 | time_zone: 'America/New_York' | date: '%H:%M %Z' }}") == "03:00 EDT")
        // 2100, past any transition a file lists: the footer's rule decides.
        #expect(try render("{{ '2100-07-01T12:00:00Z' | time_zone: 'America/New_York' | date: '%H %Z' }}") == "08 EDT")
        #expect(try render("{{ '2100-01-01T12:00:00Z' | time_zone: 'America/New_York' | date: '%H %Z' }}") == "07 EST")
        // The southern hemisphere: daylight time across the new year.
        #expect(try render("{{ '2100-01-01T00:00:00Z' | time_zone: 'Australia/Sydney' | date: '%H %Z' }}") == "11 AEDT")
        #expect(try render("{{ '2100-07-01T00:00:00Z' | time_zone: 'Australia/Sydney' | date: '%H %Z' }}") == "10 AEST")
        // 1900, before the first transition.
        #expect(
            try render("{{ '1800-01-01T00:00:00Z' | time_zone: 'Europe/London' | date: '%H:%M:%S' }}")
                == "23:58:45")
    }

    @Test func aTimeInAZonePrintsAsRubyPrintsIt() throws {
        #expect(try render("{{ 'now' | time_zone: 'America/Los_Angeles' }}") == "2026-03-14 02:26:53 -0700")
        #expect(try render("{{ 'now' | time_zone: 'UTC' }}") == "2026-03-14 09:26:53 UTC")
    }

    @Test func noZoneLeavesUTCAndAnUnknownZoneIsAnError() throws {
        #expect(try render("{{ 'now' | time_zone: ${time_zone} | date: '%H' }}", attributes: [:]) == "09")
        let error = failure("{{ 'now' | time_zone: 'Mars/Olympus_Mons' | date: '%H' }}")
        #expect(error?.message == "time_zone: unknown time zone 'Mars/Olympus_Mons'")
        #expect(error?.phase == .render)
        for name in ["../../etc/passwd", "/etc/localtime", "America/../../x", "Europe/.Paris"] {
            #expect(
                failure("{{ 'now' | time_zone: '\(name)' }}")?.message.contains("unknown time zone") == true, "\(name)")
        }
    }

    @Test func writtenDates() throws {
        #expect(try render("{{ 'March 14, 2016' | date: '%b %d, %y' }}") == "Mar 14, 16")
        #expect(try render("{{ '2016-03-14 10:30' | date: '%H:%M' }}") == "10:30")
        #expect(try render("{{ '2016-03-14T10:30:00+02:00' | date: '%H:%M %z' }}") == "10:30 +0200")
        #expect(try render("{{ 'Tue, 10 Aug 2010 01:20:19 +0400' | date: '%s' }}") == "1281388819")
        #expect(try render("{{ '14 March 2016 3:15 pm' | date: '%H:%M' }}") == "15:15")
        // Not a date: given back as it is.
        #expect(try render("{{ 'soon' | date: '%Y' }}") == "soon")
        #expect(try render("{{ '2016-02-30' | date: '%Y' }}") == "2016-02-30")
    }

    @Test func strftimeFlagsAndWidths() throws {
        #expect(try render("{{ 'now' | date: '%-d/%-m %e|%3N|%^a|%10A|%-H' }}") == "14/3 14|500|SAT|  Saturday|9")
        #expect(
            try render("{{ 'now' | date: '%F %T %D %R %r %p %P %I %l' }}") == "2026-03-14 09:26:53 03/14/26 "
                + "09:26 09:26:53 AM AM am 09  9")
        #expect(try render("{{ 'now' | date: '%G-W%V-%u %U %W %C %y %%' }}") == "2026-W11-6 10 10 20 26 %")
        #expect(try render("{{ 'now' | date: '%Q %q' }}") == "1773480413500 %q")
    }

    @Test func theZoneCacheIsSharedAcrossThreads() async throws {
        let template = try Template("{{ 'now' | time_zone: ${zone} | date: '%H' }}")
        let zones = ["America/Los_Angeles", "Europe/Paris", "Asia/Tokyo", "Australia/Sydney"]
        let expected = ["02", "10", "18", "20"]
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for round in 0..<64 {
                let index = round % zones.count
                group.addTask {
                    let text = try template.render(
                        RenderContext(attributes: ["zone": .string(zones[index])], now: testNow))
                    return text == expected[index]
                }
            }
            for try await ok in group { #expect(ok) }
        }
    }
}
