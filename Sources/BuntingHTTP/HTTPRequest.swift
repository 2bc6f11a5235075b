/// One request to send. The client adds what every request shares (timeouts,
/// TLS, the configured headers): see `HTTPSettings`.
public struct HTTPRequest: Sendable {
    public enum Method: String, Sendable {
        case get = "GET", post = "POST"
    }

    /// What to do with a body longer than `maxResponseBytes`.
    public enum Overflow: Sendable {
        /// Fail the request as `.tooLarge` (a document that must be whole).
        case fail
        /// Keep the first bytes and drop the rest (an answer only read for logs).
        case truncate
    }

    public var method: Method
    public var url: HTTPURL
    /// Header lines of this request alone (conditional headers, Content-Type).
    public var headers: [String]
    public var body: [UInt8]
    public var maxResponseBytes: Int
    public var overflow: Overflow
    /// Follows up to `HTTPClient.maxRedirects` redirects; the configured
    /// headers go only to the origin of `url`.
    public var followsRedirects: Bool

    public init(
        _ method: Method, _ url: HTTPURL, headers: [String] = [], body: [UInt8] = [],
        maxResponseBytes: Int, overflow: Overflow = .fail, followsRedirects: Bool = false
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.maxResponseBytes = maxResponseBytes
        self.overflow = overflow
        self.followsRedirects = followsRedirects
    }
}
