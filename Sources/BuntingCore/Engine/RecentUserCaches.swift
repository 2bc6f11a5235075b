import BuntingJSON

/// The channel caches of the last few users switched away from, as they were
/// when the switch came, so that switching back does not read them from the
/// store again. Reading a stored cache back parses every item (a user with
/// 10,000 flags and 10,000 cards costs about ten times a new user's
/// changeUser), while these are the same caches, already made, whose items
/// are shared with the definitions. Only the current user's caches are
/// written, so a kept cache is what the store holds for that user until the
/// store is wiped or replaced; the engine forgets them all then.
struct RecentUserCaches {
    /// How many users are kept; each costs little (their items are shared).
    static let capacity = 4

    /// Least recently left first.
    private var users: [(user: String, caches: [Channel: ChannelCache])] = []

    /// Keeps `user`'s caches (without the text their refresh wrote, which
    /// only a snapshot before the next refresh would use), forgetting the
    /// least recently left past `capacity`.
    mutating func keep(_ caches: [Channel: ChannelCache], of user: String) {
        users.removeAll { $0.user.sameBytes(as: user) }
        users.append((user, caches.mapValues(\.withoutText)))
        if users.count > Self.capacity { users.removeFirst(users.count - Self.capacity) }
    }

    func contains(_ user: String) -> Bool { users.contains { $0.user.sameBytes(as: user) } }

    /// `user`'s kept caches, no longer kept (they become the current ones).
    mutating func take(_ user: String) -> [Channel: ChannelCache]? {
        guard let index = users.firstIndex(where: { $0.user.sameBytes(as: user) }) else { return nil }
        return users.remove(at: index).caches
    }

    mutating func forgetAll() { users.removeAll() }
}
