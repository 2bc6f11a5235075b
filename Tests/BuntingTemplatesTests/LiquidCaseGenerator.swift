import BuntingJSON

/// Templates and data generated from a seed, for the differential test
/// against python-liquid: every tag and most filters of Bunting's subset,
/// typed so that each filter gets the kind of value it is written for, and
/// staying out of the places where python-liquid and Shopify's Liquid are
/// known to differ (`KnownDivergence` lists them; the test checks each).
struct LiquidCaseGenerator {
    enum Kind: CaseIterable {
        case string, int, float, bool, strings, ints, objects
    }

    var random: SeededGenerator
    /// Variables assigned so far in the template being made, by kind.
    private var assigned: [(name: String, kind: Kind)] = []
    private var loopVariables: [(name: String, kind: Kind)] = []
    private var depth = 0

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    // MARK: - Data

    static let stringPool: [String] = [
        "hello", "Hello World", "", " padded ", "a,b,c", "é café", "straße", "<b>bold</b> text", "x-y-z",
        "one two three four five", "42", "3.5", "-7", "abc", "line\nbreak", "tab\there", "ÉCOLE", "a  b",
    ]
    /// Floats with no exact half at 0–2 places, whose rounding both engines agree on.
    static let floatPool: [Double] = [1.3, 2.7, -3.6, 0.4, 10.12, 3.14159, 2.71828, 7.0, -0.2, 99.99, 12.375001]

    mutating func data() -> JSON {
        var object = JSONObject()
        for name in ["s1", "s2", "s3"] { object[name] = .string(random.pick(Self.stringPool)) }
        for name in ["i1", "i2", "i3"] { object[name] = .integer(Int64(random.int(-20...40))) }
        for name in ["f1", "f2"] { object[name] = .real(random.pick(Self.floatPool)) }
        object["b1"] = .bool(random.chance(0.5))
        object["n1"] = .null
        var strings: [JSON] = []
        // Never empty: `arr_s.first` and `arr_s[1]` are then never nil
        // (KnownDivergence.nilThroughStringFilters).
        for _ in 0..<random.int(2...5) { strings.append(.string(random.pick(Self.stringPool))) }
        object["arr_s"] = .array(strings)
        var integers: [JSON] = []
        for _ in 0..<random.int(1...6) { integers.append(.integer(Int64(random.int(-9...30)))) }
        object["arr_i"] = .array(integers)
        var members: [JSON] = []
        for _ in 0..<random.int(1...4) {
            var member = JSONObject()
            member["name"] = .string(random.pick(["ada", "Bob", "cy", "Dee", "eve"]))
            member["age"] = .integer(Int64(random.int(1...90)))
            member["tag"] = random.chance(0.3) ? JSON.null : JSON.string(random.pick(["a", "b", "c"]))
            members.append(.object(member))
        }
        object["arr_o"] = .array(members)
        var nested = JSONObject()
        nested["name"] = .string(random.pick(Self.stringPool))
        nested["count"] = .integer(Int64(random.int(0...12)))
        var inner = JSONObject()
        inner["k"] = .string(random.pick(["v", "w"]))
        nested["inner"] = .object(inner)
        object["obj"] = .object(nested)
        return .object(object)
    }

    // MARK: - Templates

    mutating func template() -> String {
        assigned = []
        loopVariables = []
        depth = 0
        var text = ""
        for _ in 0..<random.int(1...6) { text += segment() }
        // Never whitespace last (KnownDivergence.finalNewlineAfterTrim).
        return text + "|"
    }

    private mutating func body() -> String {
        var text = ""
        for _ in 0..<random.int(0...3) { text += segment() }
        return text
    }

