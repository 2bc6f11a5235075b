/// Parses a JavaScript pattern (no flags but `i`, which the matcher applies)
/// into a `RegexNode`, refusing what `new RegExp` refuses.
struct RegexParser {
    private let units: [UInt16]
    private var position = 0
    /// Capturing groups in the whole pattern: a `\N` up to this count is a
    /// back-reference, a larger one an octal escape or a digit (Annex B).
    private let captureCount: Int
    private let groupNames: [[UInt16]]
    private var nextCapture = 1
    private var namedCaptures: [[UInt16]: Int] = [:]
    /// `\k<name>` seen before its group: resolved once all groups are known.
    private var pendingNames: [[UInt16]] = []
    /// Groups open at `position`: bounded, so that parsing and compiling
    /// (both recursive) stay shallow on any thread's stack.
    private var depth = 0
    static let maxDepth = 64

    init(_ pattern: [UInt16]) {
        units = pattern
        (captureCount, groupNames) = Self.scanGroups(pattern)
    }

    static func parse(_ pattern: [UInt16]) throws(RegexCompileError) -> (node: RegexNode, captureCount: Int) {
        var parser = RegexParser(pattern)
        let node = try parser.parseDisjunction()
        if parser.position < parser.units.count {
            // Only an unmatched `)` stops a top-level disjunction early.
            throw .invalid("unmatched ')'")
        }
        for name in parser.pendingNames where parser.namedCaptures[name] == nil {
            throw .invalid("invalid named capture referenced")
        }
        return (parser.resolveNames(node), parser.captureCount)
    }

    // MARK: - Grammar

    private mutating func parseDisjunction() throws(RegexCompileError) -> RegexNode {
        var alternatives = [try parseAlternative()]
        while peek() == ascii("|") {
            position += 1
            alternatives.append(try parseAlternative())
        }
        return alternatives.count == 1 ? alternatives[0] : .alternation(alternatives)
    }

    private mutating func parseAlternative() throws(RegexCompileError) -> RegexNode {
        var terms: [RegexNode] = []
        while let unit = peek(), unit != ascii("|"), unit != ascii(")") {
            terms.append(try parseTerm())
        }
        switch terms.count {
        case 0: return .empty
        case 1: return terms[0]
        default: return .sequence(terms)
        }
    }

    private mutating func parseTerm() throws(RegexCompileError) -> RegexNode {
        let unit = units[position]
        var atom: RegexNode
        var quantifiable = true
        switch unit {
        case ascii("^"):
            position += 1
            atom = .lineStart
            quantifiable = false
        case ascii("$"):
            position += 1
            atom = .lineEnd
            quantifiable = false
        case ascii("\\") where peek(1) == ascii("b") || peek(1) == ascii("B"):
            atom = .wordBoundary(negated: units[position + 1] == ascii("B"))
            position += 2
            quantifiable = false
        case ascii("("):
            atom = try parseGroup()
        case ascii("["):
            atom = .set(try parseClass())
        case ascii("."):
            position += 1
            atom = .any
        case ascii("*"), ascii("+"), ascii("?"):
            throw .invalid("nothing to repeat")
        case ascii("{"):
            if quantifierBounds(at: position) != nil { throw .invalid("nothing to repeat") }
            position += 1
            atom = .unit(unit)
        case ascii("\\"):
            atom = try parseAtomEscape()
        default:
            position += 1
            atom = .unit(unit)
        }
        guard let (min, max, length) = quantifier(at: position) else { return atom }
        guard quantifiable else { throw .invalid("nothing to repeat") }
        if let max, max < min { throw .invalid("numbers out of order in {} quantifier") }
        position += length
        var greedy = true
        if peek() == ascii("?") {
            greedy = false
            position += 1
        }
        return .repetition(atom, min: min, max: max, greedy: greedy)
    }

