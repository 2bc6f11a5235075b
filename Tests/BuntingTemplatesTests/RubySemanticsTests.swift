import BuntingJSON
import Testing
@testable import BuntingTemplates

/// The semantics of Shopify's Liquid (Ruby) that engines most often get
/// wrong, each pinned here beyond what golden-liquid checks.
@Suite struct RubySemanticsTests {
    @Test func floatsAreExactDecimalsInArithmetic() throws {
        #expect(try render("{{ 0.1 | plus: 0.2 }}") == "0.3")
        #expect(try render("{{ 1.1 | times: 3 }}") == "3.3")
        #expect(try render("{{ 9.4 | divided_by: 2.5 }}") == "3.76")
        #expect(try render("{{ 0 | times: -1.5 }}") == "-0.0")
        #expect(
            try render("{{ 2.675 | round: 2 }} {{ 2.5 | round }} {{ -2.5 | round }} {{ 1.005 | round: 2 }}")
                == "2.68 3 -3 1.01")
        #expect(try render("{{ 1234.5678 | round: -2 }} {{ 15 | round: -1 }}") == "1200 20")
    }

    @Test func integersDivideFlooredAndModuloTakesTheDivisorsSign() throws {
        #expect(try render("{{ 7 | divided_by: 2 }} {{ -7 | divided_by: 2 }} {{ 7 | divided_by: -2 }}") == "3 -4 -4")
        #expect(try render("{{ -7 | modulo: 2 }} {{ 7 | modulo: -2 }} {{ -3.6 | modulo: 2 }}") == "1 -1 0.4")
    }

    @Test func floatsPrintAsRubyPrintsThem() throws {
        #expect(RubyFloat.format(1e20) == "1.0e+20")
        #expect(RubyFloat.format(1.5e-5) == "1.5e-05")
        #expect(RubyFloat.format(0.0001) == "0.0001")
        #expect(RubyFloat.format(1e15) == "1000000000000000.0")
        #expect(RubyFloat.format(1e16) == "1.0e+16")
        #expect(RubyFloat.format(-0.0) == "-0.0")
        #expect(RubyFloat.format(5) == "5.0")
        #expect(RubyFloat.format(0.30000000000000004) == "0.30000000000000004")
    }

    @Test func numbersInTextAreReadAsRubyReadsThem() throws {
        #expect(
            try render(
                "{{ '7,42' | plus: 1 }} {{ ' 12abc' | plus: 1 }} {{ '1_000' | plus: 1 }} {{ 'x' | plus: 1 }}")
                == "8 13 1001 1")
        #expect(try render("{{ '3.5' | plus: 1 }} {{ '-2.25' | abs }}") == "4.5 2.25")
        #expect(try render("{{ 'hello' | slice: '0x1', '0b10' }}") == "el")
    }

    @Test func lengthsArePositionsInCodePoints() throws {
        // "é" written as e and a combining accent is two code points, as Ruby counts.
        #expect(
            try render(
                "{{ s | size }}|{{ s | slice: 1 }}|{{ s | truncate: 2, '' }}", data: ["s": "e\u{301}t\u{E9}"])
                == "4|\u{301}|e\u{301}")
    }

    /// Found by fuzzing: a length so negative that taking the ellipsis's
    /// length from it overflowed. Ruby keeps nothing but the ellipsis.
    @Test func truncatingToTheLeastIntegerKeepsOnlyTheEllipsis() throws {
        #expect(try render("{{ 'abcdef' | truncate: -9223372036854775808, '..' }}") == "..")
        #expect(try render("{{ 'abcdef' | truncate: -5 }}") == "...")
    }

    @Test func stringsCompareByteByByte() throws {
        // Swift would call these two equal (canonical equivalence); Ruby does not.
        #expect(
            try render(
                "{% if a == b %}same{% else %}different{% endif %}", data: ["a": "\u{E9}", "b": "e\u{301}"])
                == "different")
        #expect(try render("{% if 'B' < 'a' %}yes{% endif %}") == "yes")
    }

    @Test func onlyNilAndFalseAreFalsy() throws {
        for value: JSON in [0, "", [], [:], 0.0, "false"] {
            #expect(try render("{% if v %}T{% else %}F{% endif %}", data: ["v": value]) == "T", "\(value)")
        }
        #expect(try render("{% if v %}T{% else %}F{% endif %}", data: ["v": false]) == "F")
        #expect(try render("{% if v %}T{% else %}F{% endif %}", data: ["v": nil]) == "F")
        #expect(try render("{% if nosuch %}T{% else %}F{% endif %}") == "F")
    }

    @Test func andAndOrGroupFromTheRight() throws {
        // true and (false and (false or true)) is false; left to right it would be true.
        #expect(try render("{% if true and false and false or true %}T{% else %}F{% endif %}") == "F")
        // An `and` after a false test stops before an error further on.
        #expect(try render("{% if false and 'a' > 1 %}T{% else %}F{% endif %}") == "F")
    }

    @Test func arraysPrintFlattenedAndInspectedInStringFilters() throws {
        #expect(try render("{{ a }}", data: ["a": [1, [2, 3], nil, "s"]]) == "123s")
        #expect(try render("{{ a | append: '' }}", data: ["a": [1, "s", nil]]) == "[1, \"s\", nil]")
        #expect(try render("{{ h }}", data: ["h": ["a": 1, "b": "#{x}"]]) == "{\"a\"=>1, \"b\"=>\"\\#{x}\"}")
        #expect(try render("{{ 5 | size }}") == "8")
    }

    @Test func forLoopsContinueWhereTheLastOfTheSameNameStopped() throws {
        let template =
            "{% for i in (1..6) limit: 2 %}{{ i }}{% endfor %}-{% for i in (1..6) offset: continue "
            + "limit: 2 %}{{ i }}{% endfor %}-{% for i in (1..6) offset: continue %}{{ i }}{% endfor %}"
        #expect(try render(template) == "12-34-56")
        #expect(
            try render("{% for x in h %}{{ x[0] }}={{ x[1] }};{% endfor %}", data: ["h": ["a": 1, "b": 2]])
                == "a=1;b=2;")
        #expect(try render("{% for x in 'abc' %}[{{ x }}]{% endfor %}") == "[abc]")
    }
}
