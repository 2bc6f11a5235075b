/// Base64 decoding as the web platform's `atob` does it, which is what
/// GrowthBook's SDKs use on keys and encrypted payloads: ASCII white space is
/// skipped, one or two `=` may end a text whose length is a multiple of four,
/// padding may also be left out, and the bits left over after the last whole
/// byte are dropped whatever they are.
public enum Base64 {
    public static func decode(_ text: String) throws(CryptoError) -> [UInt8] {
        var sextets: [UInt8] = []
        sextets.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case 0x09, 0x0A, 0x0C, 0x0D, 0x20: continue
            default: sextets.append(byte)
            }
        }
        if sextets.count % 4 == 0 {
            if sextets.last == UInt8(ascii: "=") { sextets.removeLast() }
            if sextets.last == UInt8(ascii: "=") { sextets.removeLast() }
        }
        guard sextets.count % 4 != 1 else {
            throw .invalidBase64("\(sextets.count) characters leave one over")
        }
        for index in sextets.indices {
            guard let value = sextetValue(sextets[index]) else {
                throw .invalidBase64("a character outside the alphabet at position \(index)")
            }
            sextets[index] = value
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(sextets.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for value in sextets {
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        return bytes
    }

    private static func sextetValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }

    /// The base64 text of `bytes`, padded (for tests and for writing payloads).
    public static func encode(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var chunk: UInt32 = 0
            for offset in 0..<3 {
                chunk = chunk << 8 | (offset < count ? UInt32(bytes[index + offset]) : 0)
            }
            for position in 0..<4 {
                if position <= count {
                    output.append(alphabet[Int((chunk >> UInt32(18 - 6 * position)) & 0x3F)])
                } else {
                    output.append(UInt8(ascii: "="))
                }
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
