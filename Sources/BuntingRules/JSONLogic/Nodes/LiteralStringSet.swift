#if canImport(Glibc)
import Glibc
#endif

/// The literal strings of an `in` list, looked up by their UTF-8 bytes: the
/// answer of a scan with JavaScript's `===` (same code units), for the cost
/// of one cheap hash of the needle. `Set<String>` hashed with SipHash and
/// compared by Unicode equivalence, which cost several times more and had
/// to be checked byte by byte after.
struct LiteralStringSet: Sendable {
    /// Every string's bytes, one after another, and where each ends.
    private let bytes: [UInt8]
    private let ends: [Int]
    /// Open addressing: a string's position + 1 in the slot its hash
    /// chooses (or the next free one); 0 for an empty slot. At least twice
    /// as many slots as strings, a power of two.
    private let slots: [Int32]

    init(_ strings: [String]) {
        // Duplicates are kept: they cost a slot, not a wrong answer.
        var bytes: [UInt8] = []
        var ends: [Int] = []
        for string in strings {
            bytes.append(contentsOf: string.utf8)
            ends.append(bytes.count)
        }
        var size = 8
        while size < 2 * strings.count { size *= 2 }
        var slots = [Int32](repeating: 0, count: size)
        for (position, string) in strings.enumerated() {
            var slot = JavaScript.withBytes(of: string) { Self.hash($0) } & (size - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = Int32(position + 1)
        }
        self.bytes = bytes
        self.ends = ends
        self.slots = slots
    }

    func contains(_ text: String) -> Bool {
        JavaScript.withBytes(of: text) { wanted in
            let mask = slots.count - 1
            var slot = Self.hash(wanted) & mask
            while slots[slot] != 0 {
                let position = Int(slots[slot]) - 1
                let start = position == 0 ? 0 : ends[position - 1]
                if ends[position] - start == wanted.count, matches(wanted, at: start) { return true }
                slot = (slot + 1) & mask
            }
            return false
        }
    }

    private func matches(_ wanted: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        guard !wanted.isEmpty else { return true }
        return bytes.withUnsafeBufferPointer { all in
            memcmp(all.baseAddress! + start, wanted.baseAddress!, wanted.count) == 0
        }
    }

    /// FNV-1a over the bytes: strings in rules are short and few, and the
    /// table is built from them alone, so a fast hash is enough.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 32))
    }
}
