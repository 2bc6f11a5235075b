import BuntingJSON

/// `explain: true`: why a flag resolves as it does, and why each item of
/// the definitions is or is not in a channel's snapshot for the current user.
extension Engine {
    /// Why `flagKey` resolves as it does for `context` now; nil when there
    /// are no definitions (the result says FLAG_NOT_FOUND) or they cannot explain.
    public func explainFlag(_ flagKey: String, context: JSON) -> JSONObject? {
        onLoop { (definitions as? any ExplainingDefinitions)?.explainFlag(flagKey, context: context, at: now) }
    }

    /// Each item of the definitions for `channel`, with whether the
    /// snapshot `getSnapshot` answers holds it (`in`) and why, decided for
    /// the current user now. The snapshot is the last refresh's: an item
    /// that time or the document has changed since says so, and that the
    /// next refresh applies it. `extras` as for the snapshot.
    public func explainSnapshot(_ channel: Channel, extras: JSONObject?) -> [JSONObject] {
        onLoop {
            guard let definitions = definitions as? any ExplainingDefinitions else { return [] }
            let decided = definitions.explainChannel(
                channel, for: user.subject, at: now, dismissed: caches.dismissedIds(channel))
            let enabled = isEnabled(channel)
            let held = enabled ? idsInSnapshot(channel, extras: extras) : []
            let cached = caches.cache(.contentCards).cards
            return decided.map { entry in
                guard let id = entry["id"]?.stringValue else { return entry }
                let isIn = held.contains(ExactString(id))
                guard entry["in"]?.boolValue != isIn else { return entry }
                var entry = entry
                var why = entry["why"]?.stringValue ?? ""
                if !enabled {
                    why += "; the definitions turn the channel off"
                } else if let extras, let card = cached.first(where: { $0.id.sameBytes(as: id) }),
                    !extras.allSatisfy({ card.extras[$0.key] == $0.value })
                {
                    why += "; not in this feed: its extras do not hold every pair of `extras`"
                } else if isIn {
                    why += "; still in the snapshot of the last refresh: the next refresh takes it out"
                } else {
                    why += "; not in the snapshot of the last refresh: the next refresh brings it"
                }
                entry["why"] = .string(why)
                entry["in"] = .bool(isIn)
                return entry
            }
        }
    }

    /// The ids of the items the channel's snapshot lists now.
    private func idsInSnapshot(_ channel: Channel, extras: JSONObject?) -> Set<ExactString> {
        switch channel {
        case .featureFlags: Set(caches.cache(.featureFlags).flags.map { ExactString($0.id) })
        case .banners: Set(caches.visibleBanners(at: now).values.map { ExactString($0.id) })
        case .contentCards: Set(caches.visibleCards(matching: extras, at: now).map { ExactString($0.id) })
        }
    }
}
