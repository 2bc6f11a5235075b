import BuntingJSON

/// A problem found while validating, before it becomes a public violation.
struct SchemaFinding {
    enum Kind {
        /// A `type` mismatch; the set says what was expected.
        case type(SchemaTypes)
        /// A failed `const` or `enum`: the mark of a discriminator such as a `type` field.
        case value
        /// A member that `additionalProperties: false` does not allow.
        case unknownProperty
        /// A `required` member that is absent.
        case missingProperty(String)
        case other
    }

    var path: [PathToken]
    let keywordLocation: String
    var message: String
    let kind: Kind
}

/// A step into an object or an array. Indices stay numbers until a finding
/// needs them as text: most evaluations find nothing.
enum PathToken {
    case key(String)
    case index(Int)

    var text: String {
        switch self {
        case .key(let key): return key
        case .index(let index): return String(index)
        }
    }
}

/// One validation of one instance: walks the compiled nodes and collects findings.
///
/// It runs in two modes. Collecting mode records every finding up to `limit`;
/// quick mode, used where only the verdict counts (`not`, `if`, `contains`,
/// and the branches of `anyOf`/`oneOf` until one is known to fail), stops at
/// the first failure and records nothing.
///
/// Some schemas evaluate one part of an instance many times (an `anyOf` whose
/// branches all descend into the same array, nested); a budget of evaluation
/// steps bounds the time any schema and instance can take.
///
/// Evaluation recurses along the instance, so its stack grows with nesting.
/// Two bounds keep it from overflowing: the number of nested schema nodes,
/// and the stack the evaluation has used, measured. What lies beyond either
/// is reported as too deeply nested. The functions on the recursive path are
/// kept small (messages are built in `SchemaValidator+Assertions.swift` and
/// in helpers), because unoptimized builds give every local its own slot.
struct SchemaValidator {
    /// Schema nodes that may be nested while evaluating: several per level
    /// of any instance the JSON parser accepts.
    static let maximumDepth = 4000
    /// Stack bytes one validation may use: about 400 levels of flagd's
    /// targeting rules in an optimized build. Any thread with a 2 MB stack
    /// or more (8 MB is the Linux default) has room for it and its callers.
    static let stackBudget: UInt = 1 << 20
    /// Schema nodes one validation may evaluate: so many per value of the
    /// instance, far more than any schema that does not evaluate a value
    /// again and again needs, even when reporting. Values are counted only
    /// when a validation outgrows the base, which small documents never do.
    static let baseStepBudget = 100_000
    static let stepsPerValue = 1_000
    /// Findings each branch of an `anyOf` or `oneOf` may gather while the
    /// branches are compared, whatever the caller's limit: which branch
    /// speaks must not depend on how many findings the caller asked for.
    static let branchFindingLimit = JSONSchema.defaultViolationLimit

    let nodes: [SchemaNode]
    /// The most findings to record; `branchFindingLimit` while branches are judged apart.
    private(set) var limit: Int
    private(set) var findings: [SchemaFinding] = []
    private(set) var collecting: Bool
    /// The instance location being evaluated.
    private(set) var path: [PathToken] = []
    private var depth = 0
    private var steps = 0
    /// The stack address where this validation began.
    private var stackBase: UInt = 0
    /// The `$ref` targets being evaluated, with the instance depth each was entered at.
    private var activeReferences: [(node: Int, pathDepth: Int)] = []

    private var stepBudget = Self.baseStepBudget
    private var stepBudgetSized = false
    /// The whole instance, whose size sets the step budget.
    private let root: JSON

    init(nodes: [SchemaNode], root: JSON, limit: Int, collecting: Bool) {
        self.nodes = nodes
        self.root = root
        self.limit = max(1, limit)
        self.collecting = collecting
    }

    var isFull: Bool { findings.count >= limit }

    mutating func validate(_ number: Int, _ instance: JSON) -> Bool {
        if collecting && isFull { return false }
        steps += 1
        if steps > stepBudget && !stepBudgetSized {
            stepBudgetSized = true
            stepBudget = Self.baseStepBudget + Self.stepsPerValue * root.valueCount
        }
        if steps > stepBudget {
            reportTooComplex()
            return false
        }
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maximumDepth || stackUsed() > Self.stackBudget {
            reportTooDeep()
            return false
        }
        switch nodes[number] {
        case .acceptAll:
            return true
        case .rejectAll(let place):
            report("no value is allowed here", at: place.location)
            return false
        case .keywords(let keywords):
            var valid = true
            for keyword in keywords where !check(keyword, instance) {
                valid = false
                if !collecting || isFull { return false }
            }
            return valid
        }
    }

