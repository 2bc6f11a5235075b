/// MurmurHash3, x86 32-bit variant (Austin Appleby's public-domain
/// algorithm), as flagd and the Python `mmh3` package compute it. Bytes may
/// be fed in pieces, so that flagKey + targetingKey is hashed without
/// building the concatenated string.
struct MurmurHash3 {
    private static let c1: UInt32 = 0xcc9e_2d51
    private static let c2: UInt32 = 0x1b87_3593

    private var hash: UInt32
    private var block: UInt32 = 0
    private var filled: UInt32 = 0
    private var length: UInt32 = 0

    init(seed: UInt32 = 0) { hash = seed }

    mutating func combine(_ bytes: UnsafeBufferPointer<UInt8>) {
        var offset = 0
        // Complete a block left partly filled by the previous piece.
        while filled != 0, offset < bytes.count {
            feed(bytes[offset])
            offset += 1
        }
        // Whole blocks, four bytes at a time (little-endian, as the reference reads them).
        while bytes.count - offset >= 4 {
            let word =
                UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8
                | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
            mixIn(word)
            offset += 4
        }
        while offset < bytes.count {
            feed(bytes[offset])
            offset += 1
        }
        length &+= UInt32(truncatingIfNeeded: bytes.count)
    }

    /// Adds one byte to the pending block, mixing it in when full.
    @inline(__always)
    private mutating func feed(_ byte: UInt8) {
        block |= UInt32(byte) << (8 * filled)
        filled += 1
        if filled == 4 {
            mixIn(block)
            block = 0
            filled = 0
        }
    }

    @inline(__always)
    private mutating func mixIn(_ word: UInt32) {
        hash ^= Self.mix(word)
        hash = (hash << 13 | hash >> 19) &* 5 &+ 0xe654_6b64
    }

    mutating func combine(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ combine($0) }) == nil {
            Array(text.utf8).withUnsafeBufferPointer { combine($0) }
        }
    }

    func finalize() -> UInt32 {
        var hash = self.hash
        if filled > 0 { hash ^= Self.mix(block) }
        hash ^= length
        hash ^= hash >> 16
        hash &*= 0x85eb_ca6b
        hash ^= hash >> 13
        hash &*= 0xc2b2_ae35
        hash ^= hash >> 16
        return hash
    }

    private static func mix(_ block: UInt32) -> UInt32 {
        var k = block &* c1
        k = k << 15 | k >> 17
        return k &* c2
    }

    static func x86_32(_ text: String) -> UInt32 {
        var hasher = MurmurHash3()
        hasher.combine(text)
        return hasher.finalize()
    }

    static func x86_32(_ bytes: [UInt8]) -> UInt32 {
        var hasher = MurmurHash3()
        bytes.withUnsafeBufferPointer { hasher.combine($0) }
        return hasher.finalize()
    }
}
