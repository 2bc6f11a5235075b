/// Why a fetch from the definitions source or a delivery to the analytics
/// sink failed, sorted by what the failure model does with it. One type for
/// both, so that both follow one model.
public enum RemoteError: Error, Equatable, Sendable {
    /// Network failure, timeout, unreadable file, HTTP 5xx: retried.
    case serverError(String)
    /// HTTP 429 with a usable Retry-After: waits until then, then retries.
    case rateLimited(until: Double, String)
    /// HTTP 401/403: retried, then given up for good.
    case authentication(String)
    /// Another HTTP 4xx: not retried.
    case clientError(String)
    /// HTTP 400, 413 or 422: the server understood the request and refused
    /// what it carried. Not retried; the sink looks for the events it refuses.
    case refusedContent(String)
    /// An answer that cannot be a document before any parsing (larger than
    /// the limit, an HTML page): INVALID_SERVER_DATA, like a document that
    /// does not parse, and not retried.
    case invalidData(String)

    public var message: String {
        switch self {
        case .serverError(let text), .rateLimited(_, let text), .authentication(let text), .clientError(let text),
            .refusedContent(let text), .invalidData(let text):
            text
        }
    }

    /// The `reason` of the ERROR event it causes.
    var errorReason: ErrorReason {
        switch self {
        case .serverError: .serverError
        case .rateLimited: .rateLimited
        case .authentication, .clientError, .refusedContent: .clientError
        case .invalidData: .invalidServerData
        }
    }

    /// Whether the failure model tries again (within the retry policy's count).
    var isRetried: Bool {
        switch self {
        case .serverError, .rateLimited, .authentication: true
        case .clientError, .refusedContent, .invalidData: false
        }
    }

    /// The `retryState` once no retry is left: the integrator may try a
    /// server that failed, but not one that refused the client.
    var givenUpState: RetryState {
        switch self {
        case .serverError, .rateLimited: .integratorMayRetry
        case .authentication, .clientError, .refusedContent, .invalidData: .doNotRetry
        }
    }

    /// When the server asked to be tried again (`rateLimitedUntil`).
    var retryAfter: Double? {
        if case .rateLimited(let until, _) = self { return until }
        return nil
    }

    /// The same failure with a Retry-After no later than `latest`: a server
    /// cannot stop Bunting for years (the caller passes now plus the retry
    /// policy's longest delay).
    func clampingRetryAfter(to latest: Double) -> RemoteError {
        guard case .rateLimited(let until, let message) = self, until > latest else { return self }
        return .rateLimited(until: latest, message + " (Retry-After taken as at most --retry-max-delay)")
    }
}
