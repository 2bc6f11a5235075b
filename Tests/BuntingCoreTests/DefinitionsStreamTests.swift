import BuntingCore
import BuntingJSON
import BuntingRuntime
import Testing

/// The definitions stream as the engine sees it: a scripted connection
/// reports what a server would, and the loop runs by hand on a manual clock.
@Suite struct DefinitionsStreamTests {
    static let pushed = document { $0["flags"] = [["id": "pushed", "enabled": true]] }
    static let pushedAgain = document { $0["flags"] = [["id": "pushed-again", "enabled": true]] }

    /// An engine with a stream, a featureFlags subscription (`sub-1`) and alice synced.
    func harness(
        worker: any Worker = InlineWorker(), configure: (inout Engine.Configuration) -> Void = { _ in }
    ) throws -> (EngineHarness, ScriptedStream) {
        let stream = ScriptedStream()
        let harness = EngineHarness(testDocument, stream: stream, worker: worker, configure: configure)
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        try harness.engine.changeUser("alice", attributes: nil)
        _ = harness.take()
        return (harness, stream)
    }

    /// The channel's ERROR events among `lines`.
    func errors(_ lines: [String]) -> [String] { lines.filter { $0.contains(" ERROR featureFlags ") } }

    // MARK: Documents

    @Test func aDocumentOnTheStreamIsAdoptedAsIfFetched() throws {
        let (harness, stream) = try harness()
        stream.current.open()
        stream.current.send(Self.pushed)
        #expect(harness.take() == ["sub-1 DATA_UPDATED featureFlags AUTO_SERVER_REFRESH [pushed] sync=+0"])
        #expect(harness.source.fetchCount == 1)
        // The same document again is no change.
        stream.current.send(Self.pushed)
        #expect(harness.take() == [])
    }

    @Test func documentsThatComeTogetherMakeOneAdoptionOfTheLast() throws {
        let (harness, stream) = try harness()
        stream.current.open()
        for index in 0..<1000 {
            stream.current.send(document { $0["flags"] = [["id": .string("v\(index)"), "enabled": true]] })
        }
        #expect(harness.take() == ["sub-1 DATA_UPDATED featureFlags AUTO_SERVER_REFRESH [v999] sync=+0"])
        #expect(harness.engine.status()["stream"]?["events"] == 1000)
    }

    /// One document compiles at a time; of those that came meanwhile only the last is compiled next.
    @Test func whileOneCompilesTheLastOfTheDocumentsThatComeIsNext() throws {
        let worker = HeldWorker()
        let (harness, stream) = try harness(worker: worker)
        stream.current.open()
        stream.current.send(Self.pushed)
        harness.settle()
        #expect(worker.waiting == 1)
        for index in 0..<5 {
            stream.current.send(document { $0["flags"] = [["id": .string("v\(index)"), "enabled": true]] })
        }
        harness.settle()
        #expect(worker.waiting == 1, "no second compile while one is under way")
        worker.release()
        #expect(harness.take() == ["sub-1 DATA_UPDATED featureFlags AUTO_SERVER_REFRESH [pushed] sync=+0"])
        #expect(worker.waiting == 1)
        worker.release()
        #expect(harness.take() == ["sub-1 DATA_UPDATED featureFlags AUTO_SERVER_REFRESH [v4] sync=+0"])
        #expect(worker.waiting == 0)
    }

    @Test func anEmptyEventMakesTheSourceBeReadAgain() throws {
        let (harness, stream) = try harness()
        stream.current.open()
        harness.source.setDocument(Self.pushed)
        stream.current.send(text: "{}")
        #expect(harness.take() == ["sub-1 DATA_UPDATED featureFlags AUTO_SERVER_REFRESH [pushed] sync=+0"])
        #expect(harness.source.fetchCount == 2)
        // GrowthBook's features-updated, whatever its data.
        harness.source.setDocument(Self.pushedAgain)
        stream.current.send(text: "{\"x\":1}", type: "features-updated")
        #expect(harness.take() == ["sub-1 DATA_UPDATED featureFlags AUTO_SERVER_REFRESH [pushed-again] sync=+0"])
        #expect(harness.source.fetchCount == 3)
        // Events of other types are not about the definitions.
        stream.current.send(text: "{\"flags\":[]}", type: "ping")
        #expect(harness.take() == [])
        #expect(harness.source.fetchCount == 3)
    }

    @Test func aDocumentThatIsRefusedIsToldOnceAndTheStreamStays() throws {
        let (harness, stream) = try harness()
        stream.current.open()
        stream.current.send(text: "not json")
        stream.current.send(text: "not json")
        harness.settle()
        stream.current.send(text: "not json")
        #expect(harness.take() == ["sub-1 ERROR featureFlags INVALID_SERVER_DATA DO_NOT_RETRY"])
        #expect(!stream.current.isClosed)
        #expect(harness.engine.status()["stream"]?["connected"] == true)
        #expect(harness.engine.status()["definitions"]?["lastError"]?.stringValue?.contains("test://stream") == true)
        stream.current.send(Self.pushed)
        #expect(harness.take() == ["sub-1 DATA_UPDATED featureFlags AUTO_SERVER_REFRESH [pushed] sync=+0"])
        #expect(stream.connections.count == 1)
    }

