/// When to try a failed fetch or delivery again: the first retry after the
/// initial delay, then doubling with jitter, capped; after `maxRetries`
/// retries the integrator decides. One policy for the definitions source
/// (file or HTTP) and the analytics sink.
public struct RetryPolicy: Equatable, Sendable {
    public var initialDelay: Double
    public var maxDelay: Double
    /// Retries after the first failed try; 0 means no retry.
    public var maxRetries: Int

    public init(initialDelay: Double = 1, maxDelay: Double = 30, maxRetries: Int = 5) {
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.maxRetries = maxRetries
    }

    /// Whether a failure after `failedTries` tries (1 for the first) is retried.
    public func retries(afterFailedTries failedTries: Int) -> Bool {
        failedTries <= maxRetries
    }

    /// Seconds before retry number `retry` (1-based). The first is exactly the
    /// initial delay; later ones double and take a random share of 50–100 %
    /// of that, so that many clients failing together do not retry together.
    public func delay(beforeRetry retry: Int, random: inout some RandomNumberGenerator) -> Double {
        guard retry > 1 else { return min(initialDelay, maxDelay) }
        let doubled = initialDelay * Double(1 << min(retry - 1, 30))
        let base = min(maxDelay, doubled)
        return min(maxDelay, base * Double.random(in: 0.5...1.0, using: &random))
    }
}
