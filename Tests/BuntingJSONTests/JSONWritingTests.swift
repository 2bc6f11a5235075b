@testable import BuntingJSON
import Testing

/// Values without reals are written in Swift; these check that the bytes
/// are jansson's, value for value.
@Suite struct JSONWritingTests {
    private func jansson(_ value: JSON) -> [UInt8] {
        var output: [UInt8] = []
        value.encodeWithJansson(appendingTo: &output)
        return output
    }

    private func swift(_ value: JSON) -> [UInt8]? {
        var output: [UInt8] = []
        return value.writeWithoutReals(appendingTo: &output) ? output : nil
    }

    @Test func scalarsAndContainersAreWrittenAsJanssonWritesThem() {
        let values: [JSON] = [
            .null, true, false, 0, -1, 1, .integer(.max), .integer(.min), "", "plain", [], [:], [[]], ["": [:]],
            ["id": "flag-1", "enabled": true, "properties": ["n": ["type": "number", "value": 7]], "list": [1, "2", nil, false]],
        ]
        for value in values {
            #expect(swift(value) == jansson(value), "\(value)")
        }
    }

    @Test func everyControlCharacterAndEscapeIsWrittenAsJanssonWritesIt() {
        for scalar in (0..<0x80).compactMap(Unicode.Scalar.init) {
            let text = "a\(Character(scalar))b"
            let value: JSON = [text: .string(text)]
            #expect(swift(value) == jansson(value), "U+\(String(scalar.value, radix: 16))")
        }
        let wide: JSON = ["é😀/\u{7F}\u{2028}": "\"\\\u{0}é😀/\u{FEFF}"]
        #expect(swift(wide) == jansson(wide))
    }

    @Test func randomTreesAreWrittenAsJanssonWritesThem() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "é", "\n", "\"", "\\", "\u{1}", "😀", " ", "/", "\u{0}"]
        func text() -> String { (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined() }
        func tree(_ depth: Int) -> JSON {
            switch Int.random(in: 0..<(depth > 3 ? 4 : 6), using: &generator) {
            case 0: return .null
            case 1: return .bool(Bool.random(using: &generator))
            case 2: return .integer(Int64.random(in: .min ... .max, using: &generator))
            case 3: return .string(text())
            case 4: return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in tree(depth + 1) })
            default:
                var object = JSONObject()
                for _ in 0..<Int.random(in: 0...4, using: &generator) { object[text()] = tree(depth + 1) }
                return .object(object)
            }
        }
        for _ in 0..<500 {
            let value = tree(0)
            #expect(swift(value) == jansson(value), "\(value)")
        }
    }

    @Test func aValueWithARealIsLeftToJansson() {
        var output = Array("kept".utf8)
        #expect(!JSON.array([1, ["x": .real(0.5)]]).writeWithoutReals(appendingTo: &output))
        #expect(output == Array("kept".utf8))
        #expect(JSON.array([1, ["x": .real(0.5)]]).encodedString() == #"[1,{"x":0.5}]"#)
    }
}
