import BuntingCore
import BuntingRuntime
import Dispatch

/// A definitions stream whose next connections fail as armed on a
/// `FaultBoard` (`serve --faults`, `injectFault` with target `stream`), and
/// that connects for real otherwise. An injected answer means what the same
/// answer to a real connection means: a failing status, a timeout or a
/// dropped connection ends it with that failure (the stream's outage, told
/// once, and its reconnection); a 2xx answer with a body is a connection
/// that opens, delivers the body as one event (a pushed document) and is
/// then dropped.
public final class FaultInjectingStream: DefinitionsStreamSource {
    private let base: any DefinitionsStreamSource
    private let faults: FaultBoard
    /// Reads a Retry-After in seconds as a time: the server's clock, manual or not.
    private let clock: any Clock

    public init(_ base: any DefinitionsStreamSource, faults: FaultBoard, clock: any Clock) {
        self.base = base
        self.faults = faults
        self.clock = clock
    }

    public var location: String { base.location }

    public func connect(lastEventId: String?, report: @escaping @Sendable (StreamReport) -> Void)
        -> any StreamConnection
    {
        guard let fault = faults.take(.stream) else { return base.connect(lastEventId: lastEventId, report: report) }
        log.info("stream \(location): an injected \(fault.summary) instead of a connection")
        var reports: [StreamReport]
        switch fault.asHTTP {
        case .failure(let failure):
            reports = [.ended(failure)]
        case .success(let response):
            if let failure = RemoteError(response, now: clock.unixTime()) {
                reports = [.ended(failure)]
            } else {
                reports = [.opened]
                if !response.body.isEmpty { reports.append(.event(StreamEvent(type: "message", data: response.body))) }
                reports.append(
                    .ended(
                        RemoteError(HTTPTransportError(.network, "the injected stream ended after its answer"))))
            }
        }
        let connection = InjectedConnection()
        let told = reports
        // As a real connection reports: from another thread, after `connect` returned.
        DispatchQueue.global().async {
            for item in told where !connection.isClosed { report(item) }
        }
        return connection
    }
}

/// A connection that exists only in its reports; closing it stops them.
private final class InjectedConnection: StreamConnection, @unchecked Sendable {
    private let lock = ConditionLock()
    private var closed = false

    var isClosed: Bool { lock.withLock { closed } }

    func close() { lock.withLock { closed = true } }
}