    private mutating func parseGroup() throws(RegexCompileError) -> RegexNode {
        position += 1
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { throw .tooDeep(limit: Self.maxDepth) }
        var capture: Int?
        var lookahead: Bool?
        if peek() == ascii("?") {
            switch peek(1) {
            case ascii(":"):
                position += 2
            case ascii("="), ascii("!"):
                lookahead = peek(1) == ascii("!")
                position += 2
            case ascii("<") where peek(2) == ascii("=") || peek(2) == ascii("!"):
                throw .unsupported("a lookbehind assertion")
            case ascii("<"):
                position += 2
                let name = try parseGroupName()
                guard namedCaptures[name] == nil else { throw .invalid("duplicate capture group name") }
                capture = nextCapture
                namedCaptures[name] = nextCapture
                nextCapture += 1
            default:
                throw .invalid("invalid group")
            }
        } else {
            capture = nextCapture
            nextCapture += 1
        }
        let body = try parseDisjunction()
        guard peek() == ascii(")") else { throw .invalid("unterminated group") }
        position += 1
        if let negated = lookahead { return .lookahead(body, negated: negated) }
        return .group(body, capture: capture)
    }

    /// `name>` after `(?<` or `\k<`: an identifier.
    private mutating func parseGroupName() throws(RegexCompileError) -> [UInt16] {
        var name: [UInt16] = []
        while let unit = peek(), unit != ascii(">") {
            guard isIdentifierUnit(unit, first: name.isEmpty) else { throw .invalid("invalid capture group name") }
            name.append(unit)
            position += 1
        }
        guard peek() == ascii(">"), !name.isEmpty else { throw .invalid("invalid capture group name") }
        position += 1
        return name
    }

    private func isIdentifierUnit(_ unit: UInt16, first: Bool) -> Bool {
        if unit == ascii("$") || unit == ascii("_") { return true }
        if (unit >= ascii("a") && unit <= ascii("z")) || (unit >= ascii("A") && unit <= ascii("Z")) { return true }
        if !first && RegexUnits.isDigit(unit) { return true }
        guard unit >= 0x80, let scalar = Unicode.Scalar(unit) else { return false }
        return first ? scalar.properties.isIDStart : scalar.properties.isIDContinue
    }

    // MARK: - Escapes

    private mutating func parseAtomEscape() throws(RegexCompileError) -> RegexNode {
        position += 1
        guard let unit = peek() else { throw .invalid("\\ at end of pattern") }
        switch unit {
        case ascii("d"), ascii("D"):
            position += 1
            return .set(RegexCharacterSet(items: [.digit(negated: unit == ascii("D"))], negated: false))
        case ascii("w"), ascii("W"):
            position += 1
            return .set(RegexCharacterSet(items: [.word(negated: unit == ascii("W"))], negated: false))
        case ascii("s"), ascii("S"):
            position += 1
            return .set(RegexCharacterSet(items: [.space(negated: unit == ascii("S"))], negated: false))
        case ascii("1")...ascii("9"):
            let start = position
            var value = 0
            while let digit = peek(), RegexUnits.isDigit(digit) {
                value = min(value * 10 + Int(digit - ascii("0")), 1_000_000)
                position += 1
            }
            if value <= captureCount { return .backreference(value) }
            position = start
            if unit >= ascii("8") {
                position += 1
                return .unit(unit)
            }
            return .unit(parseLegacyOctal())
        case ascii("k") where !groupNames.isEmpty:
            position += 1
            guard peek() == ascii("<") else { throw .invalid("invalid named reference") }
            position += 1
            let name = try parseGroupName()
            pendingNames.append(name)
            // Numbered once every group is known (a reference may come first).
            return .backreference(-1 - (pendingNames.count - 1))
        default:
            return .unit(try parseCharacterEscape(inClass: false))
        }
    }

