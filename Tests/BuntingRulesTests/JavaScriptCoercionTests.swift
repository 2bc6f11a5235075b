import BuntingJSON
import Testing
@testable import BuntingRules

/// JavaScript's coercions, checked against what Node.js answers for the
/// same values (the expected tables were produced by node 20 and pasted here).
struct JavaScriptCoercionTests {
    /// [number, String(number)]
    static let numberStrings =
        #"[[0e+0,"0"],[0e+0,"0"],[1e+0,"1"],[-1e+0,"-1"],[1e-1,"0.1"],[5e-1,"0.5"],[1.5e+0,"1.5"],[1.23456e+2,"123.456"],[1e+21,"1e+21"],[1e-7,"1e-7"],[1.5e-7,"1.5e-7"],[1.23e-18,"1.23e-18"],[1e-6,"0.000001"],[1.234e-6,"0.000001234"],[9.007199254740992e+15,"9007199254740992"],[1.152921504606847e+18,"1152921504606847000"],[1.7976931348623157e+308,"1.7976931348623157e+308"],[5e-324,"5e-324"],[1e+2,"100"],[1e+20,"100000000000000000000"],[1.2345678901234568e+20,"123456789012345680000"],[3.0000000000000004e-1,"0.30000000000000004"],[-1e-7,"-1e-7"],[4.35e+0,"4.35"],[3.333333333333333e-1,"0.3333333333333333"]]"#

    /// [string, Number(string)], with NaN and infinities as strings.
    static let stringNumbers =
        #"[["",0],[" ",0],[" 12 ",12],["12px","NaN"],["0x1A",26],["0X1a",26],["0b101",5],["0o17",15],["-0x1A","NaN"],["1e3",1000],["1E+3",1000],[".5",0.5],["5.",5],["+5",5],["-5",-5],["- 5","NaN"],["Infinity","Infinity"],["-Infinity","-Infinity"],["+Infinity","Infinity"],["infinity","NaN"],["inf","NaN"],["NaN","NaN"],["1_000","NaN"],[" 12 ",12],["\n7\t",7],["1.2.3","NaN"],["0x","NaN"],["00012",12],["1e","NaN"],["e5","NaN"],["١٢","NaN"]]"#

    /// The values compared pairwise below, in order.
    static let values =
        #"[null, true, false, 0, 1, "", "0", "1", "a", [], [0], [1], [1,2], ["a"], [null], {}, [[1]], " 1 "]"#
    /// a == b for every pair, row-major: 1 when true.
    static let looseEquality =
        #"[1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,0,0,1,0,0,1,0,0,0,1,0,0,0,0,1,1,0,0,1,1,0,1,1,0,0,1,1,0,0,0,1,0,0,0,0,0,1,1,0,1,1,0,0,1,1,0,0,0,1,0,0,0,0,1,0,0,1,0,0,1,0,0,0,1,0,0,0,0,1,1,0,0,1,1,0,1,0,0,0,1,0,0,0,0,1,0,0,0,0,0,1,1,0,0,1,0,0,0,1,0,0,0,0,0,0,0,0,1,0,0,1,0,0,1,0,0,0,1,0,0,0,0,1,0,0,0,0,0,0,0,0,0,1,0,0,0,0,1,0,0,0,0,0,0,1,1,0,1,0,0,0,1,0,0,0,0,0,0,0,0,0,0,1,1,0,0,1,0,0,0,1,0,0,0,0,0,0,0,0,1,0,0,1,0,0,1,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,1,0,0,0,0,1,0,0,0,0,0,0,1,1,0,1,0,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,0,0,0,1,0,0,1,0,0,1,0,0,0,0,0,0,0,0,1,0,0,1,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,1]"#
    /// (a < b ? 1 : 0) + (a <= b ? 2 : 0) for every pair, row-major.
    static let relations =
        #"[2,3,2,2,3,2,2,3,0,2,2,3,0,0,2,0,3,3,0,2,0,0,2,0,0,2,0,0,0,2,0,0,0,0,2,2,2,3,2,2,3,2,2,3,0,2,2,3,0,0,2,0,3,3,2,3,2,2,3,2,2,3,0,2,2,3,0,0,2,0,3,3,0,2,0,0,2,0,0,2,0,0,0,2,0,0,0,0,2,2,2,3,2,2,3,2,3,3,3,2,3,3,3,3,2,3,3,3,2,3,2,2,3,0,2,3,3,0,2,3,3,3,0,3,3,0,0,2,0,0,2,0,0,2,3,0,0,2,3,3,0,3,2,0,0,0,0,0,0,0,0,0,2,0,0,0,0,2,0,0,0,0,2,3,2,2,3,2,3,3,3,2,3,3,3,3,2,3,3,3,2,3,2,2,3,0,2,3,3,0,2,3,3,3,0,3,3,0,0,2,0,0,2,0,0,2,3,0,0,2,3,3,0,3,2,0,0,0,0,0,0,0,0,0,3,0,0,0,2,3,0,3,0,0,0,0,0,0,0,0,0,0,2,0,0,0,0,2,0,0,0,0,2,3,2,2,3,2,3,3,3,2,3,3,3,3,2,3,3,3,0,0,0,0,0,0,0,0,3,0,0,0,0,3,0,2,0,0,0,2,0,0,2,0,0,2,3,0,0,2,3,3,0,3,2,0,0,2,0,0,2,0,3,3,3,0,3,3,3,3,0,3,3,2]"#

