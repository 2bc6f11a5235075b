import BuntingCrypto
import BuntingJSON

/// GrowthBook's encrypted payloads: each `encrypted<Section>` field is
/// `base64(iv) + "." + base64(ciphertext)`, AES-CBC with PKCS#7 padding
/// under a base64 key; the plaintext is the section's JSON.
public enum PayloadDecryption {
    /// The plaintext of one encrypted field, as the SDK's `decrypt` reads
    /// it: the text before the first `.` is the IV, the text up to any next
    /// `.` the ciphertext.
    public static func decrypt(_ field: String, key: String) throws(CryptoError) -> [UInt8] {
        let parts = field.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        let iv = try Base64.decode(String(parts[0]))
        // No second part: `split(".")[1]` is undefined, which atob reads as "undefined".
        let cipherText = try Base64.decode(parts.count > 1 ? String(parts[1]) : "undefined")
        return try AESCBC.decrypt(ciphertext: cipherText, key: try Base64.decode(key), iv: iv)
    }

    static let sections = [
        ("encryptedFeatures", "features"), ("encryptedExperiments", "experiments"),
        ("encryptedSavedGroups", "savedGroups"), ("encryptedContextualBandits", "contextualBandits"),
    ]

    /// Replaces each encrypted section of `root` by its plaintext. A section
    /// that cannot be decrypted or parsed is a problem and stays out, as in
    /// the SDK; without a key, every encrypted section is such a problem.
    static func decryptSections(
        of root: inout JSONObject, key: String?, limits: PayloadLimits, problems: inout [PayloadProblem]
    ) throws(PayloadProblem) {
        var plaintextBytes = 0
        for (encrypted, plain) in sections {
            guard let field = root[encrypted] else { continue }
            root[encrypted] = nil
            let pointer = JSONPointer(tokens: [encrypted])
            guard case .string(let text) = field else {
                problems.append(
                    PayloadProblem(
                        pointer: pointer, message: "an encrypted section must be a string, not \(field.typeName)"))
                continue
            }
            guard let key else {
                problems.append(PayloadProblem(pointer: pointer, message: "encrypted, and no decryption key was given"))
                continue
            }
            let plaintext: [UInt8]
            do {
                plaintext = try decrypt(text, key: key)
            } catch {
                problems.append(PayloadProblem(pointer: pointer, message: "cannot be decrypted: \(error)"))
                continue
            }
            plaintextBytes += plaintext.count
            guard plaintextBytes <= limits.maxPayloadBytes else {
                throw PayloadProblem(
                    pointer: pointer,
                    message: "decrypted, the payload is larger than the limit of \(limits.maxPayloadBytes) bytes")
            }
            do {
                root[plain] = try JSON.parse(plaintext)
            } catch {
                problems.append(PayloadProblem(pointer: pointer, message: "decrypted, but not JSON: \(error)"))
            }
        }
    }
}
