import BuntingCore
import BuntingRuntime

/// Definitions from an HTTP server (nginx, a CDN, object storage), fetched
/// with a conditional GET: the engine hands back the ETag and Last-Modified
/// of the document in use, and a 304 answer costs no body and no parse.
public final class HTTPSource: DefinitionsSource {
    public let url: HTTPURL
    public var location: String { url.redacted }
    public var isLocal: Bool { false }
    /// A definitions document larger than this is refused (as FileSource does).
    public static let defaultMaxBytes = 128 << 20
    private let client: HTTPClient
    private let clock: any Clock
    private let maxBytes: Int

    public init(url: HTTPURL, settings: HTTPSettings, clock: any Clock = SystemClock(), maxBytes: Int = defaultMaxBytes)
    {
        self.url = url
        self.client = HTTPClient(settings: settings)
        self.clock = clock
        self.maxBytes = maxBytes
    }

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
        if response.status == 304 {
            // Without a condition a 304 means nothing; the server is at fault.
            return conditional ? .unchanged : .failed(.serverError("HTTP 304 to a request that was not conditional"))
        }
        if let failure = RemoteError(response, now: clock.unixTime()) {
            return .failed(failure)
        }
        // A web server's fallback page (a SPA index, a captive portal) comes
        // back as 200 text/html; say so instead of reporting a JSON syntax error.
        if let type = response.header("Content-Type"), type.lowercased().hasPrefix("text/html") {
            return .failed(.invalidData("the server sent an HTML page (Content-Type: \(type)), not a JSON document"))
        }
        return .fetched(
            response.body, SourceVersion(etag: response.header("ETag"), lastModified: response.header("Last-Modified")))
    }
}
