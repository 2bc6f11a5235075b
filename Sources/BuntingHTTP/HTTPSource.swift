import BuntingCore
import BuntingRuntime
import Synchronization

/// Definitions from an HTTP server (nginx, a CDN, object storage), fetched
/// with a conditional GET: the engine hands back the ETag and Last-Modified
/// of the document in use, and a 304 answer costs no body and no parse.
/// An answer with GrowthBook's `x-sse-support: enabled` announces a stream
/// of the document (`announcedStream`).
public final class HTTPSource: DefinitionsSource {
    public let url: HTTPURL
    public var location: String { url.redacted }
    public var isLocal: Bool { false }
    /// A definitions document larger than this is refused (as FileSource does).
    public static let defaultMaxBytes = 128 << 20
    private let client: HTTPClient
    private let clock: any Clock
    private let maxBytes: Int
    /// The stream an answer announced, once one did; whether an unusable announcement was logged.
    private let announced = Mutex<(stream: HTTPEventStream?, loggedUnusable: Bool)>((nil, false))

    public init(url: HTTPURL, settings: HTTPSettings, clock: any Clock = SystemClock(), maxBytes: Int = defaultMaxBytes)
    {
        self.url = url
        self.client = HTTPClient(settings: settings)
        self.clock = clock
        self.maxBytes = maxBytes
    }

    public var announcedStream: (any DefinitionsStreamSource)? { announced.withLock { $0.stream } }

    public func fetch(ifChangedSince version: SourceVersion?) -> SourceFetchResult {
        var headers = ["Accept: application/json"]
        if let etag = version?.etag { headers.append("If-None-Match: \(etag)") }
        if let lastModified = version?.lastModified { headers.append("If-Modified-Since: \(lastModified)") }
        let conditional = headers.count > 1
        let request = HTTPRequest(.get, url, headers: headers, maxResponseBytes: maxBytes, followsRedirects: true)
        let response: HTTPResponse
        switch client.send(request) {
        case .failure(let error): return .failed(RemoteError(error))
        case .success(let answer): response = answer
        }
        if response.status == 304 || response.isSuccess, GrowthBookStream.isAnnounced(by: response) {
            noteAnnouncedStream()
        }
        return Self.result(of: response, conditional: conditional, now: clock.unixTime())
    }

    /// The first announcement makes the stream; it stays for the life of the source.
    private func noteAnnouncedStream() {
        let streamURL = GrowthBookStream.streamURL(forPayloadAt: url)
        let unusable = announced.withLock { state -> Bool in
            if let streamURL {
                if state.stream == nil {
                    state.stream = HTTPEventStream(
                        url: streamURL, settings: client.settings, maxEventBytes: maxBytes, clock: clock)
                }
                return false
            }
            defer { state.loggedUnusable = true }
            return !state.loggedUnusable
        }
        if unusable {
            log.warning(
                "\(url) announces a stream (x-sse-support: enabled), but is "
                    + "not GrowthBook's {apiHost}/api/features/{clientKey}: not used")
        }
    }
}
