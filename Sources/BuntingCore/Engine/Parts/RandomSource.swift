/// The engine's one generator, shared by its parts so that ids and retry
/// jitter are drawn in one sequence: with a fixed seed (tests) every id and
/// delay is known. Owned by the engine's loop, as the parts are.
final class RandomSource {
    private var generator: SplitMix64

    init(_ generator: SplitMix64) {
        self.generator = generator
    }

    /// 32 hex digits: event, session and device ids.
    func identifier() -> String {
        generator.identifier()
    }

    /// The policy's delay before retry number `retry` (with its jitter).
    func delay(_ policy: RetryPolicy, beforeRetry retry: Int) -> Double {
        policy.delay(beforeRetry: retry, random: &generator)
    }
}
