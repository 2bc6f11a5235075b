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
    /// A stream of this document that the source's server announced in its
    /// last answers (GrowthBook's `x-sse-support: enabled`), if any.
    var announcedStream: (any DefinitionsStreamSource)? { get }
}

extension DefinitionsSource {
    public var announcedStream: (any DefinitionsStreamSource)? { nil }
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
    case failed(SourceError)
}

/// Why a fetch failed: the same cases as a delivery to the sink.
public typealias SourceError = RemoteError
