import BuntingJSON

/// flagd's `$flagd` properties as an evaluation holds them: the flag key is
/// one of keys lent for the evaluation (one, or a whole flag set's), chosen
/// by position, so that moving to the next flag copies no string.
struct FlagdValues {
    let timestamp: Int64
    private let keys: UnsafeBufferPointer<String>
    var position = 0

    init(keys: UnsafeBufferPointer<String>, timestamp: Int64) {
        self.keys = keys
        self.timestamp = timestamp
    }

    var flagKey: String { keys[position] }

    /// Feeds the flag key to `hasher`, without binding a copy of it.
    func hashFlagKey(into hasher: inout MurmurHash3) {
        hasher.combine(keys[position])
    }

    var json: JSON {
        ["flagKey": .string(flagKey), "timestamp": .integer(timestamp)]
    }
}
