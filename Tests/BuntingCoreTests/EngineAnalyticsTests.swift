import BuntingCore
import BuntingJSON
import Testing

/// An engine for alice with every channel refreshed and subscribed.
func refreshedHarness(configure: (inout Engine.Configuration) -> Void = { _ in }) throws -> EngineHarness {
    let harness = EngineHarness(testDocument, configure: configure)
    _ = try harness.engine.subscribe(.featureFlags, kind: .events)
    _ = try harness.engine.subscribe(.banners, kind: .events)
    _ = try harness.engine.subscribe(.contentCards, kind: .events)
    try harness.engine.changeUser("alice", attributes: nil)
    _ = harness.take()
    return harness
}

@Suite struct AnalyticsTests {
    @Test func aCardImpressionIsEnqueuedSetsViewedAndIsFlushedLater() throws {
        let harness = try refreshedHarness()
        try harness.engine.logImpression(.contentCards, ids: ["c1"])
        #expect(harness.take() == ["sub-3 IMPRESSION contentCards ENQUEUED c1"])
        #expect(
            harness.engine.snapshotData(.contentCards)["cards"]?.arrayValue?.first { $0["id"] == "c1" }?["viewed"]
                == true)
        #expect(harness.store.queuedEventCount == 1)
        var answer: (Int, Int)?
        harness.engine.flush { answer = ($0, $1) }
        #expect(harness.take() == ["sub-3 IMPRESSION contentCards FLUSHED c1"])
        #expect(answer.map { [$0.0, $0.1] } == [1, 0])
        let sent = try #require(harness.sink.accepted.first)
        #expect(
            sent.kind == .impression && sent.channel == .contentCards && sent.itemId == "c1" && sent.userId == "alice")
        #expect(sent.time == EngineHarness.startTime)
        #expect(harness.store.queuedEventCount == 0)
    }

    @Test func aControlCardsImpressionIsOrdinaryButItCannotBeClickedOrDismissed() throws {
        let harness = try refreshedHarness()
        try harness.engine.logImpression(.contentCards, ids: ["ctl"])
        #expect(harness.take() == ["sub-3 IMPRESSION contentCards ENQUEUED ctl"])
        #expect(throws: EngineError.self) { try harness.engine.logClick(.contentCards, id: "ctl", buttonId: nil) }
        #expect(throws: EngineError.self) { try harness.engine.logDismiss(.contentCards, id: "ctl") }
        #expect(harness.take().isEmpty)
    }

    @Test func aFlagImpressionIsLoggedOncePerSessionByTrackingString() throws {
        let harness = try refreshedHarness()
        try harness.engine.logImpression(.featureFlags, ids: ["checkout", "tracked"])
        try harness.engine.logImpression(.featureFlags, ids: ["checkout", "tracked-too"])
        #expect(
            harness.take() == [
                "sub-1 IMPRESSION featureFlags ENQUEUED checkout",
                "sub-1 IMPRESSION featureFlags ENQUEUED tracked",
            ])
        try harness.engine.openSession()
        _ = harness.take()
        try harness.engine.logImpression(.featureFlags, ids: ["checkout"])
        #expect(harness.take() == ["sub-1 IMPRESSION featureFlags ENQUEUED checkout"])
    }

    @Test func logRequestsAreAllOrNothing() throws {
        let harness = try refreshedHarness()
        let error = #expect(throws: EngineError.self) {
            try harness.engine.logImpression(.contentCards, ids: ["c1", "nope"], field: "ids")
        }
        #expect(error?.kind == .notFound)
        #expect(error?.field == "ids[1]")
        #expect(harness.take().isEmpty)
        #expect(harness.store.queuedEventCount == 0)
        #expect(throws: EngineError.self) { try harness.engine.logImpression(.featureFlags, ids: ["beta-missing"]) }
        #expect(throws: EngineError.self) { try harness.engine.logClick(.featureFlags, id: "checkout", buttonId: nil) }
        #expect(throws: EngineError.self) { try harness.engine.logClick(.contentCards, id: "c1", buttonId: "b") }
    }

    @Test func aDismissalIsEnqueuedThenTheItemLeavesAndStaysGone() throws {
        let harness = try refreshedHarness()
        try harness.engine.logDismiss(.contentCards, id: "c1")
        #expect(
            harness.take() == [
                "sub-3 DISMISS contentCards ENQUEUED c1",
                "sub-3 DATA_UPDATED contentCards CLIENT_ACTION [c2,old,ctl,fixed] sync=+0",
            ])
        try harness.engine.refresh(.contentCards, placementIds: nil)
        #expect(harness.take() == ["sub-3 DATA_UPDATED contentCards MANUAL_SERVER_REFRESH [c2,old,ctl,fixed] sync=+0"])
        let error = #expect(throws: EngineError.self) { try harness.engine.logDismiss(.contentCards, id: "fixed") }
        #expect(error?.kind == .notAllowed)
        #expect(throws: EngineError.self) { try harness.engine.logDismiss(.contentCards, id: "c1") }
    }

    @Test func bannersAreLoggedByPlacementAndClicksCarryTheButton() throws {
        let harness = try refreshedHarness()
        try harness.engine.logImpression(.banners, ids: ["home"])
        try harness.engine.logClick(.banners, id: "home", buttonId: "cta")
        try harness.engine.logDismiss(.banners, id: "side")
        #expect(
            harness.take() == [
                "sub-2 IMPRESSION banners ENQUEUED spring",
                "sub-2 CLICK banners ENQUEUED spring button=cta",
                "sub-2 DISMISS banners ENQUEUED side-a",
                "sub-2 DATA_UPDATED banners CLIENT_ACTION [home:spring] sync=+0",
            ])
        #expect(harness.engine.banner(placementId: "side") == nil)
        let events = harness.store.queuedEvents(limit: 10)
        #expect(events.map(\.itemId) == ["home", "home", "side"])
        #expect(events[1].buttonId == "cta")
        #expect(events[1].sinkJSON["bannerId"] == "spring")
    }

    @Test func aFailingSinkKeepsTheEventsAndRetries() throws {
        let harness = try refreshedHarness()
        try harness.engine.logImpression(.contentCards, ids: ["c1"])
        _ = harness.take()
        harness.sink.fail(.serverError("disk full"))
        var answer: [Int]?
        harness.engine.flush { answer = [$0, $1] }
        #expect(harness.take() == ["sub-3 ERROR contentCards SERVER_ERROR SDK_WILL_RETRY"])
        #expect(answer == [0, 1])
        harness.advance(1)
        #expect(harness.take() == ["sub-3 IMPRESSION contentCards FLUSHED c1"])
        #expect(harness.sink.accepted.map(\.itemId) == ["c1"])
    }

    @Test func theQueueDropsItsOldestEventsWhenFullAndSaysSo() throws {
        let harness = try refreshedHarness { $0.maxQueuedEvents = 2 }
        try harness.engine.logImpression(.contentCards, ids: ["c1", "c2"])
        _ = harness.take()
        try harness.engine.logImpression(.contentCards, ids: ["fixed"])
        #expect(
            harness.take() == [
                "sub-3 ERROR contentCards CLIENT_ERROR DO_NOT_RETRY",
                "sub-3 IMPRESSION contentCards ENQUEUED fixed",
            ])
        #expect(harness.store.queuedEvents(limit: 10).map(\.itemId) == ["c2", "fixed"])
    }

    @Test func changeUserFlushesThePreviousUsersEventsFirst() throws {
        let harness = try refreshedHarness()
        try harness.engine.logImpression(.contentCards, ids: ["c1"])
        try harness.engine.changeUser("bob", attributes: nil)
        harness.settle()
        #expect(harness.sink.accepted.map(\.userId) == ["alice"])
    }

    @Test func eventIdsAreUniqueAndKeptOnResend() throws {
        let harness = try refreshedHarness()
        try harness.engine.logImpression(.contentCards, ids: ["c1", "c2", "old"])
        let queued = harness.store.queuedEvents(limit: 10).map(\.eventId)
        #expect(Set(queued).count == 3)
        harness.sink.fail(.serverError("down"))
        harness.engine.flush { _, _ in }
        harness.advance(1)
        #expect(harness.sink.accepted.map(\.eventId) == queued)
    }
}

