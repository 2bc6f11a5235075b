import BuntingCore
import BuntingJSON
import BuntingRules
import Synchronization

/// The text of flag results already written, for `evaluateFlag` to answer
/// with: a flag resolved without error to the same variant, for the same
/// reason and asked for as the same type, always gives the same result (the
/// variant's value and the flag's metadata are fixed by the document), so it
/// is encoded once per document instead of once per request.
///
/// Results in error are not kept (their messages name the context). The
/// table is bounded: past `capacity` entries results are encoded as before,
/// so a document of many flags cannot make it grow without end.
final class EncodedFlagResults: Sendable {
    private struct Key: Hashable {
        let flagKey: String
        let variant: String
        let reason: FlagReason
        let type: FlagType?
    }

    static let capacity = 4096

    private let table = Mutex<[Key: EncodedJSON]>([:])

    /// The resolution's result as text: from the table, or encoded by `encode` (and kept, if it may be).
    func result(for resolution: FlagResolution, type: FlagType?, encode: (FlagResolution) -> EncodedJSON) -> EncodedJSON
    {
        guard resolution.errorCode == nil, let variant = resolution.variant else { return encode(resolution) }
        let key = Key(flagKey: resolution.flagKey, variant: variant, reason: resolution.reason, type: type)
        if let known = table.withLock({ $0[key] }) { return known }
        let encoded = encode(resolution)
        table.withLock { table in
            if table.count < Self.capacity { table[key] = encoded }
        }
        return encoded
    }
}
