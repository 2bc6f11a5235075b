import BuntingCore
import BuntingJSON
import Testing

/// A document with something in every channel: flags (one for alice only,
/// one with a tracking string), banners on two placements, and cards that
/// are pinned, control, not dismissible, or expiring a minute after start.
let testDocument: JSON = [
    "placements": ["home", "side"],
    "flags": [
        ["id": "checkout", "enabled": true],
        ["id": "beta", "enabled": false, "onlyFor": ["alice"]],
        ["id": "tracked", "enabled": true, "trackingString": "t-1"],
        ["id": "tracked-too", "enabled": true, "trackingString": "t-1"],
    ],
    "banners": [
        ["id": "spring", "placementId": "home", "html": "<p>Spring</p>"],
        ["id": "side-a", "placementId": "side", "html": "<p>A</p>", "onlyFor": ["alice"]],
    ],
    "cards": [
        ["id": "c1", "created": 100],
        ["id": "c2", "created": 200, "pinned": true],
        ["id": "ctl", "type": "control", "created": 50],
        ["id": "fixed", "created": 10, "dismissible": false],
        ["id": "old", "created": 300, "expiresAt": .real(EngineHarness.startTime + 60)],
    ],
]

let allCards = "[c2,old,c1,ctl,fixed]"

func document(_ change: (inout JSONObject) -> Void) -> JSON {
    var object = testDocument.objectValue!
    change(&object)
    return .object(object)
}

@Suite struct SubscriptionAndUserTests {
    @Test func subscribeReplaysTheCacheAndStartUpIsNotASync() throws {
        let harness = EngineHarness(testDocument)
        #expect(harness.source.fetchCount == 1)
        #expect(try harness.engine.subscribe(.contentCards, kind: .events) == "sub-1")
        #expect(harness.take() == ["sub-1 CACHE_REPLAY contentCards [] sync=0"])
        #expect(harness.engine.status()["sessionId"] == .null)
    }