    /// The escapes that stand for one code unit, inside or outside a class;
    /// `position` is at the character after the backslash.
    private mutating func parseCharacterEscape(inClass: Bool) throws(RegexCompileError) -> UInt16 {
        let unit = units[position]
        position += 1
        switch unit {
        case ascii("f"): return 0x0C
        case ascii("n"): return 0x0A
        case ascii("r"): return 0x0D
        case ascii("t"): return 0x09
        case ascii("v"): return 0x0B
        case ascii("b") where inClass: return 0x08
        case ascii("c"):
            if let next = peek(), isASCIILetter(next) || (inClass && (RegexUnits.isDigit(next) || next == ascii("_"))) {
                position += 1
                return next % 32
            }
            // Annex B: a backslash, and the `c` is read again as itself.
            position -= 1
            return ascii("\\")
        case ascii("0"):
            if let next = peek(), RegexUnits.isDigit(next) {
                position -= 1
                return next >= ascii("8") ? advance(returning: 0) : parseLegacyOctal()
            }
            return 0
        case ascii("1")...ascii("9") where inClass:
            if unit >= ascii("8") { return unit }
            position -= 1
            return parseLegacyOctal()
        case ascii("x"):
            if let value = hexValue(count: 2) { return value }
            return unit
        case ascii("u"):
            if let value = hexValue(count: 4) { return value }
            return unit
        default:
            return unit
        }
    }

    private mutating func advance(returning value: UInt16) -> UInt16 {
        position += 1
        return value
    }

    /// Annex B's legacy octal escape at `position`: up to three octal digits
    /// worth at most 0o377.
    private mutating func parseLegacyOctal() -> UInt16 {
        var value: UInt16 = 0
        var digits = 0
        while let unit = peek(), unit >= ascii("0"), unit <= ascii("7"), digits < 3 {
            let next = value * 8 + (unit - ascii("0"))
            if next > 0o377 { break }
            value = next
            digits += 1
            position += 1
        }
        return value
    }

    private mutating func hexValue(count: Int) -> UInt16? {
        guard position + count <= units.count else { return nil }
        var value: UInt16 = 0
        for offset in 0..<count {
            guard let digit = hexDigit(units[position + offset]) else { return nil }
            value = value << 4 | digit
        }
        position += count
        return value
    }

    private func hexDigit(_ unit: UInt16) -> UInt16? {
        switch unit {
        case ascii("0")...ascii("9"): return unit - ascii("0")
        case ascii("a")...ascii("f"): return unit - ascii("a") + 10
        case ascii("A")...ascii("F"): return unit - ascii("A") + 10
        default: return nil
        }
    }

    // MARK: - Classes

    private mutating func parseClass() throws(RegexCompileError) -> RegexCharacterSet {
        position += 1
        var set = RegexCharacterSet(items: [], negated: false)
        if peek() == ascii("^") {
            set.negated = true
            position += 1
        }
        while true {
            guard let unit = peek() else { throw .invalid("unterminated character class") }
            if unit == ascii("]") {
                position += 1
                return set
            }
            let low = try parseClassAtom()
            if peek() == ascii("-"), let after = peek(1), after != ascii("]") {
                position += 1
                let high = try parseClassAtom()
                switch (low, high) {
                case (.unit(let from), .unit(let to)):
                    guard from <= to else { throw .invalid("range out of order in character class") }
                    set.items.append(.range(from, to))
                default:
                    // Annex B: a class escape at either end makes the dash a character.
                    for atom in [low, .unit(ascii("-")), high] { set.items.append(atom.item) }
                }
            } else {
                set.items.append(low.item)
            }
        }
    }

    private enum ClassAtom {
        case unit(UInt16)
        case escape(RegexCharacterSet.Item)

        var item: RegexCharacterSet.Item {
            switch self {
            case .unit(let unit): return .range(unit, unit)
            case .escape(let item): return item
            }
        }
    }

    private mutating func parseClassAtom() throws(RegexCompileError) -> ClassAtom {
        let unit = units[position]
        guard unit == ascii("\\") else {
            position += 1
            return .unit(unit)
        }
        position += 1
        guard let escaped = peek() else { throw .invalid("\\ at end of pattern") }
        switch escaped {
        case ascii("d"), ascii("D"):
            position += 1
            return .escape(.digit(negated: escaped == ascii("D")))
        case ascii("w"), ascii("W"):
            position += 1
            return .escape(.word(negated: escaped == ascii("W")))
        case ascii("s"), ascii("S"):
            position += 1
            return .escape(.space(negated: escaped == ascii("S")))
        case ascii("-"):
            position += 1
            return .unit(escaped)
        default:
            return .unit(try parseCharacterEscape(inClass: true))
        }
    }