/// A sink that refuses one event must not block the ones behind it.
@Suite struct PoisonBatchTests {
    @Test func theRefusedEventIsFoundDroppedAndReportedAndTheRestAreDelivered() throws {
        let harness = try refreshedHarness { $0.maxBatchSize = 100 }
        for _ in 0..<10 {
            try harness.engine.openSession();
            try harness.engine.logImpression(.featureFlags, ids: ["checkout", "tracked"])
        }
        try harness.engine.logImpression(.contentCards, ids: ["c1", "c2", "fixed"])
        _ = harness.take()
        harness.sink.refuse(itemIds: ["c2"])
        var answer: (Int, Int)?
        harness.engine.flush { answer = ($0, $1) }
        let events = harness.take()
        #expect(answer?.0 == 22 && answer?.1 == 0, "every other event went out; none is left")
        #expect(Set(harness.sink.accepted.map(\.itemId)) == ["checkout", "tracked", "c1", "fixed"])
        #expect(harness.sink.accepted.count == 22)
        #expect(events.filter { $0.contains("ERROR") } == ["sub-3 ERROR contentCards CLIENT_ERROR DO_NOT_RETRY"])
        #expect(events.filter { $0.contains("FLUSHED") }.count == 22)
        #expect(harness.sink.batches < 12, "found by halving, not one by one: \(harness.sink.batches) batches")
        #expect(harness.store.queuedEventCount == 0)
    }

    @Test func aSinkThatRefusesEverythingLosesNothing() throws {
        let harness = try refreshedHarness()
        try harness.engine.logImpression(.contentCards, ids: ["c1", "c2"])
        _ = harness.take()
        harness.sink.refuse(itemIds: ["c1", "c2"])
        harness.engine.flush { _, _ in }
        #expect(harness.take() == ["sub-3 ERROR contentCards CLIENT_ERROR DO_NOT_RETRY"])
        #expect(
            harness.store.queuedEventCount == 2,
            "refused alone, with nothing accepted: the sink is at fault, not the events")
    }
}