    @Test func numbersAreWrittenAsJavaScriptWritesThem() throws {
        guard case .array(let pairs) = try JSON.parse(Self.numberStrings) else { return }
        for case .array(let pair) in pairs {
            let number = try #require(pair[0].doubleValue)
            #expect(JavaScript.string(from: number) == pair[1].stringValue, "String(\(number))")
        }
        #expect(JavaScript.string(from: Double.nan) == "NaN")
        #expect(JavaScript.string(from: -Double.infinity) == "-Infinity")
        #expect(JavaScript.string(from: Int64.max) == "9223372036854776000")
    }

    @Test func stringsAreReadAsJavaScriptReadsThem() throws {
        guard case .array(let pairs) = try JSON.parse(Self.stringNumbers) else { return }
        for case .array(let pair) in pairs {
            let text = try #require(pair[0].stringValue)
            let parsed = JavaScript.number(parsing: text)
            switch pair[1] {
            case .string("NaN"): #expect(parsed.isNaN, "Number(\(text.debugDescription))")
            case .string("Infinity"): #expect(parsed == .infinity, "Number(\(text.debugDescription))")
            case .string("-Infinity"): #expect(parsed == -.infinity, "Number(\(text.debugDescription))")
            default: #expect(parsed == pair[1].doubleValue, "Number(\(text.debugDescription))")
            }
        }
    }

    @Test func looseEqualityMatchesJavaScript() throws {
        let values = try #require(try JSON.parse(Self.values).arrayValue)
        let expected = try #require(try JSON.parse(Self.looseEquality).arrayValue)
        for (row, a) in values.enumerated() {
            for (column, b) in values.enumerated() {
                let answer = expected[row * values.count + column] == 1
                // JavaScript compares two arrays or objects by identity; Node
                // compared each value with itself, JSON values have no identity.
                if a.arrayValue != nil || a.objectValue != nil, b.arrayValue != nil || b.objectValue != nil {
                    #expect(!JavaScript.looseEquals(a, b))
                    continue
                }
                #expect(JavaScript.looseEquals(a, b) == answer, "\(a.encodedString()) == \(b.encodedString())")
            }
        }
    }

    @Test func relationalComparisonMatchesJavaScript() throws {
        let values = try #require(try JSON.parse(Self.values).arrayValue)
        let expected = try #require(try JSON.parse(Self.relations).arrayValue)
        for (row, a) in values.enumerated() {
            for (column, b) in values.enumerated() {
                let code = expected[row * values.count + column].integerValue ?? -1
                #expect(
                    JavaScript.compare(a, b, .less) == (code & 1 != 0),
                    "\(a.encodedString()) < \(b.encodedString())")
                #expect(
                    JavaScript.compare(a, b, .lessOrEqual) == (code & 2 != 0),
                    "\(a.encodedString()) <= \(b.encodedString())")
                #expect(
                    JavaScript.compare(b, a, .greater) == (code & 1 != 0),
                    "\(b.encodedString()) > \(a.encodedString())")
                #expect(
                    JavaScript.compare(b, a, .greaterOrEqual) == (code & 2 != 0),
                    "\(b.encodedString()) >= \(a.encodedString())")
            }
        }
    }

    @Test func stringsCompareByUTF16CodeUnits() {
        // U+FF61 sorts after U+1F600 in code points, before it in UTF-16.
        #expect(JavaScript.compare("\u{1F600}", "\u{FF61}", .less))
        #expect(!JavaScript.compare("\u{FF61}", "\u{1F600}", .less))
        #expect(JavaScript.compare("a", "b", .less))
        #expect(JavaScript.compare("Z", "a", .less))
        // Canonically equivalent spellings are different strings in JavaScript.
        #expect(!JavaScript.strictEquals("\u{E9}", "e\u{301}"))
    }

    @Test func truthinessFollowsJSONLogic() {
        let falsy: [JSON] = [nil, false, 0, 0.0, -0.0, "", [], .real(.nan)]
        let truthy: [JSON] = [true, 1, -1, 0.5, "0", "false", [0], [[]], .object(JSONObject()), ["a": 0]]
        for value in falsy { #expect(!value.isTruthy, "\(value)") }
        for value in truthy { #expect(value.isTruthy, "\(value)") }
    }
}
