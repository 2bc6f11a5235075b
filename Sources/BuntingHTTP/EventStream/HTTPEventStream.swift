import BuntingCore
import BuntingRuntime

/// A Server-Sent Events stream over HTTP (`--stream URL`, or the stream a
/// GrowthBook server announces): each connection is one long libcurl
/// transfer on a thread of its own (see `EventStreamConnection`).
public final class HTTPEventStream: DefinitionsStreamSource {
    public let url: HTTPURL
    public var location: String { url.redacted }
    private let settings: HTTPSettings
    private let maxEventBytes: Int
    private let clock: any Clock

    /// `maxEventBytes`: the largest event, which is the largest document.
    public init(
        url: HTTPURL, settings: HTTPSettings, maxEventBytes: Int = HTTPSource.defaultMaxBytes,
        clock: any Clock = SystemClock()
    ) {
        self.url = url
        self.settings = settings
        self.maxEventBytes = maxEventBytes
        self.clock = clock
    }

    public func connect(lastEventId: String?, report: @escaping @Sendable (StreamReport) -> Void)
        -> any StreamConnection
    {
        let connection = EventStreamConnection(
            url: url, settings: settings, maxEventBytes: maxEventBytes, lastEventId: lastEventId, clock: clock,
            report: report)
        // The stack holds libcurl's and the parser's frames only.
        startThread(name: "bunting-stream", stackSize: 1 << 20) { connection.run() }
        return connection
    }
}