    @Test func changeUserLoadsTheNewUsersCacheThenRefreshesOnlySubscribedChannels() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.contentCards, kind: .events)
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        _ = harness.take()
        try harness.engine.changeUser("alice", attributes: nil)
        #expect(
            harness.take() == [
                "sub-2 CACHE_LOAD featureFlags [] sync=0",
                "sub-1 CACHE_LOAD contentCards [] sync=0",
                "sub-2 DATA_UPDATED featureFlags AUTO_SERVER_REFRESH [checkout,beta,tracked,tracked-too] sync=+0",
                "sub-1 DATA_UPDATED contentCards AUTO_SERVER_REFRESH \(allCards) sync=+0",
            ])
        #expect(harness.engine.snapshot(.banners).json["lastSyncAt"] == 0)
        #expect(harness.engine.status()["sessionId"] != .null)
    }

    @Test func aReturningUserGetsTheirCachedDataBack() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        try harness.engine.changeUser("alice", attributes: nil)
        harness.advance(10)
        try harness.engine.changeUser("bob", attributes: nil)
        _ = harness.take()
        try harness.engine.changeUser("alice", attributes: nil)
        #expect(
            harness.take() == [
                "sub-1 CACHE_LOAD featureFlags [checkout,beta,tracked,tracked-too] sync=+0",
                "sub-1 DATA_UPDATED featureFlags AUTO_SERVER_REFRESH [checkout,beta,tracked,tracked-too] sync=+10",
            ])
    }

    /// Switching back to a user reuses the caches kept when they were left
    /// instead of reading them from the store; a wipe forgets those too.
    @Test func aUserSwitchedBackToAfterAWipeHasNoCachedData() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        try harness.engine.changeUser("alice", attributes: nil)
        try harness.engine.changeUser("bob", attributes: nil)
        _ = harness.take()
        try harness.engine.wipeData()
        _ = harness.take()
        try harness.engine.changeUser("alice", attributes: nil)
        #expect(
            harness.take() == [
                "sub-1 CACHE_LOAD featureFlags [] sync=0",
                "sub-1 DATA_UPDATED featureFlags AUTO_SERVER_REFRESH [checkout,beta,tracked,tracked-too] sync=+0",
            ])
    }

    /// The user switched back to may be the oldest of those kept, which
    /// keeping the user just left would push out: still their cache.
    @Test func aUserLeftLongestAgoOfThoseKeptGetsTheirCacheBack() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        for user in ["alice", "u2", "u3", "u4", "u5"] { try harness.engine.changeUser(user, attributes: nil) }
        _ = harness.take()
        try harness.engine.changeUser("alice", attributes: nil)
        #expect(harness.take().first == "sub-1 CACHE_LOAD featureFlags [checkout,beta,tracked,tracked-too] sync=+0")
    }

    /// What a user switched back to gets first is what the store holds for
    /// them: the same data a server started afresh on that store replays.
    @Test func aReturningUsersCacheLoadIsWhatTheStoreHolds() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.contentCards, kind: .events)
        try harness.engine.changeUser("alice", attributes: nil)
        try harness.engine.logImpression(.contentCards, ids: ["c1"])
        try harness.engine.logDismiss(.contentCards, id: "c2")
        harness.advance(10)
        try harness.engine.changeUser("bob", attributes: nil)
        _ = harness.take()

        // A copy of what the store holds for alice, read back by a new engine
        // whose current user she is.
        let copy = MemoryStore()
        let alice = harness.store.loadUser("alice")
        try copy.saveChannelCache(
            user: "alice", channel: .contentCards, cache: try #require(alice.caches[.contentCards]))
        for (itemId, state) in alice.itemStates[.contentCards] ?? [:] {
            try copy.saveItemState(user: "alice", channel: .contentCards, itemId: itemId.string, state: state)
        }
        var profile = try #require(harness.store.loadProfile())
        profile.userId = "alice"
        try copy.saveProfile(profile)
        let restarted = EngineHarness(testDocument, store: copy)
        _ = restarted.take()
        _ = try restarted.engine.subscribe(.contentCards, kind: .events)
        guard case .cacheReplay(_, let fromStore)? = restarted.takeRaw().first else {
            Issue.record("no CACHE_REPLAY"); return
        }

        try harness.engine.changeUser("alice", attributes: nil)
        guard case .cacheLoad(_, let switchedBack)? = harness.takeRaw().first else {
            Issue.record("no CACHE_LOAD"); return
        }
        #expect(switchedBack.encodedData.value == fromStore.encodedData.value)
        #expect(switchedBack.lastSyncAt == fromStore.lastSyncAt)
        #expect(switchedBack.encodedData.value["unviewedCount"] != nil)
    }

    @Test func changingToTheCurrentUserOnlyMergesAttributes() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        try harness.engine.changeUser("alice", attributes: ["tier": "gold"])
        _ = harness.take()
        let fetches = harness.source.fetchCount
        try harness.engine.changeUser("alice", attributes: ["age": 30, "tier": nil])
        #expect(harness.take().isEmpty)
        #expect(harness.source.fetchCount == fetches)
    }

    @Test func setUserAttributesStartsNoRefresh() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        _ = harness.take()
        try harness.engine.setUserAttributes(["tier": "gold"])
        #expect(harness.take().isEmpty)
        #expect(harness.source.fetchCount == 1)
    }

    @Test func openSessionRefreshesEachSubscribedChannelAndOnlyThose() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.banners, kind: .events)
        _ = harness.take()
        try harness.engine.openSession()
        #expect(harness.take() == ["sub-1 DATA_UPDATED banners AUTO_SERVER_REFRESH [home:spring] sync=+0"])
        #expect(harness.engine.snapshot(.featureFlags).json["lastSyncAt"] == 0)
        #expect(harness.engine.snapshot(.contentCards).json["lastSyncAt"] == 0)
    }

    @Test func removedSubscriptionsHearNothing() throws {
        let harness = EngineHarness(testDocument)
        let id = try #require(try harness.engine.subscribe(.banners, kind: .events))
        #expect(harness.engine.removeSubscription(id))
        #expect(!harness.engine.removeSubscription(id))
        _ = harness.take()
        try harness.engine.openSession()
        #expect(harness.take().isEmpty)
    }

    @Test func updateSubscriptionsHearOnlyCacheChanges() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.contentCards, kind: .updates)
        #expect(harness.take().isEmpty)
        try harness.engine.changeUser("alice", attributes: nil)
        #expect(harness.take() == ["sub-1 updates contentCards []", "sub-1 updates contentCards \(allCards)"])
        harness.source.fail(.clientError("HTTP 404"))
        try harness.engine.refresh(.contentCards, placementIds: nil)
        #expect(harness.take().isEmpty)
        try harness.engine.logImpression(.contentCards, ids: ["c1"])
        #expect(harness.take().isEmpty)
    }

    @Test func aPendingRefreshOfThePreviousUserIsDropped() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.contentCards, kind: .events)
        _ = harness.take()
        try harness.engine.refresh(.contentCards, placementIds: nil)
        // The fetch is under way; the user changes before it finishes.
        try harness.engine.changeUser("bob", attributes: nil)
        #expect(
            harness.take() == [
                "sub-1 CACHE_LOAD contentCards [] sync=0",
                "sub-1 DATA_UPDATED contentCards AUTO_SERVER_REFRESH \(allCards) sync=+0",
            ])
    }

    @Test func expiredCardsAreDroppedWhenRead() throws {
        let harness = EngineHarness(testDocument)
        try harness.engine.refresh(.contentCards, placementIds: nil)
        harness.settle()
        #expect(EngineHarness.items(harness.engine.snapshot(.contentCards).json["contentCards"]!) == allCards)
        harness.advance(60)
        #expect(
            EngineHarness.items(harness.engine.snapshot(.contentCards).json["contentCards"]!) == "[c2,c1,ctl,fixed]")
    }

    @Test func unviewedCountLeavesControlCardsOut() throws {
        let harness = EngineHarness(testDocument)
        try harness.engine.refresh(.contentCards, placementIds: nil)
        harness.settle()
        #expect(harness.engine.snapshot(.contentCards).json["contentCards"]?["unviewedCount"] == 4)
        try harness.engine.logImpression(.contentCards, ids: ["c1", "ctl"])
        #expect(harness.engine.snapshot(.contentCards).json["contentCards"]?["unviewedCount"] == 3)
    }
}

