@_spi(Fuzzing) @testable import BuntingJSON
import Foundation
import Testing

/// `JSONWriter` writes values without reals in Swift instead of jansson: its
/// bytes must be jansson's for every such value, and it must stop at a real.
@Suite struct JSONWriterTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private func jansson(_ value: JSON) -> [UInt8] {
        var output: [UInt8] = []
        value.encodeWithJansson(appendingTo: &output)
        return output
    }

    private func swift(_ value: JSON) -> [UInt8]? {
        var output: [UInt8] = []
        return JSONWriter.write(value, to: &output) ? output : nil
    }

    private static func hasReal(_ value: JSON) -> Bool {
        switch value {
        case .real: return true
        case .array(let elements): return elements.contains(where: hasReal)
        case .object(let object): return object.contains { hasReal($0.value) }
        default: return false
        }
    }

    /// Jansson's bytes where there is no real, nothing where there is one.
    private func expectAgrees(_ value: JSON) {
        let expected = jansson(value)
        if Self.hasReal(value) {
            #expect(swift(value) == nil)
        } else {
            let written = swift(value)
            #expect(written == expected, "\(String(decoding: expected.prefix(200), as: UTF8.self))")
        }
        #expect(value.encoded() == expected)
    }

    @Test func writesScalarsStringsAndContainersAsJanssonDoes() {
        var every = ""
        for scalar in 0..<0x80 { every.unicodeScalars.append(Unicode.Scalar(UInt8(scalar))) }
        let strings = [
            "", "plain", every, "a\u{0}b", "\"quoted\" \\ /slash/", "é e\u{301} 日本語 😀 \u{2028}\u{2029} \u{7F}",
            "\u{1F}\u{10}\u{0B}\u{1B}", "\u{10FFFF}",
        ]
        let integers: [Int64] = [
            0, 1, 9, 10, -1, -9, -10, 42, 1_000_000, Int64.max, Int64.min, Int64.min + 1,
            -999_999_999_999_999_999,
        ]
        var values: [JSON] = [.null, .bool(true), .bool(false), .array([]), .object(JSONObject())]
        values += strings.map(JSON.string) + integers.map(JSON.integer)
        values.append(.array(values))
        values.append(.object(JSONObject(strings.enumerated().map { ($0.element, JSON.integer(Int64($0.offset))) })))
        values.append(
            .object(
                JSONObject([
                    ("nested", .object(JSONObject([("a", .array([.array([.null])]))]))),
                    ("b", .string(every)),
                ])))
        for value in values {
            #expect(swift(value) != nil)
            expectAgrees(value)
        }
        for value: JSON in [.real(0.1), .array([.integer(1), .real(2.5)]), .object(JSONObject([("a", .real(-0.0))]))] {
            expectAgrees(value)
        }
    }

    /// Every document the fuzz targets keep, read, and changed values from a
    /// fixed seed: jansson's bytes.
    @Test func agreesWithJanssonOnTheFuzzCorporaAndOnGeneratedValues() throws {
        var values: [JSON] = []
        for directory in [
            "fuzz/corpus/json", "fuzz/corpus/definitions", "fuzz/corpus/dispatch", "fuzz/corpus/schema",
            "fuzz/corpus/jsonlogic", "fuzz/corpus/growthbook",
        ] {
            let url = Self.root.appendingPathComponent(directory)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] {
                let bytes = Array(try Data(contentsOf: url.appendingPathComponent(name)))
                if let value = bytes.withUnsafeBytes({ try? JSON.parsedByJansson($0) }) { values.append(value) }
            }
        }
        for path in ["examples/definitions/bunting.json", "schemas/definitions.schema.json", "schemas/openrpc.json"] {
            let bytes = Array(try Data(contentsOf: Self.root.appendingPathComponent(path)))
            values.append(try bytes.withUnsafeBytes { try JSON.parse($0) })
        }
        #expect(values.count > 50)
        var written = 0
        for value in values {
            if swift(value) != nil { written += 1 }
            expectAgrees(value)
        }
        #expect(written > values.count / 4, "most documents hold no real: \(written) of \(values.count) written")

        var state: UInt64 = 31
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33) % bound
        }
        let pieces = [
            "a", "\u{0}", "\u{1}", "\u{8}", "\t", "\n", "\u{C}", "\r", "\u{1F}", " ", "\"", "\\", "/", "\u{7F}",
            "é", "\u{80}", "\u{FFFF}", "😀", "key", "0",
        ]
        func text() -> String { (0..<next(6)).map { _ in pieces[next(pieces.count)] }.joined() }
        func value(_ depth: Int) -> JSON {
            switch next(depth > 3 ? 5 : 7) {
            case 0: return .null
            case 1: return .bool(next(2) == 0)
            case 2: return .integer(Int64(next(1 << 30)) * Int64(next(1 << 30)) * (next(2) == 0 ? -1 : 1))
            case 3: return .string(text())
            case 4: return next(40) == 0 ? .real(Double(next(1000)) / 8) : .integer(Int64(next(100)))
            case 5: return .array((0..<next(5)).map { _ in value(depth + 1) })
            default: return .object(JSONObject((0..<next(5)).map { _ in (text(), value(depth + 1)) }))
            }
        }
        for _ in 0..<5_000 { expectAgrees(value(0)) }
    }
}
