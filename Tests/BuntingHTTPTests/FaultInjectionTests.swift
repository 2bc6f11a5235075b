import BuntingCore
import BuntingHTTP
import BuntingRuntime
import Dispatch
import Synchronization
import Testing

/// Injected answers (`serve --faults`) mean what the same answers from an
/// HTTP server mean: one failure model, whatever the real source or sink.
@Suite struct FaultInjectionTests {
    final class CountingSource: DefinitionsSource {
        let location = "defs.json"
        let isLocal = true
        private let count = Mutex(0)
        var fetches: Int { count.withLock { $0 } }
        func fetch(ifChangedSince version: SourceVersion?) -> SourceFetchResult {
            count.withLock { $0 += 1 }
            return .fetched(Array("{}".utf8), SourceVersion(fingerprint: "1"))
        }
    }

    final class CountingSink: AnalyticsSink {
        let location = "events.ndjson"
        private let count = Mutex(0)
        var deliveries: Int { count.withLock { $0 } }
        func deliver(_ events: [AnalyticsEvent]) throws(SinkError) { count.withLock { $0 += 1 } }
    }

    static let clock = ManualClock(unixTime: 1_750_000_000)

    func fetch(_ response: FaultResponse, since version: SourceVersion? = nil) -> SourceFetchResult {
        let faults = FaultBoard()
        faults.arm(.definitions, times: 1, response: response)
        return FaultInjectingSource(CountingSource(), faults: faults, clock: Self.clock).fetch(ifChangedSince: version)
    }

    func failure(_ result: SourceFetchResult) -> RemoteError? {
        if case .failed(let failure) = result { return failure }
        return nil
    }

