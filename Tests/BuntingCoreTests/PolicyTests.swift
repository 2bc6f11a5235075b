import BuntingCore
import Testing

@Suite struct RetryPolicyTests {
    @Test func theFirstRetryWaitsTheInitialDelayExactly() {
        var random = SplitMix64(seed: 1)
        #expect(RetryPolicy(initialDelay: 2, maxDelay: 30, maxRetries: 5).delay(beforeRetry: 1, random: &random) == 2)
        #expect(RetryPolicy(initialDelay: 50, maxDelay: 30, maxRetries: 5).delay(beforeRetry: 1, random: &random) == 30)
    }

    /// Later retries double and take 50–100 % of that: both bounds are reached, neither crossed.
    @Test func jitterStaysWithinHalfAndAllOfTheDoubledDelay() {
        let policy = RetryPolicy(initialDelay: 1, maxDelay: 1000, maxRetries: 10)
        var random = SplitMix64(seed: 42)
        for retry in 2...6 {
            let doubled = Double(1 << (retry - 1))
            let delays = (0..<2000).map { _ in policy.delay(beforeRetry: retry, random: &random) }
            #expect(delays.allSatisfy { $0 >= doubled * 0.5 && $0 <= doubled }, "retry \(retry)")
            #expect(delays.min()! < doubled * 0.51 && delays.max()! > doubled * 0.99, "retry \(retry) spans its range")
        }
    }

    @Test func theCapHoldsForLateRetries() {
        let policy = RetryPolicy(initialDelay: 1, maxDelay: 30, maxRetries: 100)
        var random = SplitMix64(seed: 3)
        #expect((2...80).allSatisfy { policy.delay(beforeRetry: $0, random: &random) <= 30 })
        #expect(policy.retries(afterFailedTries: 100) && !policy.retries(afterFailedTries: 101))
    }
}

@Suite struct TokenBucketTests {
    @Test func tokensRunOutAndComeBackOneAnInterval() {
        var bucket = TokenBucket(rule: .init(capacity: 2, refillInterval: 10), now: 0)
        #expect(bucket.take(now: 0) == nil)
        #expect(bucket.take(now: 1) == nil)
        #expect(bucket.take(now: 2) == 10, "refused until the first token is back")
        #expect(bucket.take(now: 9.9) == 10)
        #expect(bucket.take(now: 10) == nil)
        #expect(bucket.take(now: 10.5) == 20)
        #expect(bucket.take(now: 45) == nil, "two intervals earned two tokens, capped at capacity")
        #expect(bucket.take(now: 45) == nil)
        #expect(bucket.take(now: 45) == 55)
    }

    @Test func aSessionRefillsTheBucketAtOnce() {
        var bucket = TokenBucket(rule: .init(capacity: 1, refillInterval: 100, refillsPerSession: true), now: 0)
        #expect(bucket.take(now: 0) == nil)
        #expect(bucket.take(now: 1) == 100)
        bucket.fill(now: 2)
        #expect(bucket.tokens == 1 && bucket.take(now: 2) == nil)
    }
}

/// Manual refreshes are counted on monotonic time: after the wall clock was
/// stepped back five years, a refresh was refused for five years.
@Suite struct RefreshLimitClockTests {
    @Test func aWallClockSteppedBackDoesNotHoldTheBucketEmpty() throws {
        let harness = EngineHarness(testDocument) {
            $0.refreshRules[.featureFlags] = TokenBucket.Rule(capacity: 1, refillInterval: 300)
        }
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        try harness.engine.changeUser("alice", attributes: nil)
        _ = harness.take()
        try harness.engine.refresh(.featureFlags, placementIds: nil)
        #expect(harness.take().last?.contains("MANUAL_SERVER_REFRESH") == true)
        harness.clock.stepWallClock(to: EngineHarness.startTime - 5 * 365 * 86_400)
        try harness.engine.refresh(.featureFlags, placementIds: nil)
        let refused = harness.takeRaw()
        guard case .error(_, let error)? = refused.last else {
            Issue.record("expected RATE_LIMITED, got \(refused)")
            return
        }
        #expect(error.reason == .rateLimited)
        let wait = try #require(error.rateLimitedUntil) - harness.clock.unixTime()
        #expect(wait > 0 && wait <= 300, "the refusal names a time \(wait) s away")
        harness.advance(300)
        try harness.engine.refresh(.featureFlags, placementIds: nil)
        #expect(harness.take().last?.contains("MANUAL_SERVER_REFRESH") == true)
    }
}

/// A server's Retry-After holds for the polls after the retry cycle gave up:
/// asked for 20 s, a server was polled every second.
@Suite struct RetryAfterAfterGivingUpTests {
    @Test func pollsWaitForTheLastRetryAfter() throws {
        let harness = EngineHarness(testDocument, localSource: false) {
            $0.pollInterval = 1
            $0.retry = RetryPolicy(initialDelay: 1, maxDelay: 30, maxRetries: 0)
        }
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        _ = harness.take()
        let fetches = harness.source.fetchCount
        harness.source.fail(.rateLimited(until: harness.clock.unixTime() + 1 + 20, "HTTP 429"))
        harness.advance(1)
        #expect(harness.source.fetchCount == fetches + 1, "the poll that met the 429")
        for _ in 0..<19 { harness.advance(1) }
        #expect(harness.source.fetchCount == fetches + 1, "polled before the Retry-After")
        harness.advance(1)
        harness.advance(1)
        #expect(harness.source.fetchCount > fetches + 1, "polling resumed after it")
    }
}

/// Subscriptions are bounded: 5,000 of them, each sent every snapshot,
/// queued 829 MB of output for one user change.
@Suite struct SubscriptionLimitTests {
    @Test func subscriptionsPastTheLimitAreRefusedAndRemovingOneMakesRoom() throws {
        let harness = EngineHarness(testDocument) { $0.maxSubscriptions = 3 }
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        _ = try harness.engine.subscribe(.banners, kind: .updates)
        let third = try #require(try harness.engine.subscribeToDefinitions())
        #expect(throws: EngineError.self) { _ = try harness.engine.subscribe(.contentCards, kind: .events) }
        do {
            _ = try harness.engine.subscribe(.contentCards, kind: .events)
        } catch {
            #expect(error.kind == .limitReached)
        }
        #expect(harness.engine.removeSubscription(third))
        #expect(try harness.engine.subscribe(.contentCards, kind: .events) != nil)
    }
}
