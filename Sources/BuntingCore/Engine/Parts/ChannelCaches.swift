import BuntingJSON
import BuntingRuntime

/// The current user's three channel caches and what they did to items
/// (viewed, clicked, dismissed), the caches of the last few users switched
/// away from, and what a client reads of them: items as they stand now and
/// the snapshots events carry. Each change is written to the store under
/// the user's key; owned by the engine's loop.
final class ChannelCaches {
    private let store: any Store
    private var caches: [Channel: ChannelCache] = [:]
    /// By item id's bytes, per channel.
    private var itemStates: [Channel: [ExactString: ItemState]] = [:]
    /// The caches of users switched away from, for switching back.
    private var recent = RecentUserCaches()
    /// The channels whose cache `set` changed and `storePending` has not stored yet, and whose they are.
    private var unstored: (user: String, channels: Set<Channel>)?
    /// How many `storingAfter` bodies are running.
    private var batches = 0

    init(store: any Store, user stored: StoredUser) {
        self.store = store
        caches = stored.caches.mapValues(ChannelCache.init(stored:))
        itemStates = stored.itemStates
    }

    func cache(_ channel: Channel) -> ChannelCache {
        caches[channel] ?? ChannelCache()
    }

    /// Replaces `channel`'s cache of user `userKey` and stores it; within
    /// `storingAfter`, once its body is done.
    func set(_ channel: Channel, _ cache: ChannelCache?, user userKey: String) {
        if let pending = unstored, pending.user != userKey { storePending() }
        caches[channel] = cache
        unstored = (userKey, (unstored?.channels ?? []).union([channel]))
        if batches == 0 { storePending() }
    }

    /// Runs `body` (refreshes and the events they send), storing the caches
    /// it sets once it is done. At 100,000 flags a flags cache is a 25 MB
    /// write, about a tenth of a user change, which the client then no longer
    /// waits for: it reads the events while the loop writes. A cache is what
    /// a later start or a returning user begins with, not an event: one lost
    /// to `kill -9` between the two is written again by the next refresh.
    /// `handOver` runs first, when there is something to store.
    func storingAfter<Result>(handingOver handOver: () -> Void, _ body: () -> Result) -> Result {
        batches += 1
        defer {
            batches -= 1
            if batches == 0, unstored != nil {
                handOver()
                storePending()
            }
        }
        return body()
    }

    /// Stores the caches set since the last call, under their user's key.
    private func storePending() {
        guard let (userKey, channels) = unstored else { return }
        unstored = nil
        for channel in Channel.allCases where channels.contains(channel) {
            do {
                try store.saveChannelCache(user: userKey, channel: channel, encoded: cache(channel).encoded)
            } catch {
                log.error("cannot save the \(channel.rawValue) cache: \(error.message)")
            }
        }
    }

    /// Items in all three caches.
    var itemCount: Int {
        caches.values.reduce(0) { $0 + $1.flags.count + $1.banners.count + $1.cards.count }
    }

    // MARK: - Users

    /// Whether `user`'s caches are kept in memory (they need not be read from the store).
    func keepsCaches(of user: String) -> Bool { recent.contains(user) }

    /// Keeps the current caches as `previousUser`'s and makes `stored` (or
    /// the caches kept of the new user) the current ones.
    func switchUser(from previousUser: String, to newUser: String, stored: StoredUser) {
        storePending()
        // Taken before the old user's are kept, which may push out the oldest.
        let kept = recent.take(newUser, cardStates: stored.itemStates[.contentCards] ?? [:])
        recent.keep(caches, cardStates: itemStates[.contentCards] ?? [:], of: previousUser)
        caches = kept ?? stored.caches.mapValues(ChannelCache.init(stored:))
        itemStates = stored.itemStates
    }

    /// After a wipe, or when the store may hold less than what is kept.
    func forgetAll() {
        unstored = nil
        caches = [:]
        itemStates = [:]
        recent.forgetAll()
    }

    /// The store may hold less than the caches kept of other users.
    func forgetOtherUsers() { recent.forgetAll() }

    /// Drops what is kept only to be quicker (the flags' text of the last
    /// refresh, the listed cards' snapshot), the current user's and the
    /// kept users', before memory is given back.
    func dropKeptText() {
        caches = caches.mapValues(\.withoutText)
        recent.dropKeptText()
    }

    // MARK: - Item states

    /// Changes the state of one item and stores it, unless it did not change.
    func updateState(_ channel: Channel, _ itemId: String, user userKey: String, _ change: (inout ItemState) -> Void) {
        let key = ExactString(itemId)
        let before = itemStates[channel]?[key] ?? ItemState()
        var state = before
        change(&state)
        // A card seen again is already viewed: no write (each is a disk commit).
        guard state != before else { return }
        itemStates[channel, default: [:]][key] = state
        // The listed cards show their viewed, clicked and dismissed state.
        if channel == .contentCards { caches[.contentCards]?.listedCards = nil }
        do {
            try store.saveItemState(user: userKey, channel: channel, itemId: itemId, state: state)
        } catch {
            log.error("cannot save the state of \(itemId): \(error.message)")
        }
    }

    /// The ids of the dismissed banners (a dismissal holds the banner's id,
    /// so that another banner can fill the placement).
    var dismissedBanners: Set<ExactString> { dismissedIds(.banners) }

    /// The ids of the items of `channel` the user dismissed.
    func dismissedIds(_ channel: Channel) -> Set<ExactString> {
        Set((itemStates[channel] ?? [:]).lazy.filter { $0.value.dismissed }.map(\.key))
    }

