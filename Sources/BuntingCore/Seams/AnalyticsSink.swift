/// Where analytics events go: an NDJSON file or an HTTP collector.
///
/// `deliver` blocks and runs on a worker thread. It returns only when the
/// sink has accepted every event of the batch (written, or answered 2xx);
/// events already there (same `eventId`) count as accepted.
public protocol AnalyticsSink: AnyObject, Sendable {
    var location: String { get }
    func deliver(_ events: [AnalyticsEvent]) throws(SinkError)
}

/// Why a batch was not accepted; the events stay queued and are sent again.
public typealias SinkError = RemoteError
