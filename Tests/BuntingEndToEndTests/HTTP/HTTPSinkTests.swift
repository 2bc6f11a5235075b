import BuntingJSON
import Foundation
import Testing

/// A collector on the loopback and a Bunting process (bundled example
/// definitions) posting its analytics there, with user alice synced.
struct SinkFixture {
    static let path = "/collect"
    static let secret = "Bearer sink-secret"
    let server: FaultServer
    let bunting: BuntingClient

    init(_ arguments: [String] = [], keepAlive: Bool = true, sink: String? = nil) throws {
        server = try FaultServer()
        try server.setKeepAlive(keepAlive)
        bunting = try BuntingClient(
            ["--sink", sink ?? server.url(Self.path), "--header", "Authorization: \(Self.secret)"] + arguments)
        try bunting.startSynced()
    }

    /// Logs one flag impression (ENQUEUED), scripts `answers`, flushes, and
    /// returns the flush result, the events through the one that ends the
    /// delivery (FLUSHED, or an ERROR nobody retries), and the POSTs the
    /// collector saw.
    func logAndFlush(_ answers: [FaultServer.Answer]) throws -> (
        result: JSON, events: [String], posts: [FaultServer.Received], raw: [JSON]
    ) {
        let before = try server.requests(Self.path).count
        let start = bunting.events.count
        try bunting.call("logImpression", ["channel": "featureFlags", "id": "new-checkout"])
        try server.script(Self.path, answers)
        let result = try bunting.call("flush")
        let events = try bunting.summaries(after: start, through: Self.endsADelivery)
        let raw = Array(bunting.events.dropFirst(start).prefix(events.count))
        return (result, events, Array(try server.requests(Self.path).dropFirst(before)), raw)
    }

    static func endsADelivery(_ summary: String) -> Bool {
        summary.hasSuffix("FLUSHED") || summary.hasSuffix("INTEGRATOR_MAY_RETRY") || summary.hasSuffix("DO_NOT_RETRY")
    }

    /// The event ids of one POSTed batch.
    static func eventIds(_ post: FaultServer.Received) throws -> [String] {
        try JSON.parse(Array(post.body.utf8))["events"]?.arrayValue?.compactMap { $0["eventId"]?.stringValue } ?? []
    }

    var pending: Int? { (try? bunting.call("status"))?["pendingAnalytics"]?.integerValue.map(Int.init) }

    /// After a failed delivery the event is still queued, and the next flush
    /// delivers it, with the same id.
    func expectNothingLost(_ failedPosts: [FaultServer.Received], sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        #expect(pending == 1, sourceLocation: sourceLocation)
        let start = bunting.events.count
        let result = try bunting.call("flush")
        #expect(result == ["flushed": 1, "pending": 0], sourceLocation: sourceLocation)
        let events = try bunting.summaries(after: start, through: Self.endsADelivery)
        #expect(events == ["IMPRESSION featureFlags FLUSHED"], sourceLocation: sourceLocation)
        let last = try #require(try server.requests(Self.path).last, sourceLocation: sourceLocation)
        #expect(try Self.eventIds(last) == Self.eventIds(failedPosts[0]), sourceLocation: sourceLocation)
    }
}

