import BuntingJSON
import BuntingRuntime

/// GrowthBook's sticky bucket documents the current user's evaluations
/// read: loaded from the store when first needed after a user or attribute
/// change, saved when an evaluation changes one, so that a user keeps the
/// arm they had across weight changes and restarts. Owned by the engine's loop.
final class StickyAssignments {
    private struct Key: Hashable {
        let name: ExactString
        let value: ExactString
    }

    private let store: any Store
    /// Documents read or written since the last `forget()`, and the keys
    /// found to have none (so that the store is asked once).
    private var documents: [Key: StickyDocument] = [:]
    private var absent = Set<Key>()

    init(store: any Store) {
        self.store = store
    }

    /// The stored documents of these keys.
    func documents(for keys: [(name: String, value: String)]) -> [StickyDocument] {
        let wanted = keys.map { Key(name: ExactString($0.name), value: ExactString($0.value)) }
        let missing = wanted.enumerated().filter { documents[$0.element] == nil && !absent.contains($0.element) }
        if !missing.isEmpty {
            let loaded = store.loadStickyDocuments(missing.map { keys[$0.offset] })
            for document in loaded {
                documents[Key(name: ExactString(document.attributeName), value: ExactString(document.attributeValue))] =
                    document
            }
            for key in missing.map(\.element) where documents[key] == nil { absent.insert(key) }
        }
        return wanted.compactMap { documents[$0] }
    }

    /// Keeps and stores the documents an evaluation changed.
    func save(_ changed: [StickyDocument]) {
        for document in changed {
            let key = Key(name: ExactString(document.attributeName), value: ExactString(document.attributeValue))
            documents[key] = document
            absent.remove(key)
            do {
                try store.saveStickyDocument(document)
            } catch {
                log.error("cannot save a sticky bucket document (\(document.attributeName)): \(error.message)")
            }
        }
    }

    /// After a user or attribute change: the next evaluation reads what it needs again.
    func forget() {
        documents.removeAll()
        absent.removeAll()
    }
}
