import BuntingCore
import BuntingJSON
import Testing

/// Definitions subscriptions (OpenFeature's provider events).
@Suite struct DefinitionsSubscriptionTests {
    @Test func readyAtOnceThenChangedWithTheFlagsThatChanged() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribeToDefinitions()
        #expect(harness.take() == ["sub-1 definitions READY"])
        harness.source.setDocument(
            document { object in
                object["flags"] = [["id": "checkout", "enabled": false], ["id": "fresh", "enabled": true]]
            })
        try harness.engine.refresh(.featureFlags, placementIds: nil)
        #expect(harness.take() == ["sub-1 definitions CHANGED [beta,checkout,fresh,tracked,tracked-too]"])
    }

    @Test func errorsAreStaleWhileOldDefinitionsServeAndReadyFollowsRecovery() throws {
        let harness = EngineHarness(testDocument) { $0.pollInterval = 10 }
        _ = try harness.engine.subscribeToDefinitions()
        _ = harness.take()
        harness.source.fail(.serverError("HTTP 503"))
        harness.advance(10)
        #expect(harness.take() == ["sub-1 definitions ERROR SERVER_ERROR stale=true"])
        harness.advance(1) // the retry reads the same document again
        #expect(harness.take() == ["sub-1 definitions READY"])
    }

    @Test func withoutDefinitionsTheCauseComesFirst() throws {
        let harness = EngineHarness(testDocument, localSource: false, sourceFailures: [.clientError("HTTP 404")])
        _ = harness.take()
        _ = try harness.engine.subscribeToDefinitions()
        #expect(harness.take() == ["sub-1 definitions ERROR CLIENT_ERROR stale=false"])
        #expect(harness.engine.removeSubscription("sub-1"))
        #expect(!harness.engine.removeSubscription("sub-1"))
    }
}

/// `track`: custom events on the durable path.
@Suite struct TrackTests {
    @Test func aTrackedEventIsStoredEnqueuedAndFlushed() throws {
        let harness = try refreshedHarness()
        let eventId = try harness.engine.track(name: "checkout-completed", value: 42.5, details: ["items": 3])
        #expect(harness.take() == ["sub-1 CUSTOM featureFlags ENQUEUED ?"])
        let queued = try #require(harness.store.queuedEvents(limit: 10).first)
        #expect(queued.eventId == eventId && queued.kind == .custom && queued.itemId == "checkout-completed")
        #expect(queued.sinkJSON["kind"] == "custom" && queued.sinkJSON["name"] == "checkout-completed")
        #expect(queued.sinkJSON["value"] == 42.5 && queued.sinkJSON["details"] == ["items": 3])
        harness.engine.flush { _, _ in }
        #expect(harness.take() == ["sub-1 CUSTOM featureFlags FLUSHED ?"])
        #expect(harness.sink.accepted.map(\.eventId) == [eventId])
    }

    @Test func badNamesAndValuesAreRefused() throws {
        let harness = try refreshedHarness()
        #expect(throws: EngineError.self) {
            try harness.engine.track(name: String(repeating: "n", count: 256), value: nil, details: nil)
        }
        #expect(throws: EngineError.self) { try harness.engine.track(name: "x", value: .infinity, details: nil) }
        harness.engine.disableSDK()
        #expect(throws: EngineError.self) { try harness.engine.track(name: "x", value: nil, details: nil) }
        #expect(harness.store.queuedEventCount == 0)
    }
}

/// Content cards chosen by their extras.
@Suite struct ExtrasFilterTests {
    static let feeds = document { object in
        object["cards"] = [
            ["id": "a", "created": 3, "extras": ["feed": "inbox"]],
            ["id": "b", "created": 2, "extras": ["feed": "promo"]],
            ["id": "c", "created": 1, "extras": ["feed": "inbox", "kind": "order"]],
        ]
    }

    @Test func snapshotsAndSubscriptionsListOnlyMatchingCards() throws {
        let harness = EngineHarness(Self.feeds)
        _ = try harness.engine.subscribe(.contentCards, kind: .events, extras: ["feed": "inbox"])
        _ = try harness.engine.subscribe(.contentCards, kind: .events)
        try harness.engine.openSession()
        #expect(
            harness.take() == [
                "sub-1 CACHE_REPLAY contentCards [] sync=0", "sub-2 CACHE_REPLAY contentCards [] sync=0",
                "sub-1 DATA_UPDATED contentCards AUTO_SERVER_REFRESH [a,c] sync=+0",
                "sub-2 DATA_UPDATED contentCards AUTO_SERVER_REFRESH [a,b,c] sync=+0",
            ])
        let inbox = try harness.engine.readSnapshot(.contentCards, extras: ["feed": "inbox", "kind": "order"])
        #expect(EngineHarness.items(inbox.data) == "[c]")
        #expect(inbox.data["unviewedCount"] == 1)
        #expect(throws: EngineError.self) { try harness.engine.readSnapshot(.banners, extras: ["feed": "inbox"]) }
        // Events about a card of another feed are not the inbox's.
        try harness.engine.logImpression(.contentCards, ids: ["b"])
        try harness.engine.logDismiss(.contentCards, id: "b")
        #expect(
            harness.take() == [
                "sub-2 IMPRESSION contentCards ENQUEUED b", "sub-2 DISMISS contentCards ENQUEUED b",
                "sub-2 DATA_UPDATED contentCards CLIENT_ACTION [a,c] sync=+0",
            ])
        #expect(throws: EngineError.self) { try harness.engine.subscribe(.featureFlags, kind: .events, extras: [:]) }
    }
}

/// Users are their ids' bytes: in `:memory:`, `Zoe\u{308}` inherited `Zoë`'s
/// attributes, and with a store the other user's snapshot was replayed.
@Suite struct ExactUserIdTests {
    @Test func canonicallyEquivalentUserIdsAreTwoUsers() throws {
        let harness = EngineHarness(["flags": []])
        try harness.engine.changeUser("Zo\u{EB}", attributes: ["tier": "gold"])
        harness.settle()
        try harness.engine.changeUser("Zoe\u{308}", attributes: nil)
        harness.settle()
        #expect(
            harness.engine.status()["userId"]?.stringValue?.unicodeScalars.count == 4,
            "a new user, not the same one")
        #expect(harness.store.loadUser("Zoe\u{308}").attributes.isEmpty)
        #expect(harness.store.loadUser("Zo\u{EB}").attributes == ["tier": "gold"])
    }
}