    @Test func anEventOverTheLimitIsToldAndTheSourceReadInstead() throws {
        let (harness, stream) = try harness()
        stream.current.open()
        harness.source.setDocument(Self.pushed)
        stream.current.report(.oversized(limit: 1024))
        #expect(
            harness.take() == [
                "sub-1 ERROR featureFlags INVALID_SERVER_DATA DO_NOT_RETRY",
                "sub-1 DATA_UPDATED featureFlags AUTO_SERVER_REFRESH [pushed] sync=+0",
            ])
        #expect(harness.source.fetchCount == 2)
    }

    // MARK: Polling

    @Test func pollsWaitWhileTheStreamIsConnectedAndGoOnWhileItIsDown() throws {
        let (harness, stream) = try harness { $0.pollInterval = 1 }
        let before = harness.source.fetchCount
        for _ in 0..<3 { harness.advance(1) }
        #expect(harness.source.fetchCount == before + 3, "the stream is not connected yet: polls go on")
        stream.current.open()
        harness.settle()
        for _ in 0..<5 { harness.advance(1) }
        #expect(harness.source.fetchCount == before + 3)
        stream.current.end()
        harness.settle()
        for _ in 0..<3 { harness.advance(0.5) }
        #expect(harness.source.fetchCount >= before + 4)
    }

    /// A quiet stream would never bring the first document: until there is
    /// one, polls go on even while the stream is connected.
    @Test func pollsGoOnUntilTheFirstDocumentEvenWhileTheStreamIsConnected() {
        let stream = ScriptedStream()
        let failures = [SourceError](repeating: .serverError("HTTP 503"), count: 4)
        let harness = EngineHarness(testDocument, localSource: false, sourceFailures: failures, stream: stream) {
            $0.pollInterval = 1
        }
        stream.current.open()
        // The first fetch and its three retries fail (1 + 2 + 4 s at most); polls then find the document.
        for _ in 0..<12 { harness.advance(1) }
        #expect(harness.engine.status()["definitions"]?["loaded"] == true)
        let fetches = harness.source.fetchCount
        // Once it is loaded, polls wait for the stream.
        for _ in 0..<5 { harness.advance(1) }
        #expect(harness.source.fetchCount == fetches)
    }

    // MARK: Reconnecting and outages

    @Test func anOutageIsToldOnceNotOncePerTry() throws {
        let (harness, stream) = try harness()
        _ = try harness.engine.subscribeToDefinitions()
        _ = harness.take()
        stream.current.end(.serverError("Couldn't connect to server"))
        #expect(
            harness.take() == [
                "sub-1 ERROR featureFlags SERVER_ERROR SDK_WILL_RETRY",
                "sub-2 definitions ERROR SERVER_ERROR stale=true",
            ])
        var told: [String] = []
        for _ in 0..<6 {
            harness.advance(30)
            stream.current.end(.serverError("Couldn't connect to server"))
            told += harness.take()
        }
        #expect(stream.connections.count == 7)
        #expect(told == [])
        harness.advance(30)
        stream.current.open()
        #expect(harness.take() == ["sub-2 definitions READY"])
        #expect(harness.engine.status()["stream"]?["reconnects"] == 7)
        // The next outage is told again.
        stream.current.end(.serverError("Couldn't connect to server"))
        harness.advance(30)
        stream.current.end(.serverError("Couldn't connect to server"))
        #expect(errors(harness.take()) == ["sub-1 ERROR featureFlags SERVER_ERROR SDK_WILL_RETRY"])
    }

    @Test func aGoodConnectionThatDropsAndComesBackAtOnceIsNoOutage() throws {
        let (harness, stream) = try harness()
        stream.current.open()
        stream.current.send(Self.pushed)
        stream.current.end()
        #expect(errors(harness.take()) == [])
        harness.advance(1)
        #expect(stream.connections.count == 2)
        stream.current.open()
        #expect(harness.take() == [])
        #expect(harness.engine.status()["stream"]?["connected"] == true)
    }

    @Test func reconnectsBackOffFromTheServersRetryAndSendTheLastEventId() throws {
        let (harness, stream) = try harness()
        stream.current.open()
        stream.current.report(.retry(5))
        stream.current.report(.lastEventId("1796412637:4"))
        stream.current.send(Self.pushed)
        stream.current.end()
        harness.settle()
        harness.advance(4.9)
        #expect(stream.connections.count == 1, "retry: 5000 holds the next try for 5 s")
        harness.advance(0.1)
        #expect(stream.connections.count == 2)
        #expect(stream.current.lastEventId == "1796412637:4")
        // Failed tries double the wait (with jitter), up to --retry-max-delay.
        var waits: [Double] = []
        for _ in 0..<5 {
            stream.current.end()
            harness.settle()
            let count = stream.connections.count
            var waited = 0.0
            while stream.connections.count == count {
                harness.advance(0.05)
                waited += 0.05
            }
            waits.append(waited)
        }
        #expect(waits[0] >= 4.9 && waits[0] <= 10.1)
        #expect(waits.allSatisfy { $0 <= 30.1 })
        #expect(waits.last! >= 14.9)
    }

    @Test func reconnectsAreNeverMoreFrequentThanTheFloor() throws {
        let (harness, stream) = try harness { $0.retry.initialDelay = 0 }
        stream.current.open()
        stream.current.report(.retry(0))
        stream.current.send(Self.pushed)
        stream.current.end()
        harness.settle()
        harness.advance(0.09)
        #expect(stream.connections.count == 1)
        harness.advance(0.02)
        #expect(stream.connections.count == 2)
    }

    @Test func aRefusalIsToldAndTriedAgainOnlyAfterTheLongestDelay() throws {
        let (harness, stream) = try harness()
        stream.current.end(.clientError("HTTP 404"))
        #expect(harness.take() == ["sub-1 ERROR featureFlags CLIENT_ERROR DO_NOT_RETRY"])
        harness.advance(29.9)
        #expect(stream.connections.count == 1)
        harness.advance(0.1)
        #expect(stream.connections.count == 2)
        stream.current.end(.invalidData("the server sent an HTML page (Content-Type: text/html), not an event stream"))
        #expect(harness.take() == ["sub-1 ERROR featureFlags INVALID_SERVER_DATA DO_NOT_RETRY"])
        harness.advance(30)
        stream.current.end(.invalidData("the server sent an HTML page (Content-Type: text/html), not an event stream"))
        #expect(harness.take() == [])
    }

    // MARK: Status, discovery, stopping

    @Test func statusShowsTheStreamsState() throws {
        let (harness, stream) = try harness()
        #expect(
            harness.engine.status()["stream"] == [
                "location": "test://stream", "discovered": false, "connected": false, "reconnects": 0, "events": 0,
                "since": .number(EngineHarness.startTime),
            ])
        harness.advance(2)
        stream.current.open()
        stream.current.report(.lastEventId("42"))
        stream.current.send(Self.pushed)
        harness.settle()
        let status = harness.engine.status()["stream"]
        #expect(status?["connected"] == true)
        #expect(status?["since"] == .number(EngineHarness.startTime + 2))
        #expect(status?["lastEventId"] == "42")
        #expect(status?["events"] == 1)
        #expect(status?["lastError"] == nil)
        stream.current.end(.serverError("Failure when receiving data from the peer"))
        harness.settle()
        #expect(harness.engine.status()["stream"]?["lastError"] == "Failure when receiving data from the peer")
        #expect(harness.engine.status()["stream"]?["connected"] == false)
    }

    @Test func withoutAStreamStatusHasNone() {
        #expect(EngineHarness(testDocument).engine.status()["stream"] == nil)
    }

    @Test func aStreamTheSourceAnnouncesIsConnectedAfterAFetch() throws {
        let harness = EngineHarness(testDocument, localSource: false, settleAtStart: false)
        let announced = ScriptedStream()
        harness.source.announce(announced)
        harness.settle()
        #expect(announced.connections.count == 1)
        #expect(harness.engine.status()["stream"]?["discovered"] == true)
        announced.current.open()
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        try harness.engine.changeUser("alice", attributes: nil)
        _ = harness.take()
        announced.current.send(Self.pushed, type: "features")
        #expect(harness.take() == ["sub-1 DATA_UPDATED featureFlags AUTO_SERVER_REFRESH [pushed] sync=+0"])
    }

    @Test func shutdownClosesTheConnectionAndNothingConnectsAgain() throws {
        let (harness, stream) = try harness()
        stream.current.open()
        harness.settle()
        var done = false
        harness.engine.shutDown { done = true }
        harness.settle()
        #expect(done)
        #expect(stream.current.isClosed)
        stream.current.end()
        harness.advance(60)
        #expect(stream.connections.count == 1)
    }

    @Test func theSDKTurnedOffClosesTheStreamAndTurnedOnOpensIt() throws {
        let (harness, stream) = try harness()
        stream.current.open()
        harness.settle()
        harness.engine.disableSDK()
        #expect(stream.current.isClosed)
        harness.advance(60)
        #expect(stream.connections.count == 1)
        harness.engine.enableSDK()
        #expect(stream.connections.count == 2)
        #expect(!stream.current.isClosed)
    }
}
