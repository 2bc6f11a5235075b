/// Where the definitions document comes from: a file or an HTTP server.
///
/// `fetch` blocks (it reads a file or waits for a server) and is called on a
/// worker thread, never on the event loop.
public protocol DefinitionsSource: AnyObject, Sendable {
    /// For logs and `status`: the path or URL.
    var location: String { get }
    /// Local sources are read once, synchronously, before serving starts.
    var isLocal: Bool { get }
    /// Fetches the document unless it is known to be unchanged since `version`.
    func fetch(ifChangedSince version: SourceVersion?) -> SourceFetchResult
}

/// What identifies one state of the document at its source: an ETag and
/// Last-Modified for HTTP, file identity and modification time for files.
public struct SourceVersion: Equatable, Sendable {
    public var etag: String?
    public var lastModified: String?
    public var fingerprint: String?

    public init(etag: String? = nil, lastModified: String? = nil, fingerprint: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
        self.fingerprint = fingerprint
    }
}

public enum SourceFetchResult: Sendable {
    case fetched([UInt8], SourceVersion)
    /// The source says nothing changed (HTTP 304, or the same file state).
    case unchanged
    case failed(SourceFailure)
}

/// Why a fetch failed, sorted by what the failure model does with it.
public enum SourceFailure: Error, Equatable, Sendable {
    /// Network failure, timeout, unreadable file, HTTP 5xx: retried.
    case serverError(String)
    /// HTTP 429 with a usable Retry-After: waits until then, then retries.
    case rateLimited(until: Double, String)
    /// HTTP 401/403: retried, then given up for good.
    case authentication(String)
    /// Another HTTP 4xx: not retried.
    case clientError(String)
    /// An answer that cannot be a document before any parsing (larger than
    /// the limit, an HTML page): INVALID_SERVER_DATA, like a document that
    /// does not parse, and not retried.
    case invalidData(String)

    public var message: String {
        switch self {
        case .serverError(let text), .rateLimited(_, let text), .authentication(let text), .clientError(let text),
             .invalidData(let text): text
        }
    }
}
