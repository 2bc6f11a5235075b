import BuntingJSON
import Foundation
import Testing

/// A definitions server with document v1 and a Bunting process synced to it.
struct DefinitionsFixture {
    static let path = "/definitions.json"
    static let lastModified = "Sat, 01 Nov 2025 10:00:00 GMT"
    let server: FaultServer
    let bunting: BuntingClient

    init(_ arguments: [String] = [], keepAlive: Bool = true) throws {
        server = try FaultServer()
        try server.setKeepAlive(keepAlive)
        try server.setDocument(Self.path, definitions("v1"), etag: "\"v1\"", lastModified: Self.lastModified)
        bunting = try BuntingClient(["--definitions", server.url(Self.path)] + arguments)
        try bunting.startSynced()
    }

    /// Scripts `answers`, asks for a manual refresh of feature flags, and
    /// returns the events through the one that ends the refresh (DATA_UPDATED,
    /// or an ERROR nobody retries), with the requests the server saw for it.
    func refresh(_ answers: [FaultServer.Answer]) throws -> (
        events: [String], requests: [FaultServer.Received], raw: [JSON]
    ) {
        let before = try server.requests(Self.path).count
        try server.script(Self.path, answers)
        let start = bunting.events.count
        try bunting.call("refresh", ["channel": "featureFlags"])
        let events = try bunting.summaries(after: start, through: Self.endsARefresh)
        let raw = Array(bunting.events.dropFirst(start).prefix(events.count))
        return (events, Array(try server.requests(Self.path).dropFirst(before)), raw)
    }

    static func endsARefresh(_ summary: String) -> Bool {
        summary.hasPrefix("DATA_UPDATED") || summary.hasSuffix("INTEGRATOR_MAY_RETRY")
            || summary.hasSuffix("DO_NOT_RETRY")
    }

    /// After a failed refresh: the cache is the one from before, and the
    /// next refresh works and costs exactly one request, so the failure left
    /// no retry behind.
    func expectCacheKeptAndRecovery(_ before: JSON, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try bunting.snapshot() == before, "the cache changed", sourceLocation: sourceLocation)
        #expect(try bunting.greeting() == "v1", sourceLocation: sourceLocation)
        let total = try server.requests(Self.path).count
        let (events, _, _) = try refresh([])
        #expect(events == ["DATA_UPDATED featureFlags MANUAL_SERVER_REFRESH"], sourceLocation: sourceLocation)
        #expect(
            try server.requests(Self.path).count == total + 1, "a retry outlived the failure",
            sourceLocation: sourceLocation)
    }
}

let serverErrorCycle = [
    "ERROR featureFlags SERVER_ERROR SDK_WILL_RETRY",
    "ERROR featureFlags SERVER_ERROR SDK_WILL_RETRY",
    "ERROR featureFlags SERVER_ERROR INTEGRATOR_MAY_RETRY",
]

/// Every row of the failure model, against a real HTTP server on the loopback.
/// Each process retries twice (`--retry-max-attempts 2`): three tries in all.
@Suite struct HTTPDefinitionsFailureTests {
    @Test func serverErrorsAreRetriedWithBackoffThenLeftToTheIntegrator() throws {
        let fixture = try DefinitionsFixture()
        let before = try fixture.bunting.snapshot()
        let (events, requests, raw) = try fixture.refresh([.status(503), .status(500), .status(502)])
        #expect(events == serverErrorCycle)
        #expect(requests.count == 3)
        #expect(raw.map { $0["message"]?.stringValue } == ["HTTP 503", "HTTP 500", "HTTP 502"])
        try fixture.expectCacheKeptAndRecovery(before)
    }

