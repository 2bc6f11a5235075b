import CCrypto

/// AES in CBC mode with PKCS#7 padding, through OpenSSL's libcrypto (loaded
/// on first use, see `CCrypto`): what the Web Crypto API's `AES-CBC` does,
/// and so what GrowthBook's encrypted payloads need. The key's length picks
/// AES-128, -192 or -256.
public enum AESCBC {
    public static let blockSize = 16

    /// The plaintext of `ciphertext`, its padding removed.
    public static func decrypt(ciphertext: [UInt8], key: [UInt8], iv: [UInt8]) throws(CryptoError) -> [UInt8] {
        try crypt(ciphertext, key: key, iv: iv, encrypting: false)
    }

    /// The ciphertext of `plaintext`, padded (for tests and for writing payloads).
    public static func encrypt(plaintext: [UInt8], key: [UInt8], iv: [UInt8]) throws(CryptoError) -> [UInt8] {
        try crypt(plaintext, key: key, iv: iv, encrypting: true)
    }

    private static func crypt(_ input: [UInt8], key: [UInt8], iv: [UInt8], encrypting: Bool) throws(CryptoError)
        -> [UInt8]
    {
        guard [16, 24, 32].contains(key.count) else { throw .invalidKeyLength(key.count) }
        guard iv.count == blockSize else { throw .invalidIVLength(iv.count) }
        if !encrypting {
            guard !input.isEmpty, input.count % blockSize == 0 else { throw .invalidCiphertextLength(input.count) }
        }
        if let why = bunting_crypto_load() { throw .libraryUnavailable(String(cString: why)) }
        let direction: Int32 = encrypting ? 1 : 0
        guard let cipher = bunting_crypto_aes_cbc(Int32(key.count)), let context = bunting_crypto_context_new() else {
            throw .cipherUnavailable
        }
        defer { bunting_crypto_context_free(context) }
        guard bunting_crypto_init(context, cipher, key, iv, direction) == 1 else { throw .cipherUnavailable }

        // Room for the input and one block of padding.
        var output = [UInt8](repeating: 0, count: input.count + blockSize)
        var written: Int32 = 0
        var finished: Int32 = 0
        let status = output.withUnsafeMutableBufferPointer { buffer -> Int32 in
            let length = Int32(clamping: input.count)
            guard bunting_crypto_update(context, buffer.baseAddress, &written, input, length, direction) == 1 else {
                return 0
            }
            return bunting_crypto_final(context, buffer.baseAddress! + Int(written), &finished, direction)
        }
        guard status == 1 else {
            // Nothing of a failed decryption is returned.
            output.withUnsafeMutableBytes { bytes in
                for index in bytes.indices { bytes[index] = 0 }
            }
            if encrypting { throw .cipherUnavailable }
            throw .badPadding
        }
        output.removeSubrange(Int(written + finished)...)
        return output
    }
}
