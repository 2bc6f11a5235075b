@_spi(Fuzzing) @testable import BuntingJSON
import Foundation
import Testing

/// `JSONReader` reads most texts in Swift instead of jansson: on every text
/// it must give jansson's value, keys in the same order, or leave the text
/// to jansson (nil); it must never read a text jansson refuses. And it must
/// read the texts Bunting meets most, or it saves nothing.
@Suite struct JSONReaderTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private func swift(_ bytes: [UInt8], maxDepth: Int = JSON.defaultMaxDepth) -> JSON? {
        bytes.withUnsafeBytes { JSON.readInSwift($0, maxDepth: maxDepth) }
    }

    private func jansson(_ bytes: [UInt8], maxDepth: Int = JSON.defaultMaxDepth) -> JSON? {
        bytes.withUnsafeBytes { try? JSON.parsedByJansson($0, maxDepth: maxDepth) }
    }

    /// Jansson's value (keys in order, reals to the bit) or nil; never a value jansson refuses.
    private func expectAgrees(_ bytes: [UInt8], maxDepth: Int = JSON.defaultMaxDepth, _ comment: String = "") {
        guard let read = swift(bytes, maxDepth: maxDepth) else { return }
        guard let expected = jansson(bytes, maxDepth: maxDepth) else {
            Issue.record(
                "read a text jansson refuses: \(String(decoding: bytes.prefix(200), as: UTF8.self)) \(comment)")
            return
        }
        #expect(read == expected, "\(String(decoding: bytes.prefix(200), as: UTF8.self))")
        #expect(
            read.encoded() == expected.encoded(),
            "keys or numbers differ: \(String(decoding: bytes.prefix(200), as: UTF8.self))")
    }

    @Test func readsTheTextsBuntingMeetsAsJanssonDoes() throws {
        let texts = [
            #"{"jsonrpc":"2.0","id":1,"method":"evaluateFlag","params":{"flagKey":"flag-17","context":{"targetingKey":"user-1-0","age":21,"country":"FR"}}}"#,
            " \n\t{ \"a\" : 1 , \"b\" : [ true , false , null ] , \"c\" : { } } \r\n",
            #"[1,"two",3.0,{"four":4},[5],null,true,false,-9223372036854775,922337203685477580,0,-0]"#,
            #"{"é":"e\u0301","\ud83d\ude00":"😀","esc\"aped":"a\\b\/c\n\t\r\b\f","nul":"a\u0000b","ß":"\u00DF\u00df"}"#,
            #"[1.5,-0.0,0.1,1e2,1E-2,2.5e+3,123456789.123456789,1e-400,4.9e-324,1.7976931348623157e308]"#,
            #"{"deep":{"x":{"y":{"z":[[[[1]]]]}}},"n":0,"s":"","t":true}"#,
            "[]", "{}", "[[],{}]", #"{"a":[]}"#, "3", "-1", "\"x\"", "true", "false", "null",
            "\"日本語 — ©\u{10FFFF}\"",
        ]
        for text in texts {
            let bytes = Array(text.utf8)
            #expect(swift(bytes) != nil, "left to jansson: \(text)")
            expectAgrees(bytes)
        }
        for path in ["examples/definitions/bunting.json", "schemas/definitions.schema.json", "schemas/openrpc.json"] {
            let bytes = Array(try Data(contentsOf: Self.root.appendingPathComponent(path)))
            #expect(swift(bytes) != nil, "left to jansson: \(path)")
            expectAgrees(bytes)
        }
    }

    /// Texts jansson refuses, or reads otherwise than a quick reading would:
    /// each is left to it.
    @Test func leavesToJanssonWhatItRefusesOrMustJudge() {
        let texts = [
            "", " ", "{", "[", "{\"a\"", "{\"a\":", "{\"a\":1", "[1,]", "{\"a\":1,}", "[1 2]", "{\"a\" 1}", "{1:2}",
            "01", "-", "-01", "1.", ".5", "1e", "1e+", "+1", "0x10", "1.5.3", "NaN", "Infinity", "-Infinity",
            "tru", "truex", "true1", "nul", "nullx", "falsey", "[true false]",
            "1e400", "-1e400", "12345678901234567890", "9223372036854775807", "-9223372036854775808",
            "9223372036854775808",
            "{\"a\":1,\"a\":2}", "{\"a\\u0000\":1}", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"\\u12\"",
            "\"\\x\"", "\"a\nb\"", "\"a\u{0}b\"", "\"\\'\"", "[1]x", "{} {}", "\"unterminated",
        ]
        for text in texts {
            let bytes = Array(text.utf8)
            expectAgrees(bytes, text)
        }
        // Bytes that are not UTF-8 (overlong forms, surrogates, past U+10FFFF, cut short, stray).
        let invalid: [[UInt8]] = [
            [0x22, 0xC0, 0x80, 0x22], [0x22, 0xC1, 0xBF, 0x22], [0x22, 0xE0, 0x80, 0x80, 0x22],
            [0x22, 0xED, 0xA0, 0x80, 0x22],
            [0x22, 0xF0, 0x80, 0x80, 0x80, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],
            [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22],
            [0x22, 0x80, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xE2, 0x82, 0x22], [0x22, 0xFF, 0x22],
            [0x5B, 0xC3, 0xA9, 0x5D],
        ]
        for bytes in invalid {
            #expect(swift(bytes) == nil)
            #expect(jansson(bytes) == nil)
        }
        // Well-formed: read, and as jansson reads them.
        for bytes: [UInt8] in [
            [0x22, 0xC3, 0xA9, 0x22], [0x22, 0xE2, 0x82, 0xAC, 0x22], [0x22, 0xF0, 0x9F, 0x98, 0x80, 0x22],
            [0x22, 0xF4, 0x8F, 0xBF, 0xBF, 0x22],
        ] {
            #expect(swift(bytes) != nil)
            expectAgrees(bytes)
        }
    }

    /// The depth limit is the caller's, as in jansson's reading: at the
    /// value's own depth it is read, one level less it is left to jansson
    /// (which refuses it).
    @Test func nestingIsLimitedAsJanssonsReadingLimitsIt() {
        let text = Array("{\"a\":[[{\"b\":[]}]]}".utf8) // five levels
        #expect(swift(text, maxDepth: 5) != nil)
        expectAgrees(text, maxDepth: 5)
        #expect(swift(text, maxDepth: 4) == nil)
        #expect(jansson(text, maxDepth: 4) == nil)
        #expect(swift(Array("7".utf8), maxDepth: 0) == .integer(7))
        let deep = Array((String(repeating: "[", count: 3000) + String(repeating: "]", count: 3000)).utf8)
        #expect(swift(deep, maxDepth: 5000) == nil, "past jansson's own limit of 2048")
    }

    /// Every input the fuzz targets keep, and random changes to valid texts:
    /// jansson's value or nothing.
    @Test func agreesWithJanssonOnTheFuzzCorporaAndOnMutatedTexts() throws {
        var inputs: [[UInt8]] = []
        for directory in [
            "fuzz/corpus/json", "fuzz/crashes/json", "fuzz/corpus/definitions", "fuzz/corpus/dispatch",
            "fuzz/corpus/schema", "fuzz/corpus/jsonlogic", "fuzz/corpus/growthbook",
        ] {
            let url = Self.root.appendingPathComponent(directory)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] {
                inputs.append(Array(try Data(contentsOf: url.appendingPathComponent(name))))
            }
        }
        #expect(inputs.count > 50)
        var read = 0
        for input in inputs {
            if swift(input) != nil { read += 1 }
            expectAgrees(input)
        }
        #expect(read > inputs.count / 4, "the corpora are mostly valid JSON: \(read) of \(inputs.count) read")

        // Mutations: bytes replaced, dropped and doubled, from a fixed seed.
        var random = SplitMix(seed: 31)
        let alphabet =
            Array("{}[]\",:\\/ -+.0123456789eEtrufalsn\u{00}\n\tuD8DCé".utf8) + [0x80, 0xC3, 0xED, 0xF4, 0xFF]
        let valid = inputs.filter { !$0.isEmpty && jansson($0) != nil && $0.count < 4096 }
        for _ in 0..<20_000 {
            var bytes = valid[Int(random.next() % UInt64(valid.count))]
            for _ in 0...(random.next() % 3) {
                let at = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes[at] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                case 1: bytes.remove(at: at)
                default: bytes.insert(bytes[at], at: at)
                }
                if bytes.isEmpty { break }
            }
            expectAgrees(bytes)
        }
    }
}