    private mutating func segment() -> String {
        if depth >= 3 { return random.chance(0.5) ? plainText() : output() }
        switch random.int(0...19) {
        case 0...3: return plainText()
        case 4...8: return output()
        case 9, 10: return conditional()
        case 11: return caseBlock()
        case 12, 13: return forLoop()
        case 14: return assign()
        case 15: return capture()
        case 16:
            let options = [
                "{% raw %}{{ not rendered }} {% if %}{% endraw %}", "{% comment %}hidden {{ x }}{% endcomment %}",
                "{% # a note %}",
            ]
            return random.pick(options)
        case 17:
            // Now and then a template that fails, to parse or to render: both
            // must refuse it. Only where it is reached: Bunting refuses an
            // unknown filter or a wrong argument count at parse even in a
            // branch never taken (KnownDivergence.filterCheckedAtParse).
            if depth == 0, random.chance(0.15) {
                return random.pick([
                    "{{ i1 | divided_by: 0 }}", "{% if s1 > 1 %}x{% endif %}", "{{ s1 | nope }}", "{% if i1 %}unclosed",
                    "{{ 'a' | append }}", "{% for x in %}{% endfor %}", "{{ arr_i | where: 'x' }}", "{% assign = 1 %}",
                ])
            }
            return liquidTag()
        case 18:
            let name = "ctr\(random.int(1...2))"
            let tag: String = random.chance(0.5) ? "increment" : "decrement"
            return "{% " + tag + " " + name + " %}"
        default: return loopVariables.isEmpty ? output() : "{% cycle 'x', 'y', 'z' %}"
        }
    }

    /// Text; inside blocks never whitespace alone, since python-liquid
    /// drops the whitespace of a blank branch even when a sibling branch
    /// prints (KnownDivergence.blankBranchWhitespace).
    private mutating func plainText() -> String {
        if depth > 0 { return random.pick(["Hi ", "Total: ", "é", "!", "-", "a", "(", ")", " x\n"]) }
        return random.pick(["Hi ", " ", "\n", "Total: ", "é", "!", "  \n  ", "-", "a", "(", ")"])
    }

    private mutating func open(_ tag: String) -> String {
        let start: String = random.chance(0.15) ? "{%- " : "{% "
        let end: String = random.chance(0.15) ? " -%}" : " %}"
        return start + tag + end
    }

    /// `text` with the given probability, else nothing.
    private mutating func maybe(_ probability: Double, _ text: String) -> String {
        random.chance(probability) ? text : ""
    }

    private mutating func output() -> String {
        let (text, _) = outputExpression()
        let open: String = random.chance(0.15) ? "{{- " : "{{ "
        let close: String = random.chance(0.15) ? " -}}" : " }}"
        return open + text + close
    }

    /// An expression with filters whose value prints the same in both engines.
    private mutating func outputExpression() -> (String, Kind) {
        var (text, kind) = filtered(random.pick(Kind.allCases))
        switch kind {
        case .objects:
            text += " | map: 'name' | join: ', '"
            kind = .string
        case .ints where !text.contains("|"):
            // A range (also in a variable) prints as `1..5`, an empty one
            // differently in python-liquid (KnownDivergence.emptyRangeText).
            text += " | join: ','"
            kind = .string
        default:
            break
        }
        return (text, kind)
    }

    private mutating func filtered(_ start: Kind) -> (String, Kind) {
        var kind = start
        var text = base(kind)
        if kind == .string, random.chance(0.08) {
            // Longer than any length asked for (KnownDivergence.truncateExactLength).
            let ellipsis: String = random.pick(["", ", '!'", ", ''", ", '--'"])
            text =
                random.chance(0.5)
                ? "'the quick brown fox jumps over the lazy dog' | truncatewords: \(random.int(1...8))" + ellipsis
                : "'the quick brown fox jumps over the lazy dog' | truncate: \(random.int(3...40))" + ellipsis
        }
        // Only data's floats are rounded: a computed one may sit exactly
        // halfway, where the two engines round differently (KnownDivergence).
        let isFloatBase = kind == .float && (text == "f1" || text == "f2" || Double(text) != nil)
        for position in 0..<random.int(0...3) {
            if kind == .float, isFloatBase, position == 0, random.chance(0.3) {
                let places = random.int(0...2)
                if random.chance(0.6) {
                    text += " | round: \(places)"
                    kind = places == 0 ? .int : .float
                } else {
                    text += " | round"
                    kind = .int
                }
                continue
            }
            // Booleans stay out of filters (KnownDivergence.booleanText).
            if kind == .bool { break }
            let (filter, result) = kind == .string ? stringFilter(first: position == 0) : self.filter(for: kind)
            text += " | " + filter
            kind = result
        }
        return (text, kind)
    }

