import BuntingJSON

/// A compiled JSONLogic rule: operators resolved to cases, literal arguments
/// folded, paths split. Built once by `Compiler`, walked by `Interpreter`.
indirect enum Node: Sendable {
    case literal(JSON)
    /// An array literal with at least one operation inside.
    case array([Node])

    // Data access
    case variable(DataPath, fallback: Node?)
    case computedVariable(Node, fallback: Node?)
    case value(ValuePath)
    case exists(ValuePath)
    case missing([Node])
    case missingSome(need: Node, keys: Node)

    // Logic
    case condition([Node])
    /// `if` with exactly a condition, a consequent and an alternative.
    case ifThenElse(Node, Node, Node)
    case and([Node])
    case or([Node])
    case coalesce([Node])
    case not(Node)
    case truthy(Node)
    case comparison(Comparison, [Node])
    /// Two operands, one of them literal: the common `{"==": [{"var": "x"}, 3]}`.
    case comparisonWithLiteral(Comparison, Node, JSON, literalFirst: Bool)

    // Numbers
    case arithmetic(Arithmetic, Arguments)
    case extremum(isMaximum: Bool, Arguments)

    // Arrays
    case iteration(Iteration, source: Node, body: Node)
    case reduce(source: Node, body: Node, initial: Node)
    case merge([Node])
    case membership(needle: Node, haystack: Node)
    /// `in` with a literal array of strings: a hash lookup instead of a scan.
    case membershipInStrings(needle: Node, strings: Set<String>)

    // Strings
    case concatenate([Node])
    case substring(source: Node, start: Node, length: Node?)

    // Errors
    case log(Node)
    case raise(Node)
    case attempt([Node])

    // flagd
    case fractional(FractionalRule)
    case semanticVersion(lhs: VersionOperand, operation: SemanticVersionOperation?, operationNode: Node?, rhs: VersionOperand)
    case affix(isPrefix: Bool, Node, Node)
}

/// Operands of arithmetic and min/max. `spread` is set when the operator was
/// given one operation instead of an argument list (`{"+": {"var": "xs"}}`):
/// an array result then supplies the operands.
struct Arguments: Sendable {
    var nodes: [Node]
    var spread: Bool
}

enum Comparison: String, Sendable {
    case looseEqual = "==", strictEqual = "===", looseNotEqual = "!=", strictNotEqual = "!=="
    case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
}

enum Arithmetic: String, Sendable {
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
}

enum Iteration: String, Sendable {
    case map, filter, all, some, none
}

/// A `var` path known at compile time: `"a.b.0"` split at the dots. A
/// class, so that evaluation reads it without copying its parts.
final class DataPath: Sendable {
    struct Component: Sendable {
        let key: String
        /// The array index this key names, when it is a canonical index ("0", "12", not "01").
        let index: Int?
    }

    /// Empty: the whole current data.
    let components: [Component]
    /// Whether the path starts at `$flagd`, which flag evaluation supplies
    /// without copying the context.
    let startsAtFlagdProperties: Bool
    /// Where the first component's value waits when the evaluation was set up
    /// with `table` (see `AttributeTable`).
    let table: AttributeTable?
    let slot: Int

    init(_ dotted: String, table: AttributeTable? = nil) {
        components = dotted.isEmpty ? [] : dotted.split(separator: ".", omittingEmptySubsequences: false).map {
            Component(key: String($0), index: DataPath.canonicalIndex(String($0)))
        }
        startsAtFlagdProperties = components.first?.key == FlagdProperties.key
        if let table, let first = components.first, !startsAtFlagdProperties {
            self.table = table
            slot = table.slot(for: first.key)
        } else {
            self.table = nil
            slot = -1
        }
    }

    static let root = DataPath("")

    /// JavaScript reads `array["1"]` as an element, `array["01"]` or `array["-1"]` as nothing.
    static func canonicalIndex(_ key: String) -> Int? {
        guard let index = Int(key), index >= 0, String(index) == key else { return nil }
        return index
    }
}

/// A `val`/`exists` path: literal or computed segments, after an optional
/// jump up the scopes of enclosing iterators (`[[2], "x"]`).
struct ValuePath: Sendable {
    enum Segment: Sendable {
        case key(String)
        case index(Int)
        case computed(Node)
    }

    var scopeJump: Int
    var segments: [Segment]
}

/// A side of `sem_ver`: a literal is parsed once, at compile time (nil when
/// it is not a version, which makes every comparison null).
enum VersionOperand: Sendable {
    case literal(SemanticVersion?)
    case computed(Node)
}

/// The comparison named by sem_ver's middle argument.
enum SemanticVersionOperation: String, Sendable, CaseIterable {
    case equal = "=", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case sameMajor = "^", sameMinor = "~"
}