/// An outline checks a text as `JSONReader` reads it without making the
/// value: it must accept exactly the objects the reader reads, and each
/// member it records (of the top level, and inside the members named) must be
/// written where it says, parsing on its own to jansson's value.
@Suite struct JSONOutlineTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private func expectAgrees(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { text in
            let outline = JSONOutline.of(text, inside: ["flags", "a"])
            let read = JSON.readInSwift(text)
            guard case .object(let object)? = read else {
                #expect(
                    outline == nil,
                    "outlined a text the reader does not read as an object: \(String(decoding: bytes.prefix(200), as: UTF8.self))"
                )
                return
            }
            guard let outline else {
                Issue.record(
                    "no outline of an object the reader reads: \(String(decoding: bytes.prefix(200), as: UTF8.self))")
                return
            }
            #expect(outline.members.map(\.key) == object.keys)
            for member in outline.members {
                let value = try? JSON.parsedByJansson(UnsafeRawBufferPointer(rebasing: text[member.value]))
                #expect(value?.encoded() == object[member.key]?.encoded(), "\(member.key)")
                #expect(
                    (try? JSON.parse(UnsafeRawBufferPointer(rebasing: text[member.keyText]))) == .string(member.key))
                guard case .object(let inner)? = object[member.key], ["flags", "a"].contains(member.key) else {
                    #expect(outline.nested[member.key] == nil)
                    continue
                }
                let spans = outline.nested[member.key]
                #expect(spans?.map(\.key) == inner.keys)
                for span in spans ?? [] {
                    let value = try? JSON.parsedByJansson(UnsafeRawBufferPointer(rebasing: text[span.value]))
                    #expect(value?.encoded() == inner[span.key]?.encoded(), "\(member.key)/\(span.key)")
                }
            }
        }
    }

    @Test func outlinesWhatTheReaderReadsAsAnObjectAndNothingElse() throws {
        var inputs =
            [
                #"{"flags":{"a":{"x":[1,2,{"y":"z"}]},"b\u00e9":true,"c":"\"q\""},"banners":[1,2],"n":-0.5e3,"a":{"k":null}}"#,
                " { \"a\" : { } , \"flags\" : [ ] } ", "{}", "[]", "{\"a\":1,\"a\":2}", "{\"flags\":{\"k\":1,\"k\":2}}",
                "{\"a\":{\"b\":1}} x", "{\"a\":1e400}", "{\"a\":12345678901234567890}", "{\"a\":\"\\ud800\"}",
                // Keys of inner objects, compared as written until an escape or the thirteenth key.
                #"{"z":{"k":1,"k":2}}"#, #"{"z":{"k":1,"\u006b":2}}"#, #"{"z":{"\u006b":1,"k":2}}"#,
                #"{"z":{"k\u0000":1}}"#, "{\"z\":{\"k\u{01}\":1}}", #"{"z":[{"a":{"a":1},"b":{"a":2}}]}"#,
                "{\"z\":{" + (0..<14).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}}",
                "{\"z\":{" + (0..<14).map { "\"k\($0 % 13)\":\($0)" }.joined(separator: ",") + "}}",
                "{\"z\":{" + (0..<14).map { "\"k\($0)\":{\"k\":\($0),\"k\($0)\":1}" }.joined(separator: ",") + "}}",
            ].map { Array($0.utf8) } + [[0x7B, 0x22, 0x7A, 0x22, 0x3A, 0x7B, 0x22, 0xC3, 0x22, 0x3A, 0x31, 0x7D, 0x7D]]
        for directory in ["fuzz/corpus/json", "fuzz/corpus/definitions", "fuzz/corpus/dispatch", "fuzz/corpus/schema"] {
            let url = Self.root.appendingPathComponent(directory)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] {
                inputs.append(Array(try Data(contentsOf: url.appendingPathComponent(name))))
            }
        }
        inputs.append(
            Array(try Data(contentsOf: Self.root.appendingPathComponent("examples/definitions/bunting.json"))))
        for input in inputs { expectAgrees(input) }
        // Byte changes to the valid ones, from a fixed seed.
        var random = SplitMix(seed: 7)
        func next() -> Int { random.next(below: Int.max) }
        let alphabet = Array("{}[]\",:\\ -.0123456789etrufalsn\u{00}é".utf8) + [0x80, 0xC3, 0xFF]
        let valid = inputs.filter { !$0.isEmpty && $0.count < 4096 }
        for _ in 0..<10_000 {
            var bytes = valid[next() % valid.count]
            let at = next() % bytes.count
            switch next() % 3 {
            case 0: bytes[at] = alphabet[next() % alphabet.count]
            case 1: bytes.remove(at: at)
            default: bytes.insert(bytes[at], at: at)
            }
            expectAgrees(bytes)
        }
    }
}
