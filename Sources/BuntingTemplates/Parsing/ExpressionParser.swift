/// Parses the markup of outputs and tags into expressions, filters and
/// conditions, strictly: anything it does not understand is an error, never
/// silently dropped.
struct ExpressionParser {
    let bytes: [UInt8]
    let tokens: [ExpressionToken]
    let maxNesting: Int
    private(set) var index = 0
    private var depth = 0

    init(bytes: [UInt8], range: Range<Int>, inTag: Bool, maxNesting: Int) throws(TemplateOffsetError) {
        var lexer = ExpressionLexer(bytes: bytes, range: range, bracesAreSpaces: inTag)
        self.bytes = bytes
        self.tokens = try lexer.tokens()
        self.maxNesting = maxNesting
    }

    var current: ExpressionToken { tokens[index] }
    var atEnd: Bool { current.kind == .end }

    func peek(_ ahead: Int = 1) -> ExpressionToken {
        tokens[min(index + ahead, tokens.count - 1)]
    }

    func text(_ token: ExpressionToken) -> String {
        String(decoding: bytes[token.start..<token.end], as: UTF8.self)
    }

    /// Whether the current token is the identifier `word`.
    func isWord(_ word: String, _ token: ExpressionToken? = nil) -> Bool {
        let token = token ?? current
        guard token.kind == .identifier, token.end - token.start == word.utf8.count else { return false }
        return bytes[token.start..<token.end].elementsEqual(word.utf8)
    }

    mutating func advance() -> ExpressionToken {
        let token = tokens[index]
        if index < tokens.count - 1 { index += 1 }
        return token
    }

    mutating func expect(_ kind: ExpressionToken.Kind, _ what: String) throws(TemplateOffsetError) -> ExpressionToken {
        guard current.kind == kind else { throw unexpected(expecting: what) }
        return advance()
    }

    func unexpected(expecting what: String) -> TemplateOffsetError {
        let found =
            atEnd
            ? "the end of the markup" : ExpressionLexer.describe(bytes, at: current.start, end: tokens.last!.end)
        return .invalid("expected \(what), found \(found)", at: current.start)
    }

    mutating func expectEnd() throws(TemplateOffsetError) {
        guard atEnd else { throw unexpected(expecting: "the end of the markup") }
    }

    // MARK: - Values

    /// A literal, a variable with its path, an attribute, a content block or
    /// a range.
    mutating func primary() throws(TemplateOffsetError) -> Expression {
        let token = current
        switch token.kind {
        case .string:
            _ = advance()
            return .literal(.string(text(token)))
        case .integer:
            _ = advance()
            guard let number = Int64(text(token)) else {
                throw .limit("the integer \(text(token)) does not fit in 64 bits", at: token.start)
            }
            return .literal(.integer(number))
        case .float:
            _ = advance()
            guard let number = Double(text(token)), number.isFinite else {
                throw .limit("the number \(text(token)) is too large", at: token.start)
            }
            return .literal(.float(number))
        case .openParen:
            _ = advance()
            try enter(at: token.start)
            let start = try primary()
            _ = try expect(.dotDot, "'..' in a range")
            let end = try primary()
            _ = try expect(.closeParen, "')' closing the range")
            depth -= 1
            return .range(start, end, offset: token.start)
        case .attribute:
            _ = advance()
            return .attribute(name: text(token), path: try path())
        case .openBracket:
            _ = advance()
            try enter(at: token.start)
            let name = try primary()
            _ = try expect(.closeBracket, "']'")
            depth -= 1
            return .computedVariable(name, path: try path())
        case .identifier:
            _ = advance()
            let name = text(token)
            if current.kind == .dot, peek().kind == .attribute {
                _ = advance()
                let attribute = advance()
                return try namespaced(name, attribute: text(attribute), at: token.start)
            }
            if current.kind != .dot, current.kind != .openBracket, let literal = Self.keywords[name] {
                return .literal(literal)
            }
            return .variable(name: name, path: try path())
        default:
            throw unexpected(expecting: "a value")
        }
    }

    static let keywords: [String: Literal] = [
        "true": .bool(true), "false": .bool(false), "nil": .null, "null": .null, "empty": .empty, "blank": .blank,
    ]

