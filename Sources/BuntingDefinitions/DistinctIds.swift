import BuntingJSON

/// The ids met so far in a section whose entries keep their ids elsewhere
/// (the content cards' table), to find one used twice: each id is held as
/// the number it is found by (`idOf`), in an open-addressing table of
/// 32-bit numbers, compared by its exact bytes there (as `ExactString`).
/// A set of the ids took 16 bytes a bucket and twice the buckets (0.5 MB at
/// the peak of loading 18,000 cards, massif); this takes 4 a slot, 128 KB.
/// Hashed with `Hasher`, seeded per process as `Set` is: a document cannot
/// choose ids that all land in one run of slots.
struct DistinctIds {
    private var slots: [Int32]
    private var count = 0

    init(expecting expected: Int) {
        slots = Array(repeating: -1, count: Self.slotCount(for: max(expected, 1)))
    }

    /// Slots for `count` ids at most three quarters full.
    private static func slotCount(for count: Int) -> Int {
        var slots = 8
        while slots * 3 < count * 4 { slots *= 2 }
        return slots
    }

    /// Adds `id`, the id of entry `number`; false when an earlier entry has
    /// the same id (this one is then not added).
    mutating func insert(_ id: String, number: Int, idOf: (Int) -> String) -> Bool {
        let wanted = ExactString(id)
        var slot = Self.hash(id) & (slots.count - 1)
        while slots[slot] >= 0 {
            if ExactString(idOf(Int(slots[slot]))) == wanted { return false }
            slot = (slot + 1) & (slots.count - 1)
        }
        slots[slot] = Int32(number)
        count += 1
        if count * 4 > slots.count * 3 { grow(idOf) }
        return true
    }

    private static func hash(_ id: String) -> Int {
        var hasher = Hasher()
        ExactString(id).hash(into: &hasher)
        return hasher.finalize()
    }

    private mutating func grow(_ idOf: (Int) -> String) {
        let old = slots
        slots = Array(repeating: -1, count: old.count * 2)
        for number in old where number >= 0 {
            var slot = Self.hash(idOf(Int(number))) & (slots.count - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = number
        }
    }
}
