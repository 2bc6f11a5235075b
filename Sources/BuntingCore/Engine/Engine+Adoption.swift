import BuntingJSON
import BuntingRuntime

/// Making a compiled document the definitions in use.
extension Engine {
    /// Makes `compiled` the definitions in use. Channels it turns off lose
    /// their cache (CACHE_LOAD); returns whether the document differs from
    /// the one before.
    @discardableResult
    func adopt(_ compiled: any CompiledDefinitions, version: SourceVersion, digest: UInt64) -> Bool {
        defer { releaseFreedMemory() }
        let changed = digest != definitionsDigest
        let previous = definitions
        definitions = compiled
        definitionsProblem = nil
        definitionsLoadedAt = now
        if changed, !compiled.problems.isEmpty {
            let count = compiled.problems.count
            log.warning("definitions at \(source.location) loaded with \(count) problem\(count == 1 ? "" : "s") "
                + "(the rest serves): " + compiled.problems.prefix(20).map(\.description).joined(separator: "; "))
        }
        if !definitionsSubscriptions.isEmpty, let loadedAt = definitionsLoadedAt {
            if let previous, changed {
                // Even when no flag changed (a banner did): a new document is in use.
                sendDefinitionsNotice(.changed(loadedAt: loadedAt, flagsChanged: compiled.flagsChanged(since: previous)))
            } else if previous == nil || definitionsErrorTold {
                // A first document, or the same flags again after an error.
                sendDefinitionsNotice(.ready(loadedAt: loadedAt))
            }
        }
        definitionsErrorTold = false
        definitionsVersion = version
        definitionsDigest = digest
        let before = profile.channelsEnabled
        for channel in Channel.allCases {
            profile.channelsEnabled[channel] = compiled.isEnabled(channel)
        }
        for channel in Channel.allCases where before[channel] == true && !compiled.isEnabled(channel) {
            caches[channel] = nil
            saveCache(channel)
            sendCacheChange(channel, reason: nil)
        }
        saveProfile()
        return changed
    }
}
