/// An HTTP response of any status.
public struct HTTPResponse: Equatable, Sendable {
    /// The response headers Bunting reads, by lower-case name; others are not kept.
    public static let keptHeaders = ["etag", "last-modified", "retry-after", "content-type", "x-sse-support"]

    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]
    /// Where a redirect points, as an absolute URL (its Location resolved).
    public var redirect: String?

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = [], redirect: String? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.redirect = redirect
    }

    /// One of `keptHeaders`, by any case of its name.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    public var isSuccess: Bool { (200..<300).contains(status) }
}