    // MARK: - What a client reads

    /// The cards as listed: expired and dismissed ones out, viewed and
    /// clicked applied, pinned first, then newest; with `extras`, only the
    /// cards whose extras hold every one of those keys and values.
    func visibleCards(matching extras: JSONObject? = nil, at now: Double) -> [ContentCard] {
        var span = ListedCardsText.Span()
        return visibleCards(matching: extras, at: now, span: &span)
    }

    /// The same, noting in `span` how long the same cards stay unexpired.
    private func visibleCards(
        matching extras: JSONObject?, at now: Double, span: inout ListedCardsText.Span
    ) -> [ContentCard] {
        let states = itemStates[.contentCards] ?? [:]
        return ContentCard.inListedOrder(
            cache(.contentCards).cards.compactMap { card in
                if let extras, !extras.allSatisfy({ card.extras[$0.key] == $0.value }) { return nil }
                span.note(expiresAt: card.expiresAt, at: now)
                return Self.visible(card, at: now, states: states)
            })
    }

    /// One listed card by id, found without listing (and sorting) them all.
    func visibleCard(_ id: String, at now: Double) -> ContentCard? {
        guard let card = cache(.contentCards).cards.first(where: { $0.id.sameBytes(as: id) }) else { return nil }
        return Self.visible(card, at: now, states: itemStates[.contentCards] ?? [:])
    }

    /// Placement id → the banner that fills it now (expired and dismissed banners left out).
    func visibleBanners(at now: Double) -> [ExactString: Banner] {
        let states = itemStates[.banners] ?? [:]
        return cache(.banners).banners.filter { Self.isShown($0.value, at: now, states: states) }
    }

    /// The banner that fills one placement now, if any.
    func visibleBanner(_ placementId: String, at now: Double) -> Banner? {
        guard let banner = cache(.banners).banners[ExactString(placementId)],
            Self.isShown(banner, at: now, states: itemStates[.banners] ?? [:])
        else { return nil }
        return banner
    }

    func flag(_ id: String) -> FeatureFlag? {
        cache(.featureFlags).flags.first { $0.id.sameBytes(as: id) }
    }

    func itemCount(_ channel: Channel, at now: Double) -> Int {
        switch channel {
        case .featureFlags: cache(.featureFlags).flags.count
        case .banners: visibleBanners(at: now).count
        case .contentCards:
            // Counted, not listed: no need to sort.
            cache(.contentCards).cards.lazy.compactMap { [states = itemStates[.contentCards] ?? [:]] in
                Self.visible($0, at: now, states: states)
            }.count
        }
    }

    /// The data of a channel under its key, written from the text each item
    /// holds: a snapshot of thousands of items costs no tree and no encoding
    /// of its own. `extras` chooses content cards (see `visibleCards`).
    func encodedSnapshotData(_ channel: Channel, extras: JSONObject?, at now: Double) -> EncodedJSON {
        switch channel {
        case .featureFlags:
            return cache(.featureFlags).flagsText
        case .banners:
            let banners = visibleBanners(at: now)
            var object = EncodedJSON.ObjectBuilder()
            for placement in banners.keys.sorted(by: { $0.string < $1.string }) {
                object.add(placement.string, banners[placement]!.encoded)
            }
            return object.finish()
        case .contentCards:
            // Written once for each change of the cards, their states or
            // which of them expired: a returning user's CACHE_LOAD, and every
            // getSnapshot, send the text the last refresh wrote.
            if extras == nil, let kept = caches[.contentCards]?.listedCards, kept.holds(at: now) {
                return kept.data
            }
            var span = ListedCardsText.Span()
            let cards = visibleCards(matching: extras, at: now, span: &span)
            let unviewed = cards.count { !$0.viewed && !$0.isControl }
            let listed = EncodedArray(cards)
            var object = EncodedJSON.ObjectBuilder()
            object.reserveCapacity(listed.encodedCount + Self.roomForUnviewedCount)
            object.add(Self.cardsKey, listed)
            object.add(Self.unviewedCountKey, .int(unviewed))
            let data = object.finish()
            if extras == nil { caches[.contentCards]?.listedCards = ListedCardsText(data: data, span: span) }
            return data
        }
    }

    /// A channel's data while it is disabled.
    static let emptyData: [Channel: EncodedJSON] = [
        .featureFlags: EncodedJSON(.array([])), .banners: EncodedJSON(.object([:])),
        .contentCards: EncodedJSON(.object(["cards": .array([]), "unviewedCount": 0])),
    ]

    private static let cardsKey = EncodedJSON.Key("cards")
    private static let unviewedCountKey = EncodedJSON.Key("unviewedCount")
    /// The key, the comma and the count after the cards: a size hint.
    private static let roomForUnviewedCount = 48

    /// The card as listed now: nil when expired or dismissed, else with the
    /// user's viewed and clicked state.
    private static func visible(_ card: ContentCard, at now: Double, states: [ExactString: ItemState]) -> ContentCard? {
        let state = states[ExactString(card.id)] ?? ItemState()
        guard !card.isExpired(at: now), !state.dismissed else { return nil }
        var card = card
        card.viewed = state.viewed
        card.clicked = state.clicked
        return card
    }

    private static func isShown(_ banner: Banner, at now: Double, states: [ExactString: ItemState]) -> Bool {
        !banner.isExpired(at: now) && states[ExactString(banner.id)]?.dismissed != true
    }
}
