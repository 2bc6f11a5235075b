/// A value written in a template: a literal, a variable with its path, a
/// Braze attribute, a content block or a range. Compiled once at parse.
indirect enum Expression: Sendable {
    case literal(Literal)
    /// `name.key[index]…`, looked up in the render's variables, then `data`.
    case variable(name: String, path: [PathSegment])
    /// `[expr].key…`: a variable whose name is computed.
    case computedVariable(Expression, path: [PathSegment])
    /// Braze's `${name}` and `custom_attribute.${name}`: the user's attribute.
    case attribute(name: String, path: [PathSegment])
    /// Braze's `content_blocks.${name}`: the named block, rendered.
    case contentBlock(name: String, offset: Int)
    /// `(start..end)`: integers, both ends included.
    case range(Expression, Expression, offset: Int)

    /// The expression is a literal (or a range of literals) known at parse.
    var isConstant: Bool {
        switch self {
        case .literal: return true
        case .range(let start, let end, _): return start.isConstant && end.isConstant
        default: return false
        }
    }
}

/// One step of a path: `.key` or `[expr]`.
enum PathSegment: Sendable {
    /// `.name`; `size`, `first` and `last` then also read the value's size,
    /// first or last element when it has no member of that name.
    case key(String)
    /// `[expr]`: an array index or an object key; never a command.
    case index(Expression)
}

/// A literal value of the template's text.
enum Literal: Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case float(Double)
    case string(String)
    /// The special `empty` and `blank`, which compare equal to empty (or
    /// blank) values and print as nothing.
    case empty
    case blank

    var value: Value {
        switch self {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .integer(number)
        case .float(let number): return .float(number)
        case .string(let text): return .string(text)
        case .empty: return .empty
        case .blank: return .blank
        }
    }
}

/// An expression with filters: `expr | name: arg, key: value | …`.
struct FilteredExpression: Sendable {
    var base: Expression
    var filters: [FilterCall]
}

/// One filter applied, with its arguments.
struct FilterCall: Sendable {
    var filter: Filter
    var positional: [Expression]
    var keywords: [(name: String, value: Expression)]
    /// Where the filter's name is, for errors.
    var offset: Int
}

/// A condition of `if`, `unless` and `elsif`: tests joined by `and` and
/// `or`, which group from the right with no precedence between them. Kept
/// as a flat list, so that a condition of thousands of tests is no deeper
/// to parse or evaluate than one of two.
struct Condition: Sendable {
    var first: ConditionTest
    var rest: [(join: ConditionJoin, test: ConditionTest)]
}

enum ConditionJoin: Sendable {
    case and, or
}

enum ConditionTest: Sendable {
    case truthy(Expression)
    case compare(Expression, Comparison, Expression, offset: Int)
}

enum Comparison: String, Sendable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case greater = ">"
    case lessOrEqual = "<="
    case greaterOrEqual = ">="
    case contains
}