    private mutating func base(_ kind: Kind) -> String {
        let variables = (assigned + loopVariables).filter { $0.kind == kind }.map(\.name)
        if !variables.isEmpty, random.chance(0.3) { return random.pick(variables) }
        switch kind {
        case .string:
            let options = [
                "s1", "s2", "s3", "obj.name", "arr_o[0].name", "arr_s[1]", "arr_s.first", "arr_s.last", "obj.inner.k",
                stringLiteral(),
            ]
            return random.pick(options)
        case .int:
            let options = [
                "i1", "i2", "i3", "obj.count", "arr_i[0]", "arr_i[-1]", "arr_i.size", "arr_s.size", "s1.size",
                "\(random.int(-9...30))",
            ]
            return random.pick(options)
        case .float:
            let options = ["f1", "f2", "\(random.pick(Self.floatPool))"]
            return random.pick(options)
        case .bool:
            return random.pick(["b1", "true", "false"])
        case .strings:
            return "arr_s"
        case .ints:
            let options = ["arr_i", "(1..\(random.int(0...6)))", "(i1..i2)"]
            return random.pick(options)
        case .objects:
            return "arr_o"
        }
    }

    private mutating func stringLiteral() -> String {
        random.pick([
            "'hello'", "'World'", "'a,b'", "''", "'x y z'", "\"double\"", "'café'", "'<i>x</i>'", "'12'", "'2.5'",
        ])
    }

    private mutating func smallInt() -> String { "\(random.int(-9...9))" }

    private mutating func numberArgument() -> String {
        random.chance(0.7) ? smallInt() : "\(random.pick(Self.floatPool))"
    }

    /// A filter for a value of `kind`, and the kind it gives.
    private mutating func filter(for kind: Kind) -> (String, Kind) {
        switch kind {
        case .string: return stringFilter(first: false)
        case .int, .float: return numberFilter(kind)
        case .bool:
            // Not through string filters (KnownDivergence.booleanText).
            return ("default: 'no'", .string)
        case .strings:
            switch random.int(0...9) {
            case 0:
                let glue: String = random.pick([", ", "-", "", " "])
                return ("join: '" + glue + "'", .string)
            case 1: return ("first", .string)
            case 2: return ("last", .string)
            case 3: return ("size", .int)
            case 4:
                // Not sort_natural: the pool's accented words (KnownDivergence.sortNaturalFoldsASCII).
                let name: String = random.pick(["reverse", "sort", "uniq", "compact"])
                return (name, .strings)
            case 5: return ("concat: arr_s", .strings)
            case 6: return ("join", .string)
            default:
                let name: String = random.pick(["sort", "reverse", "uniq"])
                return (name, .strings)
            }
        case .ints:
            switch random.int(0...7) {
            case 0: return ("join: '+'", .string)
            case 1:
                let name: String = random.pick(["first", "last"])
                return (name, .int)
            case 2: return ("size", .int)
            case 3: return ("sum", .int)
            case 4:
                let name: String = random.pick(["reverse", "sort", "uniq"])
                return (name, .ints)
            case 5: return ("concat: arr_i", .ints)
            default: return ("join: ','", .string)
            }
        case .objects:
            switch random.int(0...5) {
            case 0: return ("map: 'name'", .strings)
            case 1: return ("where: 'tag'", .objects)
            case 2:
                let tag: String = random.pick(["a", "b"])
                return ("where: 'tag', '" + tag + "'", .objects)
            case 3: return ("reject: 'tag', 'a'", .objects)
            case 4: return ("sort: 'age'", .objects)
            default: return ("map: 'age'", .ints)
            }
        }
    }