    mutating func validate(_ number: Int, _ instance: JSON, token: PathToken) -> Bool {
        path.append(token)
        defer { path.removeLast() }
        return validate(number, instance)
    }

    private mutating func stackUsed() -> UInt {
        var marker: UInt8 = 0
        let address = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        if stackBase == 0 { stackBase = address }
        return stackBase > address ? stackBase - address : address - stackBase
    }

    // MARK: - Recording

    /// Records a finding in collecting mode. The message is built only then:
    /// quick mode fails often and says nothing.
    mutating func report(
        _ message: @autoclosure () -> String, at location: @autoclosure () -> String, kind: SchemaFinding.Kind = .other,
        token: PathToken? = nil
    ) {
        guard collecting, !isFull else { return }
        var findingPath = path
        if let token { findingPath.append(token) }
        findings.append(SchemaFinding(path: findingPath, keywordLocation: location(), message: message(), kind: kind))
    }

    mutating func report(
        _ message: @autoclosure () -> String, at keyword: SchemaKeyword, kind: SchemaFinding.Kind = .other,
        token: PathToken? = nil
    ) {
        report(message(), at: keyword.location, kind: kind, token: token)
    }

    /// Runs `body` in quick mode and gives its result.
    mutating func quickly<Result>(_ body: (inout SchemaValidator) -> Result) -> Result {
        let wasCollecting = collecting
        collecting = false
        defer { collecting = wasCollecting }
        return body(&self)
    }

    /// Runs `body` in collecting mode with a fresh list, and gives that list back
    /// without adding it to the findings so far. The list holds up to
    /// `branchFindingLimit` findings, whatever the caller's limit.
    mutating func findingsApart(_ body: (inout SchemaValidator) -> Void) -> [SchemaFinding] {
        let saved = findings
        let wasCollecting = collecting
        let savedLimit = limit
        findings = []
        collecting = true
        limit = Self.branchFindingLimit
        body(&self)
        let separate = findings
        findings = saved
        collecting = wasCollecting
        limit = savedLimit
        return separate
    }

    mutating func prefixMessage(at position: Int, with prefix: String) {
        findings[position].message = prefix + findings[position].message
    }

    /// Adds findings gathered apart, as far as the limit allows.
    mutating func adopt(_ separate: [SchemaFinding]) {
        guard collecting else { return }
        findings.append(contentsOf: separate.prefix(max(0, limit - findings.count)))
    }

    // MARK: - Keywords that apply subschemas

    private mutating func check(_ keyword: SchemaKeyword, _ instance: JSON) -> Bool {
        switch keyword.check {
        case .members(let members):
            return checkMembers(members, in: keyword.place, instance)
        case .propertyNames(let node):
            return checkPropertyNames(node, instance)
        case .dependentSchemas(let dependencies):
            return checkDependentSchemas(dependencies, instance)
        case .items(let items):
            return checkItems(items, in: keyword.place, instance)
        case .contains(let node, let minimum, let maximum):
            return checkContains(node, minimum: minimum, maximum: maximum, at: keyword, instance)
        case .allOf(let branches):
            return checkAllOf(branches, instance)
        case .anyOf(let branches):
            return checkAnyOf(branches, at: keyword, instance)
        case .oneOf(let branches):
            return checkOneOf(branches, at: keyword, instance)
        case .not(let node):
            return checkNot(node, at: keyword, instance)
        case .conditional(let condition, let then, let otherwise):
            let branch = quickly { $0.validate(condition, instance) } ? then : otherwise
            guard let branch else { return true }
            return validate(branch, instance)
        case .reference(let target):
            return checkReference(target, at: keyword, instance)
        default:
            return checkAssertion(keyword, instance)
        }
    }

    private mutating func checkMembers(_ members: SchemaMembers, in place: SchemaPlace, _ instance: JSON) -> Bool {
        guard case .object(let object) = instance else { return true }
        var valid = true
        for (name, value) in object {
            var matched = false
            if let node = members.properties[name] {
                matched = true
                if !validate(node, value, token: .key(name)) {
                    valid = false
                    if !collecting || isFull { return false }
                }
            }
            for (pattern, node) in members.patterns where pattern.matches(name) {
                matched = true
                if !validate(node, value, token: .key(name)) {
                    valid = false
                    if !collecting || isFull { return false }
                }
            }
            guard !matched, let additional = members.additional else { continue }
            if case .rejectAll = nodes[additional] {
                reportUnknownProperty(name, at: place.location(of: "additionalProperties"))
                valid = false
            } else if !validate(additional, value, token: .key(name)) {
                valid = false
            }
            if !valid && (!collecting || isFull) { return false }
        }
        return valid
    }