    // MARK: - Quantifiers

    /// The quantifier at `index`, if one starts there: (min, max, length).
    private func quantifier(at index: Int) -> (Int, Int?, Int)? {
        guard index < units.count else { return nil }
        switch units[index] {
        case ascii("*"): return (0, nil, 1)
        case ascii("+"): return (1, nil, 1)
        case ascii("?"): return (0, 1, 1)
        case ascii("{"): return quantifierBounds(at: index)
        default: return nil
        }
    }

    /// `{n}`, `{n,}` or `{n,m}` at `index`; nil when the brace starts none
    /// (it is then a character). Huge counts saturate: JavaScript accepts
    /// them, and no match can use more repetitions than the text is long.
    private func quantifierBounds(at index: Int) -> (Int, Int?, Int)? {
        var cursor = index + 1
        func number() -> Int? {
            var value: Int?
            while cursor < units.count, RegexUnits.isDigit(units[cursor]) {
                value = min((value ?? 0) * 10 + Int(units[cursor] - 0x30), Self.saturatedCount)
                cursor += 1
            }
            return value
        }
        guard let low = number() else { return nil }
        var high: Int? = low
        if cursor < units.count, units[cursor] == ascii(",") {
            cursor += 1
            high = number()
        }
        guard cursor < units.count, units[cursor] == ascii("}") else { return nil }
        return (low, high, cursor + 1 - index)
    }

    static let saturatedCount = 1 << 30

    // MARK: - Helpers

    private func peek(_ offset: Int = 0) -> UInt16? {
        position + offset < units.count ? units[position + offset] : nil
    }

    private func ascii(_ character: Unicode.Scalar) -> UInt16 { UInt16(character.value) }

    private func isASCIILetter(_ unit: UInt16) -> Bool {
        (unit >= 0x41 && unit <= 0x5A) || (unit >= 0x61 && unit <= 0x7A)
    }

    /// Counts capturing groups and collects group names in one pass over the
    /// pattern, skipping escapes and classes.
    private static func scanGroups(_ units: [UInt16]) -> (Int, [[UInt16]]) {
        var count = 0
        var names: [[UInt16]] = []
        var index = 0
        var inClass = false
        while index < units.count {
            let unit = units[index]
            if unit == 0x5C {
                index += 2
                continue
            }
            if inClass {
                if unit == 0x5D { inClass = false }
            } else if unit == 0x5B {
                inClass = true
            } else if unit == 0x28 {
                if index + 1 < units.count, units[index + 1] == 0x3F {
                    if index + 2 < units.count, units[index + 2] == 0x3C, index + 3 < units.count,
                        units[index + 3] != 0x3D, units[index + 3] != 0x21
                    {
                        count += 1
                        var end = index + 3
                        while end < units.count, units[end] != 0x3E { end += 1 }
                        names.append(Array(units[(index + 3)..<min(end, units.count)]))
                    }
                } else {
                    count += 1
                }
            }
            index += 1
        }
        return (count, names)
    }

    /// Replaces the placeholders of `\k<name>` by the groups' numbers.
    private func resolveNames(_ node: RegexNode) -> RegexNode {
        guard !pendingNames.isEmpty else { return node }
        switch node {
        case .backreference(let number) where number < 0:
            return .backreference(namedCaptures[pendingNames[-1 - number]] ?? 0)
        case .group(let body, let capture): return .group(resolveNames(body), capture: capture)
        case .lookahead(let body, let negated): return .lookahead(resolveNames(body), negated: negated)
        case .sequence(let nodes): return .sequence(nodes.map(resolveNames))
        case .alternation(let nodes): return .alternation(nodes.map(resolveNames))
        case .repetition(let body, let min, let max, let greedy):
            return .repetition(resolveNames(body), min: min, max: max, greedy: greedy)
        default: return node
        }
    }
}
