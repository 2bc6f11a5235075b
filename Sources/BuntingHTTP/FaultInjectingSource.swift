import BuntingCore
import BuntingRuntime

/// A definitions source that answers with the failures armed on a
/// `FaultBoard` (`serve --faults`, `injectFault` with target
/// `definitions`) while any are armed, and asks the real source otherwise.
/// An injected answer means what the same answer from an HTTP server means
/// (`HTTPSource.result(of:)`), whatever the real source is: a script checks
/// the failure model against a file as against a URL.
public final class FaultInjectingSource: DefinitionsSource {
    private let base: any DefinitionsSource
    private let faults: FaultBoard
    /// Reads a Retry-After in seconds as a time: the server's clock, manual or not.
    private let clock: any Clock

    public init(_ base: any DefinitionsSource, faults: FaultBoard, clock: any Clock) {
        self.base = base
        self.faults = faults
        self.clock = clock
    }

    public var location: String { base.location }
    public var isLocal: Bool { base.isLocal }

    public func fetch(ifChangedSince version: SourceVersion?) -> SourceFetchResult {
        guard let fault = faults.take(.definitions) else { return base.fetch(ifChangedSince: version) }
        log.info("definitions from \(location): an injected \(fault.summary) instead of a fetch")
        switch fault.asHTTP {
        case .failure(let failure): return .failed(failure)
        case .success(let response):
            return HTTPSource.result(of: response, conditional: version != nil, now: clock.unixTime())
        }
    }
}
