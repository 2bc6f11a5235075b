/// MurmurHash3, x86 32-bit variant (Austin Appleby's public-domain
/// algorithm), as flagd and the Python `mmh3` package compute it.
enum MurmurHash3 {
    static func x86_32<Bytes: Collection<UInt8>>(_ bytes: Bytes, seed: UInt32 = 0) -> UInt32 {
        let c1: UInt32 = 0xcc9e_2d51
        let c2: UInt32 = 0x1b87_3593
        var hash = seed
        var block: UInt32 = 0
        var filled = 0
        for byte in bytes {
            block |= UInt32(byte) << (8 * UInt32(filled))
            filled += 1
            if filled == 4 {
                hash ^= mix(block, c1, c2)
                hash = (hash << 13 | hash >> 19) &* 5 &+ 0xe654_6b64
                block = 0
                filled = 0
            }
        }
        if filled > 0 { hash ^= mix(block, c1, c2) }
        hash ^= UInt32(truncatingIfNeeded: bytes.count)
        hash ^= hash >> 16
        hash &*= 0x85eb_ca6b
        hash ^= hash >> 13
        hash &*= 0xc2b2_ae35
        hash ^= hash >> 16
        return hash
    }

    private static func mix(_ block: UInt32, _ c1: UInt32, _ c2: UInt32) -> UInt32 {
        var k = block &* c1
        k = k << 15 | k >> 17
        return k &* c2
    }

    static func x86_32(_ text: String, seed: UInt32 = 0) -> UInt32 {
        var text = text
        return text.withUTF8 { x86_32($0, seed: seed) }
    }
}
