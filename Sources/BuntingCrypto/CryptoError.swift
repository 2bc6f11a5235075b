/// Why a decryption failed. Every failure of this module is one of these;
/// none is a crash, and none leaves partial plaintext behind.
public enum CryptoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Text that is not base64 as `atob` reads it: a character outside the
    /// alphabet, misplaced padding, or a length that leaves one character over.
    case invalidBase64(String)
    /// AES takes keys of 16, 24 or 32 bytes.
    case invalidKeyLength(Int)
    /// CBC takes an initialisation vector of one block, 16 bytes.
    case invalidIVLength(Int)
    /// Ciphertext is a whole, non-zero number of 16-byte blocks.
    case invalidCiphertextLength(Int)
    /// The last block does not end in valid PKCS#7 padding: almost always a
    /// wrong key, or ciphertext that was changed.
    case badPadding
    /// libcrypto could not set up the cipher (out of memory, or a build of it
    /// without AES).
    case cipherUnavailable
    /// libcrypto could not be loaded (it is loaded on first use, not linked).
    case libraryUnavailable(String)

    public var description: String {
        switch self {
        case .invalidBase64(let why): return "not base64: \(why)"
        case .invalidKeyLength(let count): return "an AES key is 16, 24 or 32 bytes, not \(count)"
        case .invalidIVLength(let count): return "an AES-CBC initialisation vector is 16 bytes, not \(count)"
        case .invalidCiphertextLength(let count):
            return "AES-CBC ciphertext is a whole number of 16-byte blocks, not \(count) bytes"
        case .badPadding: return "the plaintext's padding is wrong (a wrong key, or changed ciphertext)"
        case .cipherUnavailable: return "libcrypto could not set up AES-CBC"
        case .libraryUnavailable(let why): return why
        }
    }
}
