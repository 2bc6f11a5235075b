import BuntingCore
import BuntingJSON
import BuntingRuntime

/// Analytics POSTed to a collector as `{"events": [...]}`, one batch per
/// request. A batch counts as accepted only on a 2xx; every event carries
/// its `eventId`, the same on each re-send, so that the collector can drop
/// repeats of a batch whose answer was lost.
public final class HTTPSink: AnalyticsSink {
    public let url: HTTPURL
    public var location: String { url.redacted }
    private let client: HTTPClient
    private let clock: any Clock
    /// The collector's answer is only read for logs.
    static let maxResponseBytes = 64 << 10

    public init(url: HTTPURL, settings: HTTPSettings, clock: any Clock = SystemClock()) {
        self.url = url
        self.client = HTTPClient(settings: settings)
        self.clock = clock
    }

    public func deliver(_ events: [AnalyticsEvent]) throws(SinkError) {
        let batch: JSON = ["events": .array(events.map(\.sinkJSON))]
        // "Expect:" turns off curl's 100-continue round trip for larger bodies.
        let request = HTTPRequest(
            .post, url, headers: ["Content-Type: application/json", "Expect:"], body: batch.encoded(),
            maxResponseBytes: Self.maxResponseBytes, overflow: .truncate)
        switch client.send(request) {
        case .failure(let error):
            throw RemoteError(error)
        case .success(let response):
            if let failure = RemoteError(response, now: clock.unixTime()) { throw failure }
        }
    }
}
