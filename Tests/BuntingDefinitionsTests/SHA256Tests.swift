@testable import BuntingDefinitions
import Testing

/// The test vectors of FIPS 180-4 (its examples) and RFC 4231 (HMAC).
@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func digestsOfTheStandardsExamples(text: String, expected: String) {
        #expect(SHA256.hex(SHA256.hash(Array(text.utf8))) == expected)
    }

    @Test func aMillionAsFedInUnevenPiecesGiveTheStandardsDigest() {
        var hasher = SHA256()
        var fed = 0
        var piece = 1
        while fed < 1_000_000 {
            let count = min(piece, 1_000_000 - fed)
            hasher.update([UInt8](repeating: UInt8(ascii: "a"), count: count))
            fed += count
            piece = piece * 7 % 131 + 1
        }
        #expect(SHA256.hex(hasher.finish()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func lengthsAroundABlockBoundaryAgreeWithPiecewiseHashing() {
        for length in 50...130 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            var hasher = SHA256()
            hasher.update(bytes.prefix(length / 3))
            hasher.update(bytes.dropFirst(length / 3))
            #expect(hasher.finish() == SHA256.hash(bytes), "\(length)")
        }
    }

    @Test func authenticationCodesOfRFC4231() {
        let key = [UInt8](repeating: 0x0b, count: 20)
        #expect(
            SHA256.hex(SHA256.authenticationCode(key: key, message: Array("Hi There".utf8)))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(
            SHA256.hex(
                SHA256.authenticationCode(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // A key longer than a block is hashed first.
        let long = [UInt8](repeating: 0xaa, count: 131)
        #expect(
            SHA256.hex(
                SHA256.authenticationCode(
                    key: long, message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }
}
