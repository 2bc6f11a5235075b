import Foundation
import Testing

@testable import BuntingJSON

/// Scalars written without jansson are written exactly as jansson writes
/// them, and everything else is still jansson's.
@Suite struct ScalarTextTests {
    static func same(_ value: JSON) -> Bool {
        var fast: [UInt8] = []
        value.encode(appendingTo: &fast)
        var jansson: [UInt8] = []
        value.encodeWithJansson(appendingTo: &jansson)
        return fast == jansson
    }

    @Test func nullBooleansAndIntegersAtTheirEdges() {
        var values: [JSON] = [.null, .bool(true), .bool(false)]
        values += ([0, 1, -1, 9, 10, 99, 100, -100, .max, .min, .max - 1, .min + 1] as [Int64]).map(JSON.integer)
        values += (0..<64).map { JSON.integer(Int64(1) << $0) } + (0..<64).map { JSON.integer(0 &- (Int64(1) << $0)) }
        for value in values { #expect(Self.same(value), "\(value)") }
    }

    @Test func everyStringOfOneByteAndOneCharacter() {
        // Every ASCII byte: the printable ones are written here, the others (and
        // the quote and backslash) by jansson, and either way the text is the same.
        for byte in UInt8(0)...UInt8(0x7F) {
            let value = JSON.string(String(decoding: [byte], as: UTF8.self))
            #expect(Self.same(value), "byte \(byte)")
            var output: [UInt8] = []
            let fast = value.appendScalarText(to: &output)
            #expect(
                fast == (byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")),
                "byte \(byte)")
        }
        for text in [
            "", "é", "a/b", "\u{2028}", "\u{7F}", "tab\there", "ünïcödé", "😀", "\u{0}", "quote\"d", "back\\slash",
        ] {
            #expect(Self.same(.string(text)), "\(text.debugDescription)")
        }
    }

    @Test func generatedStringsAndScalarsInsideContainers() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcXYZ09 -_/.:@~\"\\\t\né€😀".unicodeScalars)
        for _ in 0..<2_000 {
            let length = Int.random(in: 0..<24, using: &generator)
            var text = String.UnicodeScalarView()
            for _ in 0..<length { text.append(alphabet.randomElement(using: &generator)!) }
            let string = JSON.string(String(text))
            let number = JSON.integer(Int64.random(in: .min ... .max, using: &generator))
            #expect(Self.same(string), "\(String(text).debugDescription)")
            #expect(Self.same(number))
            // Inside containers jansson writes everything, as before.
            let array: JSON = [string, number, .bool(true), .null]
            #expect(
                array.encoded()
                    == Array(
                        "[\(String(decoding: string.encoded(), as: UTF8.self)),\(String(decoding: number.encoded(), as: UTF8.self)),true,null]"
                            .utf8))
        }
    }

    @Test func realsWithoutAnExponentAreWrittenAsJanssonWritesThem() {
        var generator = SystemRandomNumberGenerator()
        var numbers: [Double] = [
            0.0, -0.0, 0.1, 0.5735, 0.0078, 1e-4, 1e-5, 1e-7, 1e15, 1e16, 1e21, -2.5, 2.0, 100000.0,
            123456789012.0, 0.1 + 0.2, .pi, .ulpOfOne, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
        ]
        numbers += (0...10_000).map { Double($0) / 10_000 } + (0...1_000).map { Double($0) / 1_000 }
        numbers += (-30...30).flatMap { exponent in [1.0, 1.5, 9.999, 123.25].map { $0 * pow(10, Double(exponent)) } }
        numbers += (0..<20_000).map { _ in Double(bitPattern: UInt64.random(in: .min ... .max, using: &generator)) }
            .filter(\.isFinite)
        numbers += (0..<20_000).map { _ in Double.random(in: -1e6...1e6, using: &generator) }
        var fastOnes = 0
        for number in numbers {
            #expect(Self.same(.real(number)), "\(number)")
            var output: [UInt8] = []
            if JSON.real(number).appendScalarText(to: &output) { fastOnes += 1 }
        }
        #expect(fastOnes > 10_000, "most of these are written without jansson")
        for number in [Double.nan, .infinity, -.infinity] {
            var output: [UInt8] = []
            #expect(!JSON.real(number).appendScalarText(to: &output))
            #expect(JSON.real(number).encoded() == Array("null".utf8))
        }
    }
}
