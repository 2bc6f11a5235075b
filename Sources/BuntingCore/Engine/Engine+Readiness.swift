/// Whether a channel's cache can answer reads for the current user, so that
/// a read that finds nothing can say why.
public enum ChannelReadiness: Equatable, Sendable {
    /// Synced for this user: an item that is not there does not exist for them.
    case synced
    /// Never refreshed for this user (or no definitions yet); says what to do.
    case notSynced(String)
    /// The definitions turn the channel off.
    case disabled(String)
}

extension Engine {
    public func readiness(_ channel: Channel) -> ChannelReadiness {
        onLoop { readinessOf(channel) }
    }

    private func readinessOf(_ channel: Channel) -> ChannelReadiness {
        let name = channel.rawValue
        guard isEnabled(channel) else {
            if definitions == nil && caches.cache(channel).lastSyncAt == 0 {
                let cause = fetcher.problem?.message.map { " (\($0))" } ?? ""
                return .notSynced("no definitions have been loaded yet\(cause)")
            }
            return .disabled("the definitions turn the \(name) channel off")
        }
        guard caches.cache(channel).lastSyncAt > 0 else {
            let remedy =
                subscriptions.hasSubscription(channel)
                ? "changeUser or openSession refreshes it, or call refresh"
                : "subscribe to \(name), then changeUser or openSession (or call refresh)"
            return .notSynced("\(name) has not been refreshed for the current user yet: \(remedy)")
        }
        return .synced
    }
}
