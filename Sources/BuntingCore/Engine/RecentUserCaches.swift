import BuntingJSON

/// The channel caches of the last few users switched away from, as they were
/// when the switch came, so that switching back does not read them from the
/// store again. Reading a stored cache back parses every item (a user with
/// 10,000 flags and 10,000 cards costs about ten times a new user's
/// changeUser), while these are the same caches, already made, whose items
/// are shared with the definitions. Only the current user's caches are
/// written, so a kept cache is what the store holds for that user until the
/// store is wiped or replaced; the engine forgets them all then.
///
/// The texts their last refresh wrote (the flags' array, the listed cards)
/// are kept with them until memory is given back, so that switching back
/// soon sends them as written: they cost as much memory as the items, for
/// a few users, while changes come one after another.
struct RecentUserCaches {
    /// How many users are kept; each costs little once their texts are
    /// dropped (their items are shared).
    static let capacity = 4

    private struct Kept {
        let user: String
        var caches: [Channel: ChannelCache]
        /// The card states the listed cards' text was written with.
        let cardStates: [ExactString: ItemState]
    }

    /// Least recently left first.
    private var users: [Kept] = []

    /// Keeps `user`'s caches and the card states they were listed with,
    /// forgetting the least recently left past `capacity`.
    mutating func keep(_ caches: [Channel: ChannelCache], cardStates: [ExactString: ItemState], of user: String) {
        users.removeAll { $0.user.sameBytes(as: user) }
        users.append(Kept(user: user, caches: caches, cardStates: cardStates))
        if users.count > Self.capacity { users.removeFirst(users.count - Self.capacity) }
    }

    func contains(_ user: String) -> Bool { users.contains { $0.user.sameBytes(as: user) } }

    /// `user`'s kept caches, no longer kept (they become the current ones).
    /// The listed cards' text goes unless the card states read back from the
    /// store are those it was written with (a state whose save failed is not).
    mutating func take(_ user: String, cardStates: [ExactString: ItemState]) -> [Channel: ChannelCache]? {
        guard let index = users.firstIndex(where: { $0.user.sameBytes(as: user) }) else { return nil }
        let kept = users.remove(at: index)
        var caches = kept.caches
        if kept.cardStates != cardStates { caches[.contentCards]?.listedCards = nil }
        return caches
    }

    mutating func dropKeptText() {
        for index in users.indices { users[index].caches = users[index].caches.mapValues(\.withoutText) }
    }

    mutating func forgetAll() { users.removeAll() }
}