/// The analytics sink under every row of the failure model.
@Suite struct HTTPSinkTests {
    @Test func anAcceptedBatchIsFlushedAndCarriesEventIds() throws {
        let fixture = try SinkFixture()
        let (result, events, posts, _) = try fixture.logAndFlush([])
        #expect(result == ["flushed": 1, "pending": 0])
        #expect(events == ["IMPRESSION featureFlags ENQUEUED", "IMPRESSION featureFlags FLUSHED"])
        try #require(posts.count == 1)
        #expect(posts[0].method == "POST")
        #expect(posts[0].header("Content-Type") == "application/json")
        #expect(posts[0].header("Authorization") == SinkFixture.secret)
        let batch = try JSON.parse(Array(posts[0].body.utf8))
        let event = try #require(batch["events"]?[0])
        #expect(batch["events"]?.arrayValue?.count == 1)
        #expect(event["eventId"]?.stringValue?.count == 32)
        #expect(
            event["kind"] == "impression" && event["channel"] == "featureFlags" && event["itemId"] == "new-checkout")
        #expect(event["userId"] == "alice" && event["time"]?.isNumber == true)
    }

    @Test func aServerErrorIsRetriedAndTheSameEventsFlushedAfterA2xx() throws {
        let fixture = try SinkFixture()
        let (result, events, posts, _) = try fixture.logAndFlush([.status(503)])
        #expect(result == ["flushed": 0, "pending": 1])
        #expect(
            events == [
                "IMPRESSION featureFlags ENQUEUED", "ERROR featureFlags SERVER_ERROR SDK_WILL_RETRY",
                "IMPRESSION featureFlags FLUSHED",
            ])
        try #require(posts.count == 2)
        #expect(try SinkFixture.eventIds(posts[0]) == SinkFixture.eventIds(posts[1]))
        #expect(fixture.pending == 0)
    }

    @Test func serverErrorsAreRetriedThenLeftToTheIntegratorWithTheEventsKept() throws {
        let fixture = try SinkFixture()
        let (_, events, posts, _) = try fixture.logAndFlush([.status(503), .status(500), .status(502)])
        #expect(events == ["IMPRESSION featureFlags ENQUEUED"] + serverErrorCycle)
        #expect(posts.count == 3)
        try fixture.expectNothingLost(posts)
    }

    @Test func anUnreachableCollectorIsAServerError() throws {
        let fixture = try SinkFixture(sink: "http://127.0.0.1:\(try closedPort())/collect")
        let (result, events, _, raw) = try fixture.logAndFlush([])
        #expect(result == ["flushed": 0, "pending": 1])
        #expect(events == ["IMPRESSION featureFlags ENQUEUED"] + serverErrorCycle)
        #expect(raw.last?["message"] == "analytics not delivered: Couldn't connect to server")
        #expect(fixture.pending == 1)
    }

    @Test func droppedConnectionsAndTimeoutsAreServerErrors() throws {
        let dropping = try SinkFixture(keepAlive: false)
        let (_, dropped, posts, _) = try dropping.logAndFlush([.drop, .drop, .drop])
        #expect(dropped == ["IMPRESSION featureFlags ENQUEUED"] + serverErrorCycle)
        #expect(posts.count == 3)
        try dropping.expectNothingLost(posts)

        let slow = try SinkFixture(["--timeout", "1"])
        let late = FaultServer.Answer.status(200).delayed(3)
        let (_, timedOut, slowPosts, _) = try slow.logAndFlush([late, late, late])
        #expect(timedOut == ["IMPRESSION featureFlags ENQUEUED"] + serverErrorCycle)
        #expect(slowPosts.count == 3)
        try slow.expectNothingLost(slowPosts)
    }

    @Test func rateLimitedWithRetryAfterWaitsForIt() throws {
        let fixture = try SinkFixture(["--retry-max-delay", "10"])
        let (_, events, posts, raw) = try fixture.logAndFlush([.status(429, headers: ["Retry-After": "1"])])
        #expect(
            events == [
                "IMPRESSION featureFlags ENQUEUED", "ERROR featureFlags RATE_LIMITED SDK_WILL_RETRY",
                "IMPRESSION featureFlags FLUSHED",
            ])
        try #require(posts.count == 2)
        let until = try #require(raw[1]["rateLimitedUntil"]?.doubleValue)
        #expect(until >= posts[0].time + 1 && until < posts[0].time + 3)
        #expect(posts[1].time >= until - 0.01, "retried before Retry-After")
    }

    @Test func rateLimitedWithoutAUsableRetryAfterIsAServerError() throws {
        let fixture = try SinkFixture()
        let (_, events, posts, _) = try fixture.logAndFlush([
            .status(429), .status(429), .status(429, headers: ["Retry-After": "later"]),
        ])
        #expect(events == ["IMPRESSION featureFlags ENQUEUED"] + serverErrorCycle)
        try fixture.expectNothingLost(posts)
    }

    @Test func authenticationFailuresAreRetriedThenGivenUpWithTheEventsKept() throws {
        let fixture = try SinkFixture()
        let (_, events, posts, _) = try fixture.logAndFlush([.status(401), .status(403), .status(401)])
        #expect(
            events == [
                "IMPRESSION featureFlags ENQUEUED",
                "ERROR featureFlags CLIENT_ERROR SDK_WILL_RETRY",
                "ERROR featureFlags CLIENT_ERROR SDK_WILL_RETRY",
                "ERROR featureFlags CLIENT_ERROR DO_NOT_RETRY",
            ])
        #expect(posts.count == 3)
        try fixture.expectNothingLost(posts)
    }

    @Test(arguments: [400, 404, 413])
    func otherClientErrorsAreNotRetriedAndTheEventsKept(status: Int) throws {
        let fixture = try SinkFixture()
        let (result, events, posts, _) = try fixture.logAndFlush([.status(status)])
        #expect(result == ["flushed": 0, "pending": 1])
        #expect(events == ["IMPRESSION featureFlags ENQUEUED", "ERROR featureFlags CLIENT_ERROR DO_NOT_RETRY"])
        #expect(posts.count == 1)
        try fixture.expectNothingLost(posts)
    }

    @Test func manyEventsGoInBoundedBatches() throws {
        let server = try FaultServer()
        let bunting = try BuntingClient(["--sink", server.url(SinkFixture.path)])
        try bunting.startSynced("contentCards")
        for _ in 0..<150 { try bunting.call("logImpression", ["channel": "contentCards", "id": "inbox-welcome"]) }
        #expect(try bunting.call("flush") == ["flushed": 150, "pending": 0])
        let posts = try server.requests(SinkFixture.path)
        #expect(try posts.map { try SinkFixture.eventIds($0).count } == [100, 50])
        #expect(Set(try posts.flatMap(SinkFixture.eventIds)).count == 150)
    }

    @Test func shutdownFlushesWhatIsQueued() throws {
        let server = try FaultServer()
        let bunting = try BuntingClient(["--sink", server.url(SinkFixture.path)])
        try bunting.startSynced()
        try bunting.call("logImpression", ["channel": "featureFlags", "id": "new-checkout"])
        try bunting.call("shutdown")
        #expect(try bunting.process.waitForExit() == 0)
        let posts = try server.requests(SinkFixture.path)
        #expect(posts.count == 1)
        #expect(try posts.first.map(SinkFixture.eventIds)?.count == 1)
    }
}

/// A loopback port nothing listens on: bound, then closed again.
func closedPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
        }
    }
    guard bound else { throw HarnessError(description: "cannot bind a loopback port") }
    return Int(UInt16(bigEndian: address.sin_port))
}
