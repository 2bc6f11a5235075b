import BuntingCrypto
import Testing

/// BuntingCrypto: base64 as `atob` reads it, AES-CBC against a published
/// vector, and each failure a typed error.
@Suite struct CryptoTests {
    static func bytes(_ hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            result.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return result
    }

    /// NIST SP 800-38A, F.2.1 (CBC-AES128.Encrypt), first block: with
    /// PKCS#7 a block of padding follows it.
    @Test func aes128CBCMatchesThePublishedVector() throws {
        let key = Self.bytes("2b7e151628aed2a6abf7158809cf4f3c")
        let iv = Self.bytes("000102030405060708090a0b0c0d0e0f")
        let plaintext = Self.bytes("6bc1bee22e409f96e93d7e117393172a")
        let cipherText = try AESCBC.encrypt(plaintext: plaintext, key: key, iv: iv)
        #expect(Array(cipherText.prefix(16)) == Self.bytes("7649abac8119b246cee98e9b12e9197d"))
        #expect(cipherText.count == 32)
        #expect(try AESCBC.decrypt(ciphertext: cipherText, key: key, iv: iv) == plaintext)
    }

    @Test func failuresAreTypedErrors() throws {
        let key = [UInt8](repeating: 1, count: 16)
        let iv = [UInt8](repeating: 2, count: 16)
        let cipherText = try AESCBC.encrypt(plaintext: Array("secret".utf8), key: key, iv: iv)
        #expect(throws: CryptoError.badPadding) {
            try AESCBC.decrypt(ciphertext: cipherText, key: [UInt8](repeating: 3, count: 16), iv: iv)
        }
        #expect(throws: CryptoError.invalidKeyLength(15)) {
            try AESCBC.decrypt(ciphertext: cipherText, key: Array(key.prefix(15)), iv: iv)
        }
        #expect(throws: CryptoError.invalidIVLength(8)) {
            try AESCBC.decrypt(ciphertext: cipherText, key: key, iv: Array(iv.prefix(8)))
        }
        #expect(throws: CryptoError.invalidCiphertextLength(15)) {
            try AESCBC.decrypt(ciphertext: Array(cipherText.prefix(15)), key: key, iv: iv)
        }
        #expect(throws: CryptoError.invalidCiphertextLength(0)) { try AESCBC.decrypt(ciphertext: [], key: key, iv: iv) }
        // AES-256 keys work too, as they do in the Web Crypto API.
        let long = [UInt8](repeating: 4, count: 32)
        let sealed = try AESCBC.encrypt(plaintext: Array("x".utf8), key: long, iv: iv)
        #expect(try AESCBC.decrypt(ciphertext: sealed, key: long, iv: iv) == Array("x".utf8))
    }

    @Test func base64ReadsAsAtobDoes() throws {
        #expect(try Base64.decode("aGVsbG8=") == Array("hello".utf8))
        #expect(try Base64.decode("aGVsbG8") == Array("hello".utf8), "padding may be left out")
        #expect(try Base64.decode(" aGVs\nbG8= ") == Array("hello".utf8), "white space is skipped")
        #expect(try Base64.decode("") == [])
        #expect(throws: CryptoError.self) { try Base64.decode("a") }
        #expect(throws: CryptoError.self) { try Base64.decode("aGVs*G8=") }
        #expect(throws: CryptoError.self) { try Base64.decode("a=bc") }
        for length in 0..<40 {
            let data = (0..<length).map { UInt8(($0 * 37 + 11) % 256) }
            #expect(try Base64.decode(Base64.encode(data)) == data)
        }
    }
}