    /// Braze's `namespace.${name}`: custom attributes and content blocks are
    /// local; other namespaces (campaign, canvas, event properties…) are
    /// not known on the device and read as nil.
    private mutating func namespaced(_ namespace: String, attribute: String, at offset: Int) throws(TemplateOffsetError)
        -> Expression
    {
        switch namespace {
        case "custom_attribute", "custom_attributes":
            return .attribute(name: attribute, path: try path())
        case "content_blocks":
            return .contentBlock(name: attribute, offset: offset)
        default:
            _ = try path()
            return .literal(.null)
        }
    }

    /// `.key` and `[expr]` steps after a value.
    private mutating func path() throws(TemplateOffsetError) -> [PathSegment] {
        var segments: [PathSegment] = []
        while true {
            switch current.kind {
            case .dot:
                _ = advance()
                let name = try expect(.identifier, "a name after '.'")
                segments.append(.key(text(name)))
            case .openBracket:
                let open = advance()
                try enter(at: open.start)
                segments.append(.index(try primary()))
                _ = try expect(.closeBracket, "']'")
                depth -= 1
            default:
                return segments
            }
        }
    }

    private mutating func enter(at offset: Int) throws(TemplateOffsetError) {
        depth += 1
        if depth > maxNesting { throw .limit("brackets nested deeper than \(maxNesting)", at: offset) }
    }

    // MARK: - Filters

    /// `value | filter: args | …` up to the end of the markup.
    mutating func filtered() throws(TemplateOffsetError) -> FilteredExpression {
        let base = try primary()
        var filters: [FilterCall] = []
        while current.kind == .pipe {
            _ = advance()
            filters.append(try filterCall())
        }
        return FilteredExpression(base: base, filters: filters)
    }

    private mutating func filterCall() throws(TemplateOffsetError) -> FilterCall {
        let nameToken = try expect(.identifier, "a filter name after '|'")
        let name = text(nameToken)
        guard let filter = Filter(rawValue: name) else {
            if Self.networkFilters.contains(name) {
                throw .invalid("the filter '\(name)' is refused: it would reach the network", at: nameToken.start)
            }
            throw .invalid("unknown filter '\(name)'", at: nameToken.start)
        }
        var call = FilterCall(filter: filter, positional: [], keywords: [], offset: nameToken.start)
        if current.kind == .colon {
            _ = advance()
            repeat {
                if current.kind == .comma { _ = advance() }
                if current.kind == .identifier, peek().kind == .colon {
                    let keyword = advance()
                    _ = advance()
                    let key = text(keyword)
                    guard filter.keywords.contains(key) else {
                        throw .invalid("the filter '\(name)' takes no argument '\(key)'", at: keyword.start)
                    }
                    call.keywords.append((key, try primary()))
                } else {
                    call.positional.append(try primary())
                }
            } while current.kind == .comma
        }
        guard filter.arity.contains(call.positional.count) else {
            let range = filter.arity
            let expected =
                range.lowerBound == range.upperBound
                ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
            throw .invalid(
                "the filter '\(name)' takes \(expected) "
                    + "argument\(range.upperBound == 1 ? "" : "s"), not \(call.positional.count)",
                at: nameToken.start)
        }
        return call
    }

    /// Braze filters that would need the network or a server's secrets.
    static let networkFilters: Set<String> = ["connected_content", "promotion", "catalog_items"]

    // MARK: - Conditions

    /// `a == b and c contains d or e`.
    mutating func condition() throws(TemplateOffsetError) -> Condition {
        var condition = Condition(first: try comparison(), rest: [])
        while true {
            let join: ConditionJoin
            if isWord("and") {
                join = .and
            } else if isWord("or") {
                join = .or
            } else {
                return condition
            }
            _ = advance()
            condition.rest.append((join, try comparison()))
        }
    }

    private mutating func comparison() throws(TemplateOffsetError) -> ConditionTest {
        let left = try primary()
        if case .comparison(let comparison) = current.kind {
            let operatorToken = advance()
            return .compare(left, comparison, try primary(), offset: operatorToken.start)
        }
        if isWord("contains") {
            let operatorToken = advance()
            return .compare(left, .contains, try primary(), offset: operatorToken.start)
        }
        return .truthy(left)
    }
}
