import BuntingJSON

/// What decides each flag's resolution besides the context, kept as hashes:
/// enough to tell which flags a new document changes (for the definitions
/// subscriptions' CHANGED) without keeping the documents.
struct FlagFingerprints: Sendable {
    /// Flag key → the hash of its definition, in document order.
    var flags: [(key: String, hash: Int)] = []
    /// What every flag shares: the evaluators, the flag-set metadata and the
    /// fractional generation.
    var shared = 0

    init() {}

    init(document: JSON, hashing: String) {
        var hasher = Hasher()
        hasher.combine(document["$evaluators"])
        hasher.combine(document["metadata"])
        hasher.combine(hashing)
        shared = hasher.finalize()
        switch document["flags"] {
        case .object(let object)?:
            flags = object.map { ($0.key, $0.value.hashValue) }
        case .array(let list)?:
            flags = list.compactMap { flag in flag["key"]?.stringValue.map { ($0, flag.hashValue) } }
        default:
            flags = []
        }
    }

    /// Room for `count` flags added one by one (`add`).
    mutating func reserveCapacity(_ count: Int) {
        flags.reserveCapacity(flags.count + count)
    }

    /// One more member of the document's object `flags` (see `FlagSet.Builder`).
    mutating func add(key: String, definition: JSON) {
        flags.append((key, definition.hashValue))
    }

    /// Added, removed and changed flags (all of them when what they share
    /// changed): this document's in its order, then the removed ones.
    func changedFlags(since previous: FlagFingerprints?) -> [String] {
        guard let previous else { return flags.map(\.key) }
        var before: [String: Int] = [:]
        for flag in previous.flags { before[flag.key] = flag.hash }
        let everything = previous.shared != shared
        var changed = flags.filter { everything || before[$0.key] != $0.hash }.map(\.key)
        let now = Set(flags.map(\.key))
        changed += previous.flags.map(\.key).filter { !now.contains($0) }
        return changed
    }
}
