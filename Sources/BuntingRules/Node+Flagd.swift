import BuntingJSON

/// flagd's `fractional` and `sem_ver`.
extension Interpreter {
    /// flagd's weights sum to at most Int32.max.
    static let maxTotalWeight: UInt64 = 2_147_483_647

    /// The first argument is the bucketing value when it is not a fraction
    /// (in the string generation: when it is a string); otherwise flagd buckets
    /// by flag key and targeting key. Invalid fractions, a missing targeting
    /// key or a total weight out of range give null, as flagd does.
    mutating func fractional(_ rule: FractionalRule) throws(RuleEvaluationError) -> JSON {
        guard !rule.arguments.isEmpty else { return .null }
        if rule.isLiteralShorthand {
            guard let key = try shorthandBucketingKey(rule), let table = rule.wholeTable else { return .null }
            return pick(table, key: key)
        }
        // flagd evaluates every argument before looking at any.
        let first = try evaluate(rule.arguments[0])
        var rest: [JSON]
        if let literalTail = rule.literalTail {
            rest = literalTail
        } else {
            rest = []
            rest.reserveCapacity(rule.arguments.count - 1)
            for node in rule.arguments.dropFirst() { rest.append(try evaluate(node)) }
        }

        let firstIsBucketingValue: Bool
        switch (hashing, first) {
        case (.murmur3String, .string): firstIsBucketingValue = true
        case (.murmur3String, _), (.murmur3CBOR, .array): firstIsBucketingValue = false
        case (.murmur3CBOR, _): firstIsBucketingValue = true
        }
        guard firstIsBucketingValue else {
            guard let key = try shorthandBucketingKey(rule), let table = FractionTable(([first] + rest)[...]) else {
                return .null
            }
            return pick(table, key: key)
        }

        let key: BucketingKey
        switch first {
        case .null:
            return .null
        case .string(let text) where hashing == .murmur3String:
            guard !text.isEmpty else { return .null }
            key = .string(text)
        default:
            key = .value(first)
        }
        let table = rule.literalTail != nil ? rule.tailTable : FractionTable(rest[...])
        guard let table else { return .null }
        return pick(table, key: key)
    }

    private enum BucketingKey {
        case string(String)
        /// Two strings hashed as one, without building it.
        case concatenation(String, String)
        case value(JSON)
    }

    private func pick(_ table: FractionTable, key: BucketingKey) -> JSON {
        let total = table.totalWeight
        guard total <= Self.maxTotalWeight else { return .null }
        if hashing == .murmur3CBOR && total == 0 { return .null }
        let hash: UInt32
        switch key {
        case .string(let text):
            hash = MurmurHash3.x86_32(text)
        case .concatenation(let first, let second):
            var hasher = MurmurHash3()
            hasher.combine(first)
            hasher.combine(second)
            hash = hasher.finalize()
        case .value(let value):
            guard let bytes = CanonicalCBOR.encode(value) else { return .null }
            hash = MurmurHash3.x86_32(bytes)
        }
        return table.pick(hash)
    }

    /// flagKey + targetingKey (string generation) or [flagKey, targetingKey]
    /// (CBOR generation); nil when there is no usable targeting key.
    private func shorthandBucketingKey(_ rule: FractionalRule) throws(RuleEvaluationError) -> BucketingKey? {
        let targetingKey = lookup(rule.targetingKey) ?? .null
        let flagKey: JSON
        if atRoot, let flagd {
            flagKey = .string(flagd.flagKey)
        } else {
            flagKey = lookup(Self.flagKeyPath) ?? ""
        }
        switch hashing {
        case .murmur3String:
            guard targetingKey.isTruthy else { return nil }
            // flagd-core 1.x concatenates with Python's +, which fails on non-strings.
            guard case .string(let seed) = flagKey, case .string(let user) = targetingKey else {
                throw .invalidOperand(operator: "fractional", message: "flag key and targeting key must be strings")
            }
            return .concatenation(seed, user)
        case .murmur3CBOR:
            guard case .string(let user) = targetingKey, !user.isEmpty else { return nil }
            return .value([flagKey, .string(user)])
        }
    }

    private static let flagKeyPath = DataPath("$flagd.flagKey")

    /// `sem_ver`: true or false, or null when either side is not a version
    /// or the comparison is unknown.
    mutating func semanticVersion(
        lhs: VersionOperand, operation: SemanticVersionOperation?, operationNode: Node?, rhs: VersionOperand
    ) throws(RuleEvaluationError) -> JSON {
        let left = try version(lhs)
        var comparison = operation
        if let operationNode {
            guard case .string(let text) = try evaluate(operationNode) else { return .null }
            comparison = SemanticVersionOperation(rawValue: text)
        }
        let right = try version(rhs)
        guard let comparison, let left, let right else { return .null }
        return .bool(SemanticVersion.holds(comparison, left, right))
    }

    private mutating func version(_ operand: VersionOperand) throws(RuleEvaluationError) -> SemanticVersion? {
        switch operand {
        case .literal(let version): return version
        case .computed(let node): return SemanticVersion(try evaluate(node))
        }
    }
}
