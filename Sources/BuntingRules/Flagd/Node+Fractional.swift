import BuntingJSON

/// flagd's `fractional`: the node, and its evaluation over a `FractionalRule`.
extension Node {
    final class Fractional: Node, @unchecked Sendable {
        let rule: FractionalRule

        init(_ rule: FractionalRule) { self.rule = rule }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            return try interpreter.fractional(rule).value(in: rule)
        }
    }
}

extension Interpreter {
    /// flagd's weights sum to at most Int32.max.
    static let maxTotalWeight: UInt64 = 2_147_483_647

    /// The first argument is the bucketing value when it is not a fraction
    /// (in the string generation: when it is a string); otherwise flagd buckets
    /// by flag key and targeting key. Invalid fractions, a missing targeting
    /// key or a total weight out of range give null, as flagd does.
    mutating func fractional(_ rule: FractionalRule) throws(RuleEvaluationError) -> FractionalResult {
        guard !rule.arguments.isEmpty else { return .null }
        // The rule's own tables and nodes are passed on as `rule.x!`, not
        // bound to locals: a local holds a reference, retained and released.
        if rule.isLiteralShorthand {
            guard let hash = try shorthandHash(rule), rule.wholeTable != nil else { return .null }
            return pick(rule.wholeTable!, hash: hash).map(FractionalResult.whole) ?? .null
        }
        if hashing == .murmur3String, rule.bucketingConcatenation != nil {
            return try fractional(rule, bucketingBy: rule.bucketingConcatenation!)
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
            guard let hash = try shorthandHash(rule), let table = try fractionTable([first] + rest) else {
                return .null
            }
            return pick(table, hash: hash).map { .value(table.variants[$0]) } ?? .null
        }

        // The bucketing value is hashed: its bytes are the work.
        let hash: UInt32?
        switch first {
        case .null:
            return .null
        case .string(let text) where hashing == .murmur3String:
            guard !text.isEmpty else { return .null }
            try charge(bytes: text.utf8.count)
            hash = MurmurHash3.x86_32(text)
        default:
            var sortingWork = 0
            let encoded = CanonicalCBOR.encode(first, sortingWork: &sortingWork)
            try charge(bytes: encoded?.count ?? 0)
            try step(sortingWork)
            hash = encoded.map(MurmurHash3.x86_32)
        }
        if rule.literalTail != nil {
            guard rule.tailTable != nil else { return .null }
            return pick(rule.tailTable!, hash: hash).map(FractionalResult.tail) ?? .null
        }
        guard let table = try fractionTable(rest) else { return .null }
        return pick(table, hash: hash).map { .value(table.variants[$0]) } ?? .null
    }

    /// The string generation with a `cat` bucketing value (such as
    /// `{"cat": [{"var": "$flagd.flagKey"}, {"var": "userId"}]}`): its pieces
    /// are hashed as they are evaluated, so that the string is never built.
    /// The same steps, limits and answers as evaluating it.
    private mutating func fractional(
        _ rule: FractionalRule, bucketingBy concatenation: Node.Concatenate
    ) throws(RuleEvaluationError) -> FractionalResult {
        let bucketing = try concatenation.hashed(&self)
        if rule.literalTail != nil {
            // An empty string buckets nothing, as in the general path.
            guard bucketing.byteCount > 0, rule.tailTable != nil else { return .null }
            return pick(rule.tailTable!, hash: bucketing.hash).map(FractionalResult.tail) ?? .null
        }
        var rest: [JSON] = []
        rest.reserveCapacity(rule.arguments.count - 1)
        for node in rule.arguments.dropFirst() { rest.append(try evaluate(node)) }
        guard bucketing.byteCount > 0, let table = try fractionTable(rest) else { return .null }
        return pick(table, hash: bucketing.hash).map { .value(table.variants[$0]) } ?? .null
    }

    /// The table of fractions computed in this evaluation, one unit per fraction.
    private mutating func fractionTable(_ fractions: [JSON]) throws(RuleEvaluationError) -> FractionTable? {
        try charge(elements: fractions.count)
        return FractionTable(fractions[...])
    }

    /// The position of the variant whose range holds the bucket of `hash`;
    /// nil without a hash (a value CBOR cannot encode), with a total weight
    /// out of range, or when no range holds it (a total weight of 0).
    private func pick(_ table: FractionTable, hash: UInt32?) -> Int? {
        guard let hash else { return nil }
        let total = table.totalWeight
        guard total <= Self.maxTotalWeight else { return nil }
        return table.pick(hash)
    }

    /// The hash of flagKey + targetingKey (string generation) or of
    /// [flagKey, targetingKey] (CBOR generation); nil when there is no usable
    /// targeting key. Neither string is built; the bytes hashed are charged.
    private mutating func shorthandHash(_ rule: FractionalRule) throws(RuleEvaluationError) -> UInt32? {
        let targetingKey = lookup(rule.targetingKey) ?? .null
        switch hashing {
        case .murmur3String:
            // flagd buckets only by a string targeting key (flagd-core 1.x
            // fails on other values: see the README's compatibility notes).
            guard case .string(let user) = targetingKey, !user.isEmpty else { return nil }
            try charge(bytes: user.utf8.count)
            var hasher = MurmurHash3()
            if atRoot, flagd != nil {
                flagd!.hashFlagKey(into: &hasher)
            } else if case .string(let seed)? = lookup(Self.flagKeyPath) {
                try charge(bytes: seed.utf8.count)
                hasher.combine(seed)
            }
            // A `$flagd.flagKey` that is not a string seeds with nothing, as
            // flagd reads properties it cannot decode as empty.
            hasher.combine(user)
            return hasher.finalize()
        case .murmur3CBOR:
            guard case .string(let user) = targetingKey, !user.isEmpty else { return nil }
            let flagKey: JSON = atRoot && flagd != nil ? .string(flagd!.flagKey) : lookup(Self.flagKeyPath) ?? ""
            let encoded = CanonicalCBOR.encode([flagKey, .string(user)])
            try charge(bytes: encoded?.count ?? 0)
            return encoded.map(MurmurHash3.x86_32)
        }
    }

    private static let flagKeyPath = DataPath("$flagd.flagKey")
}