@Suite struct RefreshTests {
    @Test func aManualRefreshEndsInDataUpdatedEvenWithoutChange() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        _ = harness.take()
        try harness.engine.refresh(.featureFlags, placementIds: nil)
        harness.advance(5)
        try harness.engine.refresh(.featureFlags, placementIds: nil)
        #expect(
            harness.take() == [
                "sub-1 DATA_UPDATED featureFlags MANUAL_SERVER_REFRESH [checkout,tracked,tracked-too] sync=+0",
                "sub-1 DATA_UPDATED featureFlags MANUAL_SERVER_REFRESH [checkout,tracked,tracked-too] sync=+5",
            ])
    }

    @Test func manualRefreshesPassATokenBucket() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.contentCards, kind: .events)
        _ = harness.take()
        for _ in 0..<5 { try harness.engine.refresh(.contentCards, placementIds: nil) }
        #expect(harness.take().count == 5)
        harness.advance(100)
        try harness.engine.refresh(.contentCards, placementIds: nil)
        #expect(harness.take() == ["sub-1 ERROR contentCards RATE_LIMITED INTEGRATOR_MAY_RETRY until=+180"])
        harness.advance(80)
        try harness.engine.refresh(.contentCards, placementIds: nil)
        #expect(harness.take() == ["sub-1 DATA_UPDATED contentCards MANUAL_SERVER_REFRESH [c2,c1,ctl,fixed] sync=+180"])
    }

    @Test func theBannerBucketRefillsEverySessionAndAutomaticRefreshesAreFree() throws {
        let harness = EngineHarness(testDocument) {
            $0.refreshRules[.banners] = TokenBucket.Rule(capacity: 2, refillInterval: 180, refillsPerSession: true)
        }
        _ = try harness.engine.subscribe(.banners, kind: .events)
        for _ in 0..<3 { try harness.engine.refresh(.banners, placementIds: nil) }
        #expect(harness.take().contains("sub-1 ERROR banners RATE_LIMITED INTEGRATOR_MAY_RETRY until=+180"))
        try harness.engine.openSession()
        try harness.engine.refresh(.banners, placementIds: nil)
        #expect(
            harness.take() == [
                "sub-1 DATA_UPDATED banners AUTO_SERVER_REFRESH [home:spring] sync=+0",
                "sub-1 DATA_UPDATED banners MANUAL_SERVER_REFRESH [home:spring] sync=+0",
            ])
    }

    @Test func aBannerRefreshMergesTheNamedPlacements() throws {
        let harness = EngineHarness(testDocument)
        try harness.engine.changeUser("alice", attributes: nil)
        try harness.engine.refresh(.banners, placementIds: nil)
        harness.settle()
        #expect(EngineHarness.items(harness.engine.snapshotData(.banners)) == "[home:spring,side:side-a]")
        harness.source.setDocument(
            document { $0["banners"] = [["id": "summer", "placementId": "home", "html": "<p>Summer</p>"]] })
        try harness.engine.refresh(.banners, placementIds: ["home"])
        harness.settle()
        #expect(EngineHarness.items(harness.engine.snapshotData(.banners)) == "[home:summer,side:side-a]")
        try harness.engine.refresh(.banners, placementIds: ["side"])
        harness.settle()
        #expect(EngineHarness.items(harness.engine.snapshotData(.banners)) == "[home:summer]")
    }

    @Test func aBannerRefreshNamesAtMostTenPlacements() {
        let harness = EngineHarness(testDocument)
        #expect(throws: EngineError.self) {
            try harness.engine.refresh(.banners, placementIds: (0..<11).map { "p\($0)" })
        }
        #expect(throws: EngineError.self) { try harness.engine.refresh(.contentCards, placementIds: ["home"]) }
        #expect(harness.source.fetchCount == 1)
    }

    @Test func aChangedDocumentAlsoRefreshesTheOtherSubscribedChannels() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        _ = try harness.engine.subscribe(.contentCards, kind: .events)
        _ = harness.take()
        harness.source.setDocument(document { $0["cards"] = [["id": "new", "created": 1]] })
        try harness.engine.refresh(.contentCards, placementIds: nil)
        #expect(
            harness.take() == [
                "sub-2 DATA_UPDATED contentCards MANUAL_SERVER_REFRESH [new] sync=+0",
                "sub-1 DATA_UPDATED featureFlags AUTO_SERVER_REFRESH [checkout,tracked,tracked-too] sync=+0",
            ])
    }

    @Test func serverErrorsAreRetriedWithBackoffThenLeftToTheIntegrator() throws {
        let harness = EngineHarness(testDocument)
        try harness.engine.refresh(.featureFlags, placementIds: nil)
        harness.settle()
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        _ = harness.take()
        harness.source.fail(
            .serverError("HTTP 503"), .serverError("HTTP 503"), .serverError("timeout"), .serverError("HTTP 500"))
        try harness.engine.refresh(.featureFlags, placementIds: nil)
        #expect(harness.take() == ["sub-1 ERROR featureFlags SERVER_ERROR SDK_WILL_RETRY"])
        harness.advance(0.999)
        #expect(harness.take().isEmpty)
        harness.advance(0.001) // the first retry comes after exactly the initial delay
        #expect(harness.take() == ["sub-1 ERROR featureFlags SERVER_ERROR SDK_WILL_RETRY"])
        harness.advance(2) // then doubled (1 s) with jitter: 1–2 s
        #expect(harness.take() == ["sub-1 ERROR featureFlags SERVER_ERROR SDK_WILL_RETRY"])
        harness.advance(4)
        #expect(harness.take() == ["sub-1 ERROR featureFlags SERVER_ERROR INTEGRATOR_MAY_RETRY"])
        harness.advance(1000)
        #expect(harness.take().isEmpty)
        #expect(harness.source.fetchCount == 6)
        #expect(harness.engine.snapshot(.featureFlags).json["lastSyncAt"]?.doubleValue == EngineHarness.startTime)
    }

    @Test func aRetryThatSucceedsFinishesTheRefresh() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        _ = harness.take()
        harness.source.fail(.serverError("HTTP 502"))
        try harness.engine.refresh(.featureFlags, placementIds: nil)
        harness.advance(1)
        #expect(
            harness.take() == [
                "sub-1 ERROR featureFlags SERVER_ERROR SDK_WILL_RETRY",
                "sub-1 DATA_UPDATED featureFlags MANUAL_SERVER_REFRESH [checkout,tracked,tracked-too] sync=+1",
            ])
    }

    @Test func rateLimitedWithRetryAfterWaitsForIt() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.contentCards, kind: .events)
        _ = harness.take()
        harness.source.fail(.rateLimited(until: EngineHarness.startTime + 30, "HTTP 429"))
        try harness.engine.refresh(.contentCards, placementIds: nil)
        #expect(harness.take() == ["sub-1 ERROR contentCards RATE_LIMITED SDK_WILL_RETRY until=+30"])
        harness.advance(29.9)
        #expect(harness.take().isEmpty)
        harness.advance(0.1)
        #expect(harness.take() == ["sub-1 DATA_UPDATED contentCards MANUAL_SERVER_REFRESH \(allCards) sync=+30"])
    }

    @Test func clientErrorsAreNotRetried() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.contentCards, kind: .events)
        _ = harness.take()
        harness.source.fail(.clientError("HTTP 404"))
        try harness.engine.refresh(.contentCards, placementIds: nil)
        harness.advance(1000)
        #expect(harness.take() == ["sub-1 ERROR contentCards CLIENT_ERROR DO_NOT_RETRY"])
        #expect(harness.source.fetchCount == 2)
    }

    @Test func authenticationFailuresAreRetriedThenGivenUp() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.contentCards, kind: .events)
        _ = harness.take()
        harness.source.fail(
            .authentication("HTTP 401"), .authentication("HTTP 401"), .authentication("HTTP 401"),
            .authentication("HTTP 403"))
        try harness.engine.refresh(.contentCards, placementIds: nil)
        for _ in 0..<100 { harness.advance(1) }
        #expect(
            harness.take() == [
                "sub-1 ERROR contentCards CLIENT_ERROR SDK_WILL_RETRY",
                "sub-1 ERROR contentCards CLIENT_ERROR SDK_WILL_RETRY",
                "sub-1 ERROR contentCards CLIENT_ERROR SDK_WILL_RETRY",
                "sub-1 ERROR contentCards CLIENT_ERROR DO_NOT_RETRY",
            ])
    }

    @Test func invalidDataIsNotRetriedAndTheCacheIsKept() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.contentCards, kind: .events)
        try harness.engine.refresh(.contentCards, placementIds: nil)
        _ = harness.take()
        harness.source.setDocument(["invalid": true])
        try harness.engine.refresh(.contentCards, placementIds: nil)
        harness.advance(1000)
        #expect(harness.take() == ["sub-1 ERROR contentCards INVALID_SERVER_DATA DO_NOT_RETRY"])
        #expect(EngineHarness.items(harness.engine.snapshotData(.contentCards)) == "[c2,c1,ctl,fixed]")
    }

    @Test func aDisabledChannelSaysSoAndComesBackWithDataUpdated() throws {
        let harness = EngineHarness(document { $0["channels"] = ["banners": false] })
        _ = try harness.engine.subscribe(.banners, kind: .events)
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        #expect(
            harness.take() == [
                "sub-1 ERROR banners FEATURE_DISABLED DO_NOT_RETRY",
                "sub-2 CACHE_REPLAY featureFlags [] sync=0",
            ])
        #expect(harness.engine.snapshot(.banners).json["lastSyncAt"] == .null)
        try harness.engine.refresh(.banners, placementIds: nil)
        #expect(harness.take() == ["sub-1 ERROR banners FEATURE_DISABLED DO_NOT_RETRY"])
        harness.source.setDocument(testDocument)
        try harness.engine.refresh(.featureFlags, placementIds: nil)
        #expect(
            harness.take() == [
                "sub-2 DATA_UPDATED featureFlags MANUAL_SERVER_REFRESH [checkout,tracked,tracked-too] sync=+0",
                "sub-1 DATA_UPDATED banners AUTO_SERVER_REFRESH [home:spring] sync=+0",
            ])
    }

    @Test func aChannelTurnedOffLosesItsCache() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.banners, kind: .events)
        try harness.engine.refresh(.banners, placementIds: nil)
        _ = harness.take()
        harness.source.setDocument(document { $0["channels"] = ["banners": false] })
        try harness.engine.refresh(.banners, placementIds: nil)
        #expect(
            harness.take() == [
                "sub-1 CACHE_LOAD banners [] sync=null",
                "sub-1 ERROR banners FEATURE_DISABLED DO_NOT_RETRY",
            ])
        #expect(harness.engine.banner(placementId: "home") == nil)
    }

    @Test func pollingFindsAChangedDocumentAndReportsABrokenOneOnce() throws {
        let harness = EngineHarness(testDocument) { $0.pollInterval = 5 }
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        _ = harness.take()
        harness.advance(5)
        #expect(harness.take().isEmpty)
        harness.source.setDocument(document { $0["flags"] = [["id": "fresh", "enabled": true]] })
        harness.advance(5)
        #expect(harness.take() == ["sub-1 DATA_UPDATED featureFlags AUTO_SERVER_REFRESH [fresh] sync=+10"])
        harness.source.setDocument(["invalid": true])
        harness.advance(5)
        harness.source.setDocument(["invalid": true, "still": true])
        harness.advance(5)
        #expect(harness.take() == ["sub-1 ERROR featureFlags INVALID_SERVER_DATA DO_NOT_RETRY"])
        #expect(EngineHarness.items(harness.engine.snapshotData(.featureFlags)) == "[fresh]")
    }

    @Test func aPollThatCannotReadTheSourceStartsOneRetryCycle() throws {
        let harness = EngineHarness(testDocument) { $0.pollInterval = 100 }
        _ = try harness.engine.subscribe(.contentCards, kind: .events)
        _ = harness.take()
        harness.source.fail(.serverError("missing"))
        harness.advance(100)
        #expect(harness.take() == ["sub-1 ERROR contentCards SERVER_ERROR SDK_WILL_RETRY"])
        harness.advance(1)
        #expect(harness.take() == ["sub-1 DATA_UPDATED contentCards AUTO_SERVER_REFRESH [c2,c1,ctl,fixed] sync=+101"])
    }

    @Test func aRemoteSourceIsDisabledUntilItsFirstFetch() throws {
        // The first fetch starts with the engine; its outcome waits on the loop.
        let harness = EngineHarness(testDocument, localSource: false, settleAtStart: false)
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        // The document is on its way: the SDK will have it (SDK_WILL_RETRY, not DO_NOT_RETRY).
        #expect(
            harness.take() == [
                "sub-1 ERROR featureFlags FEATURE_DISABLED SDK_WILL_RETRY",
                "sub-1 DATA_UPDATED featureFlags AUTO_SERVER_REFRESH [checkout,tracked,tracked-too] sync=+0",
            ])
    }
    @Test func aRemoteSourceRetriesItsFirstFetchWithBackoffEvenWithoutSubscribers() throws {
        // Every channel is off until the first document arrives: waiting for
        // the next poll (nil here: never) would leave them off.
        let harness = EngineHarness(
            testDocument, localSource: false, sourceFailures: [.serverError("HTTP 503"), .serverError("HTTP 503")])
        #expect(harness.source.fetchCount == 1)
        harness.advance(1)
        #expect(harness.source.fetchCount == 2)
        harness.advance(2)
        #expect(harness.source.fetchCount == 3)
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        #expect(harness.take() == ["sub-1 CACHE_REPLAY featureFlags [] sync=0"])
        harness.advance(1000)
        #expect(harness.source.fetchCount == 3)
    }

    @Test func anAnswerThatCannotBeADocumentIsInvalidDataAndNotRetried() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.contentCards, kind: .events)
        try harness.engine.refresh(.contentCards, placementIds: nil)
        _ = harness.take()
        harness.source.fail(.invalidData("the server sent an HTML page"))
        try harness.engine.refresh(.contentCards, placementIds: nil)
        harness.advance(1000)
        #expect(harness.take() == ["sub-1 ERROR contentCards INVALID_SERVER_DATA DO_NOT_RETRY"])
        #expect(harness.source.fetchCount == 3)
        #expect(EngineHarness.items(harness.engine.snapshotData(.contentCards)) == "[c2,c1,ctl,fixed]")
    }
}