    @Test func httpAnswersGoThroughTheFailureModel() {
        #expect(failure(fetch(.http(status: 503, headers: [:], body: []))) == .serverError("HTTP 503"))
        #expect(
            failure(fetch(.http(status: 429, headers: ["Retry-After": "120"], body: [])))
                == .rateLimited(until: 1_750_000_120, "HTTP 429"))
        #expect(
            failure(fetch(.http(status: 429, headers: [:], body: [])))
                == .serverError("HTTP 429 without a usable Retry-After"))
        #expect(failure(fetch(.http(status: 401, headers: [:], body: []))) == .authentication("HTTP 401"))
        #expect(failure(fetch(.http(status: 404, headers: [:], body: []))) == .clientError("HTTP 404"))
        #expect(
            failure(fetch(.http(status: 200, headers: ["content-type": "text/html"], body: Array("<p>".utf8)))).map {
                if case .invalidData = $0 { true } else { false }
            } == true)
        guard
            case .fetched(let bytes, let version) = fetch(
                .http(status: 200, headers: ["ETag": "\"v2\""], body: Array("{\"fla".utf8)))
        else {
            Issue.record("a 200 is a document")
            return
        }
        #expect(bytes == Array("{\"fla".utf8), "half a body, to be refused by the parser")
        #expect(version.etag == "\"v2\"")
        #expect(
            failure(fetch(.http(status: 304, headers: [:], body: []))) != nil,
            "304 to a request that was not conditional")
        guard
            case .unchanged = fetch(.http(status: 304, headers: [:], body: []), since: SourceVersion(fingerprint: "1"))
        else {
            Issue.record("304 to a conditional request is unchanged")
            return
        }
    }

    @Test func transportFailuresAreTheClientsOwn() {
        #expect(failure(fetch(.timeout)) == .serverError("timed out"))
        #expect(failure(fetch(.disconnect)) == .serverError("the connection was dropped before a whole answer came"))
        #expect(failure(fetch(.invalidData)) == .invalidData("the server sent data that cannot be used"))
    }

    @Test func eachArmedAnswerIsGivenOnceInOrderThenTheRealSourceAnswers() {
        let faults = FaultBoard()
        let real = CountingSource()
        let source = FaultInjectingSource(real, faults: faults, clock: Self.clock)
        faults.arm(.definitions, times: 2, response: .timeout)
        faults.arm(.definitions, times: 1, response: .disconnect)
        faults.arm(.sink, times: 1, response: .timeout)
        #expect(faults.armed(for: .definitions).map(\.remaining) == [2, 1])
        #expect(failure(source.fetch(ifChangedSince: nil)) == .serverError("timed out"))
        #expect(failure(source.fetch(ifChangedSince: nil)) == .serverError("timed out"))
        #expect(failure(source.fetch(ifChangedSince: nil))?.message.contains("dropped") == true)
        #expect(real.fetches == 0, "injected answers stand in for the fetch")
        guard case .fetched = source.fetch(ifChangedSince: nil) else {
            Issue.record("the real source answers once nothing is armed")
            return
        }
        #expect(real.fetches == 1)
        #expect(faults.armed(for: .sink).count == 1, "another target's stay armed")
        faults.clear()
        #expect(faults.json == [])
    }

    @Test func aSinkFailsAsArmedAndAnInjected2xxAcceptsWithoutDelivering() {
        let faults = FaultBoard()
        let real = CountingSink()
        let sink = FaultInjectingSink(real, faults: faults, clock: Self.clock)
        faults.arm(.sink, times: 1, response: .http(status: 429, headers: ["retry-after": "30"], body: []))
        faults.arm(.sink, times: 1, response: .http(status: 204, headers: [:], body: []))
        #expect(throws: RemoteError.rateLimited(until: 1_750_000_030, "HTTP 429")) { try sink.deliver([]) }
        #expect(throws: Never.self) { try sink.deliver([]) }
        #expect(real.deliveries == 0)
        #expect(throws: Never.self) { try sink.deliver([]) }
        #expect(real.deliveries == 1)
    }

    /// The stream's reader takes its answers from the same board.
    @Test func theStreamTargetIsArmedForItsReader() {
        let faults = FaultBoard()
        faults.arm(.stream, times: 1, response: .disconnect)
        #expect(faults.json == [["target": "stream", "times": 1, "response": "disconnect"]])
        #expect(faults.take(.stream) == .disconnect)
        #expect(faults.take(.stream) == nil)
    }

    final class CountingStream: DefinitionsStreamSource {
        final class Connection: StreamConnection {
            func close() {}
        }
        let location = "http://127.0.0.1/sub/defs"
        private let count = Mutex(0)
        var connections: Int { count.withLock { $0 } }
        func connect(lastEventId: String?, report: @escaping @Sendable (StreamReport) -> Void) -> any StreamConnection {
            count.withLock { $0 += 1 }
            return Connection()
        }
    }

    /// The reports of one connection, waited for with a deadline (they come from another thread).
    func reports(_ stream: FaultInjectingStream) -> [StreamReport] {
        let told = Mutex<[StreamReport]>([])
        let done = DispatchSemaphore(value: 0)
        _ = stream.connect(lastEventId: nil) { report in
            told.withLock { $0.append(report) }
            if case .ended = report { done.signal() }
        }
        #expect(done.wait(timeout: .now() + 10) == .success, "the injected connection ended")
        return told.withLock { $0 }
    }

    /// Each connection of a stream fails as armed, then the real stream connects.
    @Test func aStreamConnectsAsArmedThenForReal() {
        let faults = FaultBoard()
        let real = CountingStream()
        let stream = FaultInjectingStream(real, faults: faults, clock: Self.clock)
        faults.arm(.stream, times: 1, response: .http(status: 503, headers: [:], body: []))
        faults.arm(.stream, times: 1, response: .http(status: 429, headers: ["Retry-After": "30"], body: []))
        faults.arm(.stream, times: 1, response: .http(status: 200, headers: [:], body: Array(#"{"flags":{}}"#.utf8)))
        guard case .ended(.serverError)? = reports(stream).last else {
            Issue.record("503 is not a server error"); return
        }
        guard case .ended(.rateLimited(let until, _))? = reports(stream).last else {
            Issue.record("429 is not rate limited"); return
        }
        #expect(until == Self.clock.unixTime() + 30)
        let pushed = reports(stream)
        #expect(pushed.count == 3)
        guard case .opened = pushed[0], case .event(let event) = pushed[1], case .ended = pushed[2] else {
            Issue.record("a 2xx answer is not a connection that opens, pushes its body and ends: \(pushed)")
            return
        }
        #expect(event.data == Array(#"{"flags":{}}"#.utf8))
        #expect(real.connections == 0)
        _ = stream.connect(lastEventId: nil) { _ in }
        #expect(real.connections == 1)
    }
}
