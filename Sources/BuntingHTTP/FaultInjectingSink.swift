import BuntingCore
import BuntingRuntime

/// An analytics sink that answers with the failures armed on a `FaultBoard`
/// (`serve --faults`, `injectFault` with target `sink`) while any are
/// armed, and delivers to the real sink otherwise. An injected 2xx accepts
/// the batch without it reaching the file or the network, as a collector
/// that answered and lost it would.
public final class FaultInjectingSink: AnalyticsSink {
    private let base: any AnalyticsSink
    private let faults: FaultBoard
    private let clock: any Clock

    public init(_ base: any AnalyticsSink, faults: FaultBoard, clock: any Clock) {
        self.base = base
        self.faults = faults
        self.clock = clock
    }

    public var location: String { base.location }

    public func deliver(_ events: [AnalyticsEvent]) throws(SinkError) {
        guard let fault = faults.take(.sink) else { return try base.deliver(events) }
        log.info(
            "analytics to \(location): an injected \(fault.summary) "
                + "instead of a delivery of \(events.count) events")
        switch fault.asHTTP {
        case .failure(let failure): throw failure
        case .success(let response):
            if let failure = RemoteError(response, now: clock.unixTime()) { throw failure }
        }
    }
}