@Suite struct SDKStateTests {
    @Test func whileDisabledSubscribeIsNullRefreshesFailAndNothingIsFetched() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        _ = harness.take()
        harness.engine.disableSDK()
        #expect(try harness.engine.subscribe(.featureFlags, kind: .events) == nil)
        try harness.engine.refresh(.featureFlags, placementIds: nil)
        #expect(harness.take() == ["sub-1 ERROR featureFlags SDK_DISABLED DO_NOT_RETRY"])
        #expect(throws: EngineError.sdkDisabled) { try harness.engine.logImpression(.featureFlags, ids: ["checkout"]) }
        #expect(throws: EngineError.sdkDisabled) { try harness.engine.changeUser("x", attributes: nil) }
        #expect(harness.source.fetchCount == 1)
        harness.engine.enableSDK()
        #expect(
            harness.take() == [
                "sub-1 DATA_UPDATED featureFlags AUTO_SERVER_REFRESH [checkout,tracked,tracked-too] sync=+0"
            ])
    }

    @Test func wipeDataEmptiesEveryCacheAndDropsQueuedEvents() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.contentCards, kind: .events)
        try harness.engine.changeUser("alice", attributes: ["tier": "gold"])
        harness.settle()
        try harness.engine.logImpression(.contentCards, ids: ["c1"])
        _ = harness.take()
        try harness.engine.wipeData()
        #expect(harness.take() == ["sub-1 CACHE_LOAD contentCards [] sync=0"])
        #expect(harness.store.queuedEventCount == 0)
        #expect(harness.engine.status()["userId"] == "alice")
    }
}
