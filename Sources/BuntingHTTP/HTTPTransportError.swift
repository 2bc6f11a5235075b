/// A request that got no usable HTTP response.
public struct HTTPTransportError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// No connection, a dropped or reset connection, a truncated body, TLS refused.
        case network
        /// The connect or total timeout ran out.
        case timeout
        /// The body went past the size limit of the request.
        case tooLarge
        /// libcurl cannot be loaded or set up on this machine.
        case unavailable
    }

    public var kind: Kind
    /// Stable for one kind of failure (no timings, no addresses), because the
    /// engine reports a lasting problem once by comparing messages.
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
