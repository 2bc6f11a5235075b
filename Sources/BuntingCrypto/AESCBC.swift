import CCrypto

/// AES in CBC mode with PKCS#7 padding, through OpenSSL's libcrypto: what
/// the Web Crypto API's `AES-CBC` does, and so what GrowthBook's encrypted
/// payloads need. The key's length picks AES-128, -192 or -256.
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
        let cipher: OpaquePointer?
        switch key.count {
        case 16: cipher = EVP_aes_128_cbc()
        case 24: cipher = EVP_aes_192_cbc()
        case 32: cipher = EVP_aes_256_cbc()
        default: throw .invalidKeyLength(key.count)
        }
        guard iv.count == blockSize else { throw .invalidIVLength(iv.count) }
        if !encrypting {
            guard !input.isEmpty, input.count % blockSize == 0 else { throw .invalidCiphertextLength(input.count) }
        }
        guard let cipher, let context = EVP_CIPHER_CTX_new() else { throw .cipherUnavailable }
        defer { EVP_CIPHER_CTX_free(context) }
        let initialised =
            encrypting
            ? EVP_EncryptInit_ex(context, cipher, nil, key, iv)
            : EVP_DecryptInit_ex(context, cipher, nil, key, iv)
        guard initialised == 1 else { throw .cipherUnavailable }

        // Room for the input and one block of padding.
        var output = [UInt8](repeating: 0, count: input.count + blockSize)
        var written: Int32 = 0
        var finished: Int32 = 0
        let status = output.withUnsafeMutableBufferPointer { buffer -> Int32 in
            let length = Int32(clamping: input.count)
            let updated =
                encrypting
                ? EVP_EncryptUpdate(context, buffer.baseAddress, &written, input, length)
                : EVP_DecryptUpdate(context, buffer.baseAddress, &written, input, length)
            guard updated == 1 else { return 0 }
            let tail = buffer.baseAddress! + Int(written)
            return encrypting
                ? EVP_EncryptFinal_ex(context, tail, &finished)
                : EVP_DecryptFinal_ex(context, tail, &finished)
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
