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

        var random = SplitMix(seed: 31)
        func next(_ bound: Int) -> Int { random.next(below: bound) }
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

    /// Values whose reals `ShortestReals` lets Swift write: jansson's bytes
    /// for reals of every number of digits and magnitude, mixed in one
    /// value (where jansson's one precision makes them interact), and those
    /// it does not let through still come out as jansson writes them.
    @Test func realsJanssonWritesAsTheirShortestTextAreWrittenInSwift() {
        var random = SplitMix(seed: 20_261_205)
        func next(_ bound: Int) -> Int { random.next(below: bound) }
        func real() -> Double {
            switch next(4) {
            case 0:
                return [0.1, 0.1 + 0.2, 1e16, 1e15, 100_000.0, 5e-5, 1e-4, -0.0, 0.0, 0.5, 2.5e-3, 123_456_789.125][
                    next(12)]
            default:
                // A decimal of 1 to 17 digits, scaled by a power of ten from 1e-7 to 1e16.
                var digits = 0.0
                for _ in 0..<(1 + next(17)) { digits = digits * 10 + Double(next(10)) }
                let scaled = digits * pow(10.0, Double(next(24) - 7 - 8))
                return next(2) == 0 ? scaled : -scaled
            }
        }
        var swiftWritten = 0
        for _ in 0..<20_000 {
            let reals = (0..<(1 + next(4))).map { _ in JSON.real(real()) }
            let value: JSON =
                next(2) == 0
                ? .array(reals + [.integer(7), .string("x")])
                : .object(
                    JSONObject(
                        reals.enumerated().map { ("r\($0.offset)", $0.element) }))
            var written: [UInt8] = []
            if JSONWriter.write(value, to: &written, shortestReals: true) { swiftWritten += 1 }
            #expect(value.encoded() == jansson(value), "\(String(decoding: jansson(value), as: UTF8.self))")
        }
        #expect(swiftWritten > 2_000, "\(swiftWritten) of 20,000 written in Swift")
    }
}
