/// SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104), for the notes of
/// documents that loaded (`KnownDocuments`): a digest no one can make two
/// documents share, and a code no one without the key can put on a note.
/// Written here rather than taken from a C library: it is needed for a few
/// kilobytes at start-up, and no other part of Bunting needs cryptography.
struct SHA256 {
    static let digestSize = 32
    static let blockSize = 64

    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    /// Bytes of an unfinished block.
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    init() {
        pending.reserveCapacity(Self.blockSize)
    }

    static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finish()
    }

    mutating func update(_ bytes: some Collection<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if done == nil { Array(bytes).withUnsafeBytes { update($0) } }
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var rest = bytes
        if !pending.isEmpty {
            let taken = min(rest.count, Self.blockSize - pending.count)
            pending += rest.prefix(taken)
            rest = UnsafeRawBufferPointer(rebasing: rest.dropFirst(taken))
            guard pending.count == Self.blockSize else { return }
            pending.withUnsafeBytes { compress($0) }
            pending.removeAll(keepingCapacity: true)
        }
        let whole = rest.count / Self.blockSize * Self.blockSize
        if whole > 0 { compress(UnsafeRawBufferPointer(rebasing: rest.prefix(whole))) }
        pending += rest.dropFirst(whole)
    }

    /// The digest; the hasher is spent.
    mutating func finish() -> [UInt8] {
        let bits = length &* 8
        var tail: [UInt8] = [0x80]
        let used = (pending.count + 1) % Self.blockSize
        tail += [UInt8](repeating: 0, count: (Self.blockSize - 8 - used + Self.blockSize) % Self.blockSize)
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
        }
        let counted = length
        update(tail)
        length = counted
        var digest: [UInt8] = []
        digest.reserveCapacity(Self.digestSize)
        for word in [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7] {
            for shift in stride(from: 24, through: 0, by: -8) {
                digest.append(UInt8(truncatingIfNeeded: word >> UInt32(shift)))
            }
        }
        return digest
    }

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// Whole 64-byte blocks into the state, the state kept in locals
    /// throughout (about three times as fast as a block per call).
    private mutating func compress(_ blocks: UnsafeRawBufferPointer) {
        var (h0, h1, h2, h3, h4, h5, h6, h7) = state
        // On the stack: an array per block would cost an allocation per 64 bytes.
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            Self.roundConstants.withUnsafeBufferPointer { k in
                var offset = 0
                while offset < blocks.count {
                    for index in 0..<16 {
                        w[index] = UInt32(
                            bigEndian: blocks.loadUnaligned(fromByteOffset: offset + index * 4, as: UInt32.self))
                    }
                    for index in 16..<64 {
                        let early = w[index - 15]
                        let late = w[index - 2]
                        let sigma0 = early.rotatedRight(7) ^ early.rotatedRight(18) ^ (early &>> 3)
                        let sigma1 = late.rotatedRight(17) ^ late.rotatedRight(19) ^ (late &>> 10)
                        w[index] = w[index - 16] &+ sigma0 &+ w[index - 7] &+ sigma1
                    }
                    var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
                    for index in 0..<64 {
                        let sum1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                        let choice = (e & f) ^ (~e & g)
                        let first = h &+ sum1 &+ choice &+ k[index] &+ w[index]
                        let sum0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                        let majority = (a & b) ^ (a & c) ^ (b & c)
                        h = g
                        g = f
                        f = e
                        e = d &+ first
                        d = c
                        c = b
                        b = a
                        a = first &+ sum0 &+ majority
                    }
                    h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d; h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
                    offset += Self.blockSize
                }
            }
        }
        state = (h0, h1, h2, h3, h4, h5, h6, h7)
    }

    /// HMAC-SHA-256 of `message` under `key`.
    static func authenticationCode(key: [UInt8], message: some Collection<UInt8>) -> [UInt8] {
        var block = key.count > blockSize ? hash(key) : key
        block += [UInt8](repeating: 0, count: blockSize - block.count)
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(inner.finish())
        return outer.finish()
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

extension UInt32 {
    /// Masking shifts: Swift's `>>` would check the count on every use.
    @inline(__always)
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        (self &>> count) | (self &<< (32 &- count))
    }
}
