import BuntingJSON

/// The top-level attributes a group of rules reads, each given a slot.
///
/// An evaluation looks each one up in the context once and then reads slots
/// instead of hashing keys: a flag set's rules share one table, so resolving
/// a thousand flags reads each attribute of the context once.
///
/// Unchecked Sendable: the table only grows while its rules are compiled, on
/// the compiling thread, before any of them can be shared; afterwards it is
/// only read.
final class AttributeTable: @unchecked Sendable {
    private(set) var keys: [String] = []
    private var slots: [String: Int] = [:]

    init() {}

    /// The slot of `key`, added if new.
    func slot(for key: String) -> Int {
        if let slot = slots[key] { return slot }
        keys.append(key)
        slots[key] = keys.count - 1
        return keys.count - 1
    }

    /// The value of each key in `object`, by slot.
    func values(in object: JSONObject) -> [JSON?] {
        keys.map { object[$0] }
    }
}