    private mutating func checkPropertyNames(_ node: Int, _ instance: JSON) -> Bool {
        guard case .object(let object) = instance else { return true }
        var valid = true
        for name in object.keys {
            let first = findings.count
            if validate(node, .string(name), token: .key(name)) { continue }
            valid = false
            if !collecting { return false }
            markAsPropertyName(first..<findings.count)
        }
        return valid
    }

    private mutating func checkDependentSchemas(_ dependencies: [(property: String, node: Int)], _ instance: JSON)
        -> Bool
    {
        guard case .object(let object) = instance else { return true }
        var valid = true
        for (property, node) in dependencies where object[property] != nil && !validate(node, instance) {
            valid = false
            if !collecting { return false }
        }
        return valid
    }

    private mutating func checkItems(_ items: SchemaItems, in place: SchemaPlace, _ instance: JSON) -> Bool {
        guard case .array(let elements) = instance else { return true }
        var valid = true
        for (position, element) in elements.enumerated() {
            let node: Int
            if position < items.prefix.count {
                node = items.prefix[position]
            } else if let rest = items.rest {
                if case .rejectAll = nodes[rest] {
                    reportUnexpectedItem(
                        position, allowed: items.prefix.count, at: place.location(of: items.restKeyword))
                    return false
                }
                node = rest
            } else {
                break
            }
            if !validate(node, element, token: .index(position)) {
                valid = false
                if !collecting || isFull { return false }
            }
        }
        return valid
    }

    private mutating func checkContains(
        _ node: Int, minimum: Int, maximum: Int?, at keyword: SchemaKeyword, _ instance: JSON
    ) -> Bool {
        guard case .array(let elements) = instance else { return true }
        // Without a maximum, counting can stop once the minimum is reached.
        let enough = maximum.map { $0 < Int.max ? $0 + 1 : $0 } ?? minimum
        let matches = quickly { validator in
            var matches = 0
            for (position, element) in elements.enumerated() where matches < enough {
                if validator.validate(node, element, token: .index(position)) { matches += 1 }
            }
            return matches
        }
        if matches >= minimum && matches <= maximum ?? Int.max { return true }
        reportContains(matches, minimum: minimum, maximum: maximum, at: keyword)
        return false
    }

    private mutating func checkAllOf(_ branches: [Int], _ instance: JSON) -> Bool {
        var valid = true
        for branch in branches where !validate(branch, instance) {
            valid = false
            if !collecting { return false }
        }
        return valid
    }

    private mutating func checkAnyOf(_ branches: [Int], at keyword: SchemaKeyword, _ instance: JSON) -> Bool {
        if quickly({ validator in branches.contains { validator.validate($0, instance) } }) { return true }
        reportAlternatives(branches, at: keyword, instance)
        return false
    }

    private mutating func checkOneOf(_ branches: [Int], at keyword: SchemaKeyword, _ instance: JSON) -> Bool {
        let matching = quickly { validator in
            var matching: [Int] = []
            for (position, branch) in branches.enumerated() where validator.validate(branch, instance) {
                matching.append(position)
                if matching.count == 2 { break }
            }
            return matching
        }
        if matching.count == 1 { return true }
        if matching.isEmpty {
            reportAlternatives(branches, at: keyword, instance)
        } else {
            reportSeveralMatches(matching[0], matching[1], at: keyword)
        }
        return false
    }

    private mutating func checkNot(_ node: Int, at keyword: SchemaKeyword, _ instance: JSON) -> Bool {
        guard quickly({ $0.validate(node, instance) }) else { return true }
        report("the value must not match the \"not\" schema", at: keyword)
        return false
    }

    /// Follows a `$ref`, refusing to enter a target that is already being
    /// evaluated for this same value: that recursion would never end.
    private mutating func checkReference(_ target: Int, at keyword: SchemaKeyword, _ instance: JSON) -> Bool {
        for active in activeReferences.reversed() {
            guard active.pathDepth == path.count else { break }
            if active.node == target {
                reportReferenceLoop(at: keyword)
                return false
            }
        }
        activeReferences.append((target, path.count))
        defer { activeReferences.removeLast() }
        return validate(target, instance)
    }
}