    /// Numbers are read from a string only as the first filter, where the
    /// string is data's (a number or no digits at all): a computed `'35 pts'`
    /// reads as 35 in Ruby, 0 in python-liquid (KnownDivergence.leadingDigits).
    private mutating func stringFilter(first: Bool) -> (String, Kind) {
        switch random.int(0...22) {
        case 0: return ("upcase", .string)
        case 1: return ("downcase", .string)
        case 2: return ("capitalize", .string)
        case 3: return ("append: " + stringLiteral(), .string)
        case 4:
            let argument: String = random.chance(0.5) ? "s2" : stringLiteral()
            return ("prepend: " + argument, .string)
        case 5:
            let pattern: String = random.pick(["a", "l", "o", " ", "é"])
            return ("remove: '" + pattern + "'", .string)
        case 6:
            let pattern: String = random.pick(["a", "l", "o", " ", ","])
            let replacement: String = random.pick(["_", "", "AB"])
            return ("replace: '" + pattern + "', '" + replacement + "'", .string)
        case 7:
            let name: String = random.pick([
                "replace_first: 'l', 'L'", "replace_last: 'o', '0'", "remove_first: ' '", "remove_last: 'e'",
            ])
            return (name, .string)
        case 8:
            let name: String = random.pick(["strip", "lstrip", "rstrip"])
            return (name, .string)
        case 9:
            let name: String = random.pick(["strip_html", "strip_newlines", "newline_to_br"])
            return (name, .string)
        case 10:
            return ("lstrip", .string)
        case 11:
            return ("strip", .string)
        case 12:
            // Not before the beginning (KnownDivergence.sliceBeforeTheStart).
            let start = random.int(-1...5)
            let length = "\(random.int(0...4))"
            return ("slice: \(start)" + maybe(0.6, ", " + length), .string)
        case 13:
            let name: String = random.pick(["url_encode", "escape_once", "base64_encode", "base64_url_safe_encode"])
            return (name, .string)
        case 14: return ("escape", .string)
        case 15: return ("size", .int)
        case 16: return ("default: " + stringLiteral(), .string)
        case 17:
            let pattern: String = random.pick([",", " ", "", "l"])
            return ("split: '" + pattern + "'", .strings)
        case 18 where first:
            let options = ["plus: " + numberArgument(), "minus: " + numberArgument(), "times: " + smallInt()]
            return (random.pick(options), .float)
        default:
            let options: [(String, Kind)] = [("upcase", .string), ("append: '!'", .string), ("size", .int)]
            return random.pick(options)
        }
    }

    /// An integer stays one with an integer argument; modulo only between
    /// integers (KnownDivergence.floatModulo).
    private mutating func numberFilter(_ kind: Kind) -> (String, Kind) {
        let integerArgument = random.chance(0.7)
        let argument: String = integerArgument ? smallInt() : "\(random.pick(Self.floatPool))"
        let result: Kind = kind == .int && integerArgument ? .int : .float
        switch random.int(0...11) {
        case 0: return ("plus: " + argument, result)
        case 1: return ("minus: " + argument, result)
        case 2: return ("times: " + argument, result)
        case 3 where kind == .int && integerArgument:
            let divisor: String = random.pick(["1", "2", "3", "7", "-2", "-5"])
            return ("divided_by: " + divisor, .int)
        case 3:
            // Powers of two only: python-liquid divides floats in binary,
            // Ruby in decimal (KnownDivergence.floatDivision).
            let divisor: String = random.pick(["2", "-2", "4", "0.5", "2.0"])
            return ("divided_by: " + divisor, .float)
        case 4 where kind == .int:
            let divisor: String = random.pick(["2", "3", "7", "-2", "-5"])
            return ("modulo: " + divisor, .int)
        case 5: return ("abs", kind)
        case 6:
            let name: String = random.pick(["ceil", "floor"])
            return (name, .int)
        case 7: return ("at_least: " + argument, result)
        case 8: return ("at_most: " + argument, result)
        case 9: return ("default: 0", kind)
        case 10: return ("append: ' pts'", .string)
        default: return ("plus: " + smallInt(), kind)
        }
    }

    // MARK: - Conditions

    private mutating func condition() -> String {
        var text = simpleCondition()
        for probability in [0.3, 0.1] where random.chance(probability) {
            let joiner: String = random.pick([" and ", " or "])
            text += joiner + simpleCondition()
        }
        return text
    }

    private mutating func simpleCondition() -> String {
        switch random.int(0...9) {
        case 0, 1:
            let comparison: String = random.pick(["==", "!=", "<", ">", "<=", ">="])
            return base(.int) + " " + comparison + " " + base(.int)
        case 2:
            let comparison: String = random.pick(["<", ">", "==", "!="])
            return base(.float) + " " + comparison + " " + base(.int)
        case 3:
            let comparison: String = random.pick(["==", "!="])
            return base(.string) + " " + comparison + " " + base(.string)
        case 4:
            let needle: String = random.pick(["a", "l", "é", " "])
            return base(.string) + " contains '" + needle + "'"
        case 5: return "arr_s contains " + base(.string)
        case 6: return random.pick(["b1", "n1", "s1", "nosuch", "arr_o", "true", "false"])
        case 7:
            let subject: String = random.pick(["s1", "arr_s", "arr_o", "obj", "s3"])
            let comparison: String = random.pick(["==", "!="])
            return subject + " " + comparison + " empty"
        case 8:
            let comparison: String = random.pick(["<", ">="])
            return base(.string) + " " + comparison + " " + base(.string)
        default:
            let comparison: String = random.pick(["<", ">"])
            return "i1 " + comparison + " \(random.int(-5...25))"
        }
    }

