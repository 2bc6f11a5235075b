import BuntingJSON

/// `var`, `val` and `exists`: paths into the data.
extension Compiler {
    /// `var` takes a path (a string, a number, null or an operation computing
    /// one) and an optional default.
    mutating func compileVar(_ arguments: OperationArguments) throws(RuleCompileError) -> Node {
        try requireCount("var", arguments, atMost: 2)
        // The whole data always exists: a default for it is never used.
        let fallback = arguments.values.count == 2 ? try compileArgument(arguments, 1) : nil
        guard let key = arguments.values.first else { return Node.WholeData() }
        switch key {
        case .null, .string(""):
            return Node.WholeData()
        case .string(let dotted):
            return Node.Variable(DataPath(dotted, table: attributes), fallback: fallback)
        case .integer, .real:
            return Node.Variable(DataPath(JavaScript.toString(key), table: attributes), fallback: fallback)
        case .object(let object) where !object.isEmpty:
            return Node.ComputedVariable(try compileArgument(arguments, 0), fallback: fallback)
        default:
            descend(arguments, 0)
            defer { if arguments.isList { path.removeLast() } }
            throw error("\"var\" takes a path: a string, a number, null or an operation; got \(key.typeName)")
        }
    }

    /// `val` and `exists` take path segments (strings, numbers or operations),
    /// optionally led by `[n]` to climb n scopes out of iterators.
    mutating func compileValuePath(_ arguments: OperationArguments) throws(RuleCompileError) -> ValuePath {
        var result = ValuePath(scopeJump: 0, segments: [])
        for (index, segment) in arguments.values.enumerated() {
            descend(arguments, index)
            defer { if arguments.isList { path.removeLast() } }
            switch segment {
            case .string(let key):
                result.segments.append(.key(key))
            case .integer(let number):
                result.segments.append(.index(Int(clamping: number)))
            case .real(let number) where number.rounded(.towardZero) == number && abs(number) < 1e15:
                result.segments.append(.index(Int(number)))
            case .array(let jump) where index == 0 && arguments.isList && jump.count == 1:
                guard let levels = jump[0].integerValue else {
                    throw error("a scope jump is [n] with an integer n")
                }
                result.scopeJump = Int(clamping: levels.magnitude)
            case .object(let object) where !object.isEmpty:
                result.segments.append(.computed(try compile(segment)))
            default:
                throw error("a path segment is a string, a number or an operation; got \(segment.typeName)")
            }
        }
        return result
    }
}
