import BuntingJSON
import BuntingRuntime

/// What the engine does with what the `DefinitionsFetcher` brings.
extension Engine: DefinitionsFetcherDelegate {
    var userGeneration: Int { user.generation }
    var subscribedChannels: [Channel] { subscriptions.subscribedChannels }
    var hasDefinitionsSubscribers: Bool { !subscriptions.definitionsSubscriptionIds.isEmpty }

    /// A new document is in use: channels it turns off lose their cache
    /// (CACHE_LOAD); the memory the old one held is given back.
    func definitionsAdopted(_ compiled: any CompiledDefinitions, previous: (any CompiledDefinitions)?, changed: Bool) {
        defer { releaseFreedMemory() }
        for channel in user.setChannelsEnabled(compiled.isEnabled) {
            caches.set(channel, nil, user: user.userKey)
            sendCacheChange(channel, reason: nil)
        }
    }
}

/// What the `DefinitionsStream` needs of the engine: the same as the fetcher.
extension Engine: DefinitionsStreamDelegate {
    /// The definitions server announced a stream (GrowthBook's `x-sse-support`).
    func streamAnnounced(_ announced: any DefinitionsStreamSource) {
        stream.announced(announced)
    }
}