    // MARK: - Tags

    private mutating func conditional() -> String {
        depth += 1
        defer { depth -= 1 }
        let unless = random.chance(0.25)
        let name: String = unless ? "unless" : "if"
        var text = open(name + " " + condition()) + body()
        if random.chance(0.4) { text += open("elsif " + condition()) + body() }
        if random.chance(0.5) { text += open("else") + body() }
        return text + open("end" + name)
    }

    private mutating func caseBlock() -> String {
        depth += 1
        defer { depth -= 1 }
        let isInteger = random.chance(0.5)
        let subject = base(isInteger ? .int : .string)
        var text = open("case " + subject)
        for _ in 0..<random.int(1...3) {
            var values: [String] = []
            for _ in 0..<random.int(1...2) {
                values.append(
                    isInteger ? "\(random.int(-3...12))" : random.pick(["'hello'", "'abc'", "''", "'42'", "'x-y-z'"]))
            }
            let separator: String = random.pick([", ", " or "])
            text += open("when " + values.joined(separator: separator)) + body()
        }
        if random.chance(0.5) { text += open("else") + body() }
        return text + open("endcase")
    }

    private mutating func forLoop() -> String {
        depth += 1
        defer { depth -= 1 }
        let range = "(1..\(random.int(0...5)))"
        let collections: [(String, Kind)] = [
            ("arr_s", .string), ("arr_i", .int), ("arr_o", .objects), (range, .int), ("(i1..i2)", .int),
        ]
        let (collection, element) = random.pick(collections)
        let name = "item\(depth)"
        var header = "for " + name + " in " + collection
        if random.chance(0.2) { header += " reversed" }
        // Not `limit: 0` (KnownDivergence.limitZero).
        if random.chance(0.3) { header += " limit: \(random.int(1...4))" }
        if random.chance(0.3) { header += " offset: \(random.int(0...3))" }
        var inner = element == .objects ? "{{ " + name + ".name }}" : "{{ " + name + " }}"
        let extras = [
            "{{ forloop.index }}", "{{ forloop.rindex0 }}", "{% if forloop.first %}^{% endif %}",
            "{% unless forloop.last %},{% endunless %}",
            "{{ forloop.length }}",
        ]
        if random.chance(0.5) { inner += random.pick(extras) }
        if random.chance(0.2) {
            let test: String = element == .int ? name + " > 2" : "forloop.index == 2"
            let interrupt: String = random.pick(["break", "continue"])
            inner += "{% if " + test + " %}{% " + interrupt + " %}{% endif %}"
        }
        if element != .objects { loopVariables.append((name, element)) }
        inner += body()
        if element != .objects { loopVariables.removeLast() }
        var text = open(header) + inner
        if random.chance(0.3) { text += open("else") + "none" }
        return text + open("endfor")
    }

    private mutating func assign() -> String {
        let kinds: [Kind] = [.string, .int, .float, .strings, .ints]
        let (expression, kind) = filtered(random.pick(kinds))
        let name = "v\(assigned.count + 1)"
        assigned.append((name, kind))
        return open("assign " + name + " = " + expression)
    }

    private mutating func capture() -> String {
        depth += 1
        defer { depth -= 1 }
        let name = "c\(assigned.count + 1)"
        let text = open("capture " + name) + body() + open("endcapture")
        assigned.append((name, .string))
        return text
    }

    private mutating func liquidTag() -> String {
        let (expression, kind) = outputExpression()
        let name = "l\(assigned.count + 1)"
        assigned.append((name, kind))
        // Not `== empty` on a computed value: nil through `escape` stays nil in
        // Ruby, '' in python-liquid (KnownDivergence.nilThroughStringFilters).
        return "{% liquid\n  assign " + name + " = " + expression + "\n  echo " + name + "\n  if " + name + " != nil\n "
            + "   echo '#'\n  endif\n%}"
    }
}
