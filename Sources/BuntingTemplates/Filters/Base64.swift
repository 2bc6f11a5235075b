/// Base64 (RFC 4648) as Ruby's `strict_encode64`/`strict_decode64` and the
/// URL-safe pair (`-` and `_`, padding optional when decoding) do it.
enum Base64 {
    private static let standard = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlSafe = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ text: String, urlSafe: Bool) -> String {
        let alphabet = urlSafe ? Self.urlSafe : standard
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let b0 = UInt32(bytes[index])
            let b1 = index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0
            let b2 = index + 2 < bytes.count ? UInt32(bytes[index + 2]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            output.append(alphabet[Int(group >> 18 & 63)])
            output.append(alphabet[Int(group >> 12 & 63)])
            output.append(index + 1 < bytes.count ? alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "="))
            output.append(index + 2 < bytes.count ? alphabet[Int(group & 63)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The decoded bytes, or nil when the text is not base64 of this kind.
    static func decode(_ text: String, urlSafe: Bool) -> [UInt8]? {
        var input = Array(text.utf8)
        if urlSafe, input.count % 4 != 0, !input.contains(UInt8(ascii: "=")) {
            input.append(contentsOf: repeatElement(UInt8(ascii: "="), count: 4 - input.count % 4))
        }
        guard input.count % 4 == 0 else { return nil }
        var table = [Int8](repeating: -1, count: 256)
        for (index, byte) in (urlSafe ? Self.urlSafe : standard).enumerated() { table[Int(byte)] = Int8(index) }
        var output: [UInt8] = []
        output.reserveCapacity(input.count / 4 * 3)
        var index = 0
        while index < input.count {
            let quad = input[index..<(index + 4)]
            let padding = quad.reversed().prefix { $0 == UInt8(ascii: "=") }.count
            guard padding <= 2, index + 4 == input.count || padding == 0 else { return nil }
            var group: UInt32 = 0
            for (position, byte) in quad.enumerated() {
                if position >= 4 - padding {
                    group <<= 6
                    continue
                }
                let value = table[Int(byte)]
                guard value >= 0 else { return nil }
                group = group << 6 | UInt32(value)
            }
            output.append(UInt8(group >> 16 & 255))
            if padding < 2 { output.append(UInt8(group >> 8 & 255)) }
            if padding < 1 { output.append(UInt8(group & 255)) }
            // Strict: bits below the padding must be zero.
            if padding == 2, group >> 8 & 255 != 0 { return nil }
            if padding == 1, group & 255 != 0 { return nil }
            index += 4
        }
        return output
    }
}