    @Test func aRetryThatSucceedsFinishesTheRefreshWithTheNewDocument() throws {
        let fixture = try DefinitionsFixture()
        try fixture.server.setDocument(DefinitionsFixture.path, definitions("v2"), etag: "\"v2\"")
        let (events, requests, _) = try fixture.refresh([.status(503)])
        #expect(
            events == [
                "ERROR featureFlags SERVER_ERROR SDK_WILL_RETRY",
                "DATA_UPDATED featureFlags MANUAL_SERVER_REFRESH",
            ])
        #expect(requests.count == 2)
        #expect(try fixture.bunting.greeting() == "v2")
    }

    @Test func droppedConnectionsAreServerErrors() throws {
        // Without keep-alive: curl re-sends a request whose reused connection
        // died unanswered, which would blur the count of tries.
        let fixture = try DefinitionsFixture(keepAlive: false)
        let before = try fixture.bunting.snapshot()
        let (events, requests, raw) = try fixture.refresh([.drop, .drop, .drop])
        #expect(events == serverErrorCycle)
        #expect(requests.count == 3)
        #expect(raw.first?["message"] == "Server returned nothing (no headers, no data)")
        try fixture.expectCacheKeptAndRecovery(before)
    }

    @Test func truncatedBodiesAreServerErrors() throws {
        let fixture = try DefinitionsFixture()
        let before = try fixture.bunting.snapshot()
        let truncated = FaultServer.Answer.status(200, body: definitions("v2")).truncated(to: 20)
        let (events, requests, raw) = try fixture.refresh([truncated, truncated, truncated])
        #expect(events == serverErrorCycle)
        #expect(requests.count == 3)
        #expect(raw.first?["message"] == "Transferred a partial file")
        try fixture.expectCacheKeptAndRecovery(before)
    }

    @Test func timeoutsAreServerErrors() throws {
        let fixture = try DefinitionsFixture(["--timeout", "1"])
        let before = try fixture.bunting.snapshot()
        let slow = FaultServer.Answer.status(200, body: definitions("v2")).delayed(3)
        let (events, requests, raw) = try fixture.refresh([slow, slow, slow])
        #expect(events == serverErrorCycle)
        #expect(requests.count == 3)
        #expect(raw.first?["message"] == "timed out (connect timeout 10 s, total 1 s)")
        try fixture.expectCacheKeptAndRecovery(before)
    }

    /// Retry-After is honoured up to --retry-max-delay (here above it).
    @Test func rateLimitedWithRetryAfterInSecondsWaitsForIt() throws {
        let fixture = try DefinitionsFixture(["--retry-max-delay", "10"])
        try fixture.server.setDocument(DefinitionsFixture.path, definitions("v2"), etag: "\"v2\"")
        let (events, requests, raw) = try fixture.refresh([.status(429, headers: ["Retry-After": "1"])])
        #expect(
            events == [
                "ERROR featureFlags RATE_LIMITED SDK_WILL_RETRY",
                "DATA_UPDATED featureFlags MANUAL_SERVER_REFRESH",
            ])
        try #require(requests.count == 2)
        let until = try #require(raw[0]["rateLimitedUntil"]?.doubleValue)
        #expect(until >= requests[0].time + 1 && until < requests[0].time + 3)
        #expect(requests[1].time >= until - 0.01, "retried before Retry-After")
        #expect(try fixture.bunting.greeting() == "v2")
    }

    @Test func rateLimitedWithRetryAfterAsAnHTTPDateWaitsUntilThatDate() throws {
        let fixture = try DefinitionsFixture(["--retry-max-delay", "10"])
        let date = (Date().timeIntervalSince1970 + 2).rounded(.down)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let header = formatter.string(from: Date(timeIntervalSince1970: date))
        let (events, requests, raw) = try fixture.refresh([.status(429, headers: ["Retry-After": .string(header)])])
        #expect(
            events == [
                "ERROR featureFlags RATE_LIMITED SDK_WILL_RETRY",
                "DATA_UPDATED featureFlags MANUAL_SERVER_REFRESH",
            ])
        #expect(raw[0]["rateLimitedUntil"]?.doubleValue == date)
        try #require(requests.count == 2)
        #expect(requests[1].time >= date - 0.01, "retried before Retry-After")
    }

    /// `Retry-After: 100000000` (or a date in the year 9999) stopped fetching
    /// for years, and manual refreshes with it, until a restart.
    @Test(arguments: ["100000000", "Fri, 31 Dec 9999 23:59:59 GMT"])
    func aRetryAfterYearsAwayIsTakenAsTheLongestRetryDelay(retryAfter: String) throws {
        let fixture = try DefinitionsFixture(["--retry-max-delay", "0.5"])
        try fixture.server.setDocument(DefinitionsFixture.path, definitions("v2"), etag: "\"v2\"")
        let (events, requests, raw) = try fixture.refresh([.status(429, headers: ["Retry-After": .string(retryAfter)])])
        #expect(
            events == [
                "ERROR featureFlags RATE_LIMITED SDK_WILL_RETRY",
                "DATA_UPDATED featureFlags MANUAL_SERVER_REFRESH",
            ])
        try #require(requests.count == 2)
        let until = try #require(raw[0]["rateLimitedUntil"]?.doubleValue)
        #expect(until <= requests[0].time + 0.5 + 0.05, "rateLimitedUntil is the clamped time")
        #expect(requests[1].time >= until - 0.01)
        #expect(try fixture.bunting.greeting() == "v2")
    }

    @Test func rateLimitedAgainAndAgainIsLeftToTheIntegrator() throws {
        let fixture = try DefinitionsFixture()
        let before = try fixture.bunting.snapshot()
        let limited = FaultServer.Answer.status(429, headers: ["Retry-After": "0"])
        let (events, requests, raw) = try fixture.refresh([limited, limited, limited])
        #expect(
            events == [
                "ERROR featureFlags RATE_LIMITED SDK_WILL_RETRY",
                "ERROR featureFlags RATE_LIMITED SDK_WILL_RETRY",
                "ERROR featureFlags RATE_LIMITED INTEGRATOR_MAY_RETRY",
            ])
        #expect(raw.allSatisfy { $0["rateLimitedUntil"]?.isNumber == true })
        #expect(requests.count == 3)
        try fixture.expectCacheKeptAndRecovery(before)
    }

    @Test func rateLimitedWithoutAUsableRetryAfterIsAServerError() throws {
        let fixture = try DefinitionsFixture()
        let before = try fixture.bunting.snapshot()
        let (events, requests, raw) = try fixture.refresh([
            .status(429), .status(429, headers: ["Retry-After": "soon"]), .status(429, headers: ["Retry-After": "-1"]),
        ])
        #expect(events == serverErrorCycle)
        #expect(raw.allSatisfy { $0["rateLimitedUntil"] == nil })
        #expect(requests.count == 3)
        try fixture.expectCacheKeptAndRecovery(before)
    }

    @Test func authenticationFailuresAreRetriedThenGivenUp() throws {
        let fixture = try DefinitionsFixture()
        let before = try fixture.bunting.snapshot()
        let (events, requests, _) = try fixture.refresh([.status(401), .status(403), .status(401)])
        #expect(
            events == [
                "ERROR featureFlags CLIENT_ERROR SDK_WILL_RETRY",
                "ERROR featureFlags CLIENT_ERROR SDK_WILL_RETRY",
                "ERROR featureFlags CLIENT_ERROR DO_NOT_RETRY",
            ])
        #expect(requests.count == 3)
        try fixture.expectCacheKeptAndRecovery(before)
    }

    @Test(arguments: [400, 404, 410, 451])
    func otherClientErrorsAreNotRetried(status: Int) throws {
        let fixture = try DefinitionsFixture()
        let before = try fixture.bunting.snapshot()
        let (events, requests, raw) = try fixture.refresh([.status(status)])
        #expect(events == ["ERROR featureFlags CLIENT_ERROR DO_NOT_RETRY"])
        #expect(raw.first?["message"] == .string("HTTP \(status)"))
        #expect(requests.count == 1)
        try fixture.expectCacheKeptAndRecovery(before)
    }

    @Test(arguments: [
        ("not JSON", "application/json", #"{"flags": "#),
        ("invalid definitions", "application/json", #"{"flags": 5}"#),
        ("an HTML page", "text/html; charset=utf-8", "<html><body>Welcome</body></html>"),
    ])
    func dataThatCannotBeInterpretedIsNotRetried(what: String, contentType: String, body: String) throws {
        let fixture = try DefinitionsFixture()
        let before = try fixture.bunting.snapshot()
        let (events, requests, _) = try fixture.refresh([
            .status(200, headers: ["Content-Type": .string(contentType)], body: body)
        ])
        #expect(events == ["ERROR featureFlags INVALID_SERVER_DATA DO_NOT_RETRY"], "\(what)")
        #expect(requests.count == 1)
        try fixture.expectCacheKeptAndRecovery(before)
    }

    @Test func anUnchangedDocumentIsAskedForConditionallyAndStillEndsInDataUpdated() throws {
        let fixture = try DefinitionsFixture()
        let syncedAt = try #require(try fixture.bunting.snapshot()["lastSyncAt"]?.doubleValue)
        let (events, requests, raw) = try fixture.refresh([])
        #expect(events == ["DATA_UPDATED featureFlags MANUAL_SERVER_REFRESH"])
        try #require(requests.count == 1)
        #expect(requests[0].header("If-None-Match") == "\"v1\"")
        #expect(requests[0].header("If-Modified-Since") == DefinitionsFixture.lastModified)
        #expect(requests[0].answer == 304)
        #expect(raw[0]["cacheSnapshot"]?["lastSyncAt"]?.doubleValue ?? 0 > syncedAt)
        #expect(try fixture.bunting.greeting() == "v1")
    }

    @Test func beforeTheFirstDocumentChannelsAreDisabledAndItsFetchIsRetried() throws {
        let server = try FaultServer()
        let path = DefinitionsFixture.path
        try server.setDocument(path, definitions("v1"), etag: "\"v1\"")
        // The first answer waits for the test, so the subscription surely comes first.
        try server.script(path, [FaultServer.Answer.status(503).held, .status(503)])
        let bunting = try BuntingClient(["--definitions", server.url(path)])
        try server.waitForRequests(path, count: 1)
        try bunting.call("subscribe", ["channel": "featureFlags"])
        #expect(try bunting.snapshot()["lastSyncAt"] == .null)
        try server.release()
        let events = try bunting.summaries(after: 0) { $0.hasPrefix("DATA_UPDATED") }
        #expect(
            events == [
                "ERROR featureFlags FEATURE_DISABLED SDK_WILL_RETRY",
                "ERROR featureFlags SERVER_ERROR SDK_WILL_RETRY",
                "ERROR featureFlags SERVER_ERROR SDK_WILL_RETRY",
                "DATA_UPDATED featureFlags AUTO_SERVER_REFRESH",
            ])
        #expect(try server.requests(path).count == 3)
        #expect(try bunting.greeting() == "v1")
    }

    @Test func pollingBringsAChangedDocumentAndReportsALastingOutageOnce() throws {
        let fixture = try DefinitionsFixture(["--poll-interval", "0.05"])
        let path = DefinitionsFixture.path
        let start = fixture.bunting.events.count
        // Down for a while: one failure cycle, then quiet polls.
        try fixture.server.script(path, Array(repeating: .status(503), count: 1000))
        let failed = try fixture.bunting.summaries(after: start) { $0.hasSuffix("INTEGRATOR_MAY_RETRY") }
        #expect(failed == serverErrorCycle)
        let seen = try fixture.server.requests(path).count
        // Polls go on without a word while the server stays down...
        try fixture.server.waitForRequests(path, count: seen + 5)
        // ...and the next document arrives by itself.
        try fixture.server.setDocument(path, definitions("v2"), etag: "\"v2\"")
        try fixture.server.script(path, [], replacing: true)
        let all = try fixture.bunting.summaries(after: start) { $0.hasPrefix("DATA_UPDATED") }
        #expect(all == serverErrorCycle + ["DATA_UPDATED featureFlags AUTO_SERVER_REFRESH"])
        #expect(try fixture.bunting.greeting() == "v2")
    }

    @Test func aRefusedManualRefreshNeverReachesTheServer() throws {
        let fixture = try DefinitionsFixture(["--refresh-rate-limit", "1/3600"])
        let (first, _, _) = try fixture.refresh([])
        #expect(first == ["DATA_UPDATED featureFlags MANUAL_SERVER_REFRESH"])
        let (events, requests, raw) = try fixture.refresh([])
        #expect(events == ["ERROR featureFlags RATE_LIMITED INTEGRATOR_MAY_RETRY"])
        #expect(raw[0]["rateLimitedUntil"]?.isNumber == true)
        #expect(requests.isEmpty)
    }

    @Test func whileTheSDKIsDisabledNothingGoesToTheServer() throws {
        let fixture = try DefinitionsFixture()
        try fixture.bunting.call("disableSDK")
        let (events, requests, _) = try fixture.refresh([])
        #expect(events == ["ERROR featureFlags SDK_DISABLED DO_NOT_RETRY"])
        #expect(requests.isEmpty)
    }
}
