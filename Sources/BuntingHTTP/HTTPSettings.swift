import BuntingCore

/// What every request of a client shares; set once from the command line.
public struct HTTPSettings: Equatable, Sendable {
    /// Seconds to wait for a connection (TCP and TLS).
    public var connectTimeout = 10.0
    /// Seconds a whole request may take, body included.
    public var timeout = 30.0
    /// Seconds an event stream may send nothing (not even a comment) before
    /// it counts as dropped and is connected again.
    public var streamIdleTimeout = 60.0
    /// PEM file of the certificate authorities to trust instead of the system's.
    public var caFile: String?
    /// Sent with every request to the URL's own origin (API keys, tokens); never logged.
    public var headers: [HTTPHeader] = []
    public var userAgent = "bunting/\(BuntingVersion.current)"

    public init() {}
}
