import BuntingRules

/// A JavaScript regular expression as the parser reads it (ECMAScript's
/// grammar without the `u` flag, with the web-compatibility rules of its
/// Annex B: a lone `]`, `{` or `}` is a character, `\8` is "8", `\c` before a
/// non-letter is a backslash, and so on).
indirect enum RegexNode: Sendable {
    case empty
    /// One UTF-16 code unit.
    case unit(UInt16)
    /// `.`: anything but a line terminator.
    case any
    case set(RegexCharacterSet)
    case lineStart
    case lineEnd
    case wordBoundary(negated: Bool)
    /// A group; `capture` numbers capturing groups from 1.
    case group(RegexNode, capture: Int?)
    case lookahead(RegexNode, negated: Bool)
    case backreference(Int)
    case sequence([RegexNode])
    case alternation([RegexNode])
    /// `max` nil for no upper bound.
    case repetition(RegexNode, min: Int, max: Int?, greedy: Bool)
}

/// A character class: its items, possibly negated.
struct RegexCharacterSet: Sendable {
    enum Item: Sendable {
        case range(UInt16, UInt16)
        case digit(negated: Bool)
        case word(negated: Bool)
        case space(negated: Bool)
    }

    var items: [Item]
    var negated: Bool

    func contains(_ unit: UInt16) -> Bool {
        var found = false
        for item in items where Self.itemContains(item, unit) {
            found = true
            break
        }
        return found != negated
    }

    private static func itemContains(_ item: Item, _ unit: UInt16) -> Bool {
        switch item {
        case .range(let low, let high): return unit >= low && unit <= high
        case .digit(let negated): return RegexUnits.isDigit(unit) != negated
        case .word(let negated): return RegexUnits.isWord(unit) != negated
        case .space(let negated): return RegexUnits.isSpace(unit) != negated
        }
    }
}

/// Why a pattern does not compile. `invalid` is a pattern JavaScript refuses
/// too (`new RegExp` throws, and the SDK's condition is false); `unsupported`
/// is valid JavaScript this matcher does not implement; `tooLong` and
/// `tooComplex` are Bunting's own bounds.
enum RegexCompileError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalid(String)
    case unsupported(String)
    case tooLong(Int, limit: Int)
    case tooComplex(limit: Int)
    case tooDeep(limit: Int)

    var description: String {
        switch self {
        case .invalid(let why): return "invalid regular expression: \(why)"
        case .unsupported(let what): return "regular expression uses \(what), which Bunting does not support"
        case .tooLong(let length, let limit):
            return "regular expression of \(length) UTF-16 code units is longer than the limit of \(limit)"
        case .tooComplex(let limit):
            return "regular expression repeats too much: it would compile to more than \(limit) instructions"
        case .tooDeep(let limit): return "regular expression nests groups deeper than \(limit) levels"
        }
    }
}

/// Character tests shared by the parser and the matcher.
enum RegexUnits {
    static func isDigit(_ unit: UInt16) -> Bool { unit >= 0x30 && unit <= 0x39 }

    static func isWord(_ unit: UInt16) -> Bool {
        (unit >= 0x61 && unit <= 0x7A) || (unit >= 0x41 && unit <= 0x5A) || isDigit(unit) || unit == 0x5F
    }

    /// `\s`: JavaScript's white space and line terminators (no surrogate is one).
    static func isSpace(_ unit: UInt16) -> Bool {
        Unicode.Scalar(unit).map(JavaScript.isWhiteSpace) ?? false
    }

    static func isLineTerminator(_ unit: UInt16) -> Bool {
        unit == 0x0A || unit == 0x0D || unit == 0x2028 || unit == 0x2029
    }
}
