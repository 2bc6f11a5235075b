import BuntingJSON

/// A problem found while validating, before it becomes a public violation.
struct SchemaFinding {
    enum Kind {
        /// A `type` mismatch; the set says what was expected.
        case type(SchemaTypes)
        /// A failed `const` or `enum`: the mark of a discriminator such as a `type` field.
        case value
        case other
    }

    var path: [String]
    let keywordLocation: String
    var message: String
    let kind: Kind
}

/// One validation of one instance: walks the compiled nodes and collects findings.
///
/// It runs in two modes. Collecting mode records every finding up to `limit`;
/// quick mode, used where only the verdict counts (`not`, `if`, `contains`,
/// and the branches of `anyOf`/`oneOf` until one is known to fail), stops at
/// the first failure and records nothing.
struct SchemaValidator {
    /// How many schema nodes may be nested while evaluating. Deep enough for
    /// any instance the JSON parser accepts (a few nodes per level), shallow
    /// enough to stay well within a thread's stack.
    static let maximumDepth = 3000

    let nodes: [SchemaNode]
    let limit: Int
    private(set) var findings: [SchemaFinding] = []
    private(set) var collecting: Bool
    /// The instance location being evaluated, as pointer tokens.
    private(set) var path: [String] = []
    private var depth = 0
    /// The `$ref` targets being evaluated, with the instance depth each was entered at.
    private var activeReferences: [(node: Int, pathDepth: Int)] = []

    init(nodes: [SchemaNode], limit: Int, collecting: Bool) {
        self.nodes = nodes
        self.limit = max(1, limit)
        self.collecting = collecting
    }

    private var isFull: Bool { findings.count >= limit }

    mutating func validate(_ number: Int, _ instance: JSON) -> Bool {
        if collecting && isFull { return false }
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maximumDepth {
            report("the value is nested too deeply to validate", at: "#")
            return false
        }
        switch nodes[number] {
        case .acceptAll:
            return true
        case .rejectAll(let location):
            report("no value is allowed here", at: location)
            return false
        case .keywords(let keywords):
            var valid = true
            for keyword in keywords where !check(keyword.check, at: keyword.location, instance) {
                valid = false
                if !collecting || isFull { return false }
            }
            return valid
        }
    }

    // MARK: - Recording

    mutating func report(_ message: String, at location: String, kind: SchemaFinding.Kind = .other, token: String? = nil) {
        guard collecting, !isFull else { return }
        var findingPath = path
        if let token { findingPath.append(token) }
        findings.append(SchemaFinding(path: findingPath, keywordLocation: location, message: message, kind: kind))
    }

    /// Runs `body` in quick mode and gives its result.
    mutating func quickly<Result>(_ body: (inout SchemaValidator) -> Result) -> Result {
        let wasCollecting = collecting
        collecting = false
        defer { collecting = wasCollecting }
        return body(&self)
    }

    /// Runs `body` in collecting mode with a fresh list, and gives that list back
    /// without adding it to the findings so far.
    mutating func findingsApart(_ body: (inout SchemaValidator) -> Void) -> [SchemaFinding] {
        let saved = findings
        let wasCollecting = collecting
        findings = []
        collecting = true
        body(&self)
        let separate = findings
        findings = saved
        collecting = wasCollecting
        return separate
    }

    /// Adds findings gathered apart, as far as the limit allows.
    mutating func adopt(_ separate: [SchemaFinding]) {
        guard collecting else { return }
        findings.append(contentsOf: separate.prefix(max(0, limit - findings.count)))
    }

    mutating func validate(_ number: Int, _ instance: JSON, token: String) -> Bool {
        path.append(token)
        defer { path.removeLast() }
        return validate(number, instance)
    }

    // MARK: - Keywords

    private mutating func check(_ check: SchemaCheck, at location: String, _ instance: JSON) -> Bool {
        switch check {
        case .type(let types):
            if types.admits(instance) { return true }
            report("expected \(types.listed), got \(instance.typeName)", at: location, kind: .type(types))
            return false
        case .enumeration(let values, let original):
            if values.contains(instance.schemaNormalized) { return true }
            report("value \(instance.excerpt()) is not one of \(Self.list(original))", at: location, kind: .value)
            return false
        case .constant(let value, let original):
            if instance.schemaNormalized == value { return true }
            report("expected \(original.excerpt()), got \(instance.excerpt())", at: location, kind: .value)
            return false
        case .members(let members):
            return checkMembers(members, instance)
        case .propertyNames(let node):
            return checkPropertyNames(node, at: location, instance)
        case .required(let names):
            guard case .object(let object) = instance else { return true }
            var valid = true
            for name in names where object[name] == nil {
                report("missing required property \(JSON.string(name).excerpt())", at: location)
                valid = false
                if !collecting { return false }
            }
            return valid
        case .dependentRequired(let dependencies):
            guard case .object(let object) = instance else { return true }
            var valid = true
            for (property, requires) in dependencies where object[property] != nil {
                for name in requires where object[name] == nil {
                    report("property \(JSON.string(property).excerpt()) requires property \(JSON.string(name).excerpt())", at: location)
                    valid = false
                    if !collecting { return false }
                }
            }
            return valid
        case .dependentSchemas(let dependencies):
            guard case .object(let object) = instance else { return true }
            var valid = true
            for (property, node) in dependencies where object[property] != nil && !validate(node, instance) {
                valid = false
                if !collecting { return false }
            }
            return valid
        case .minProperties(let minimum):
            guard case .object(let object) = instance, object.count < minimum else { return true }
            report("expected at least \(Self.counted(minimum, "property", "properties")), got \(object.count)", at: location)
            return false
        case .maxProperties(let maximum):
            guard case .object(let object) = instance, object.count > maximum else { return true }
            report("expected at most \(Self.counted(maximum, "property", "properties")), got \(object.count)", at: location)
            return false
        case .items(let items):
            return checkItems(items, instance)
        case .contains(let node, let minimum, let maximum):
            return checkContains(node, minimum: minimum, maximum: maximum, at: location, instance)
        case .minItems(let minimum):
            guard case .array(let elements) = instance, elements.count < minimum else { return true }
            report("expected at least \(Self.counted(minimum, "item", "items")), got \(elements.count)", at: location)
            return false
        case .maxItems(let maximum):
            guard case .array(let elements) = instance, elements.count > maximum else { return true }
            report("expected at most \(Self.counted(maximum, "item", "items")), got \(elements.count)", at: location)
            return false
        case .uniqueItems:
            return checkUniqueItems(at: location, instance)
        case .minimum(let bound, let exclusive):
            guard instance.isNumber else { return true }
            let order = SchemaNumber.compare(instance, bound)
            if exclusive ? order > 0 : order >= 0 { return true }
            report(exclusive ? "value \(instance.excerpt()) is not greater than \(bound.excerpt())"
                : "value \(instance.excerpt()) is less than the minimum \(bound.excerpt())", at: location)
            return false
        case .maximum(let bound, let exclusive):
            guard instance.isNumber else { return true }
            let order = SchemaNumber.compare(instance, bound)
            if exclusive ? order < 0 : order <= 0 { return true }
            report(exclusive ? "value \(instance.excerpt()) is not less than \(bound.excerpt())"
                : "value \(instance.excerpt()) is greater than the maximum \(bound.excerpt())", at: location)
            return false
        case .multipleOf(let divisor):
            guard instance.isNumber, !SchemaNumber.isMultiple(instance, of: divisor) else { return true }
            report("value \(instance.excerpt()) is not a multiple of \(divisor.excerpt())", at: location)
            return false
        case .minLength(let minimum):
            guard case .string(let text) = instance else { return true }
            let length = text.unicodeScalars.count
            if length >= minimum { return true }
            report("expected at least \(Self.counted(minimum, "character", "characters")), got \(length)", at: location)
            return false
        case .maxLength(let maximum):
            guard case .string(let text) = instance else { return true }
            let length = text.unicodeScalars.count
            if length <= maximum { return true }
            report("expected at most \(Self.counted(maximum, "character", "characters")), got \(length)", at: location)
            return false
        case .pattern(let pattern):
            guard case .string(let text) = instance, !pattern.matches(text) else { return true }
            report("\(instance.excerpt()) does not match the pattern \(JSON.string(pattern.source).excerpt())", at: location)
            return false
        case .allOf(let branches):
            var valid = true
            for branch in branches where !validate(branch, instance) {
                valid = false
                if !collecting { return false }
            }
            return valid
        case .anyOf(let branches):
            let matched = quickly { validator in branches.contains { validator.validate($0, instance) } }
            if matched { return true }
            reportAlternatives(branches, keyword: "anyOf", at: location, instance)
            return false
        case .oneOf(let branches):
            return checkOneOf(branches, at: location, instance)
        case .not(let node):
            guard quickly({ $0.validate(node, instance) }) else { return true }
            report("the value must not match the \"not\" schema", at: location)
            return false
        case .conditional(let condition, let then, let otherwise):
            let branch = quickly { $0.validate(condition, instance) } ? then : otherwise
            guard let branch else { return true }
            return validate(branch, instance)
        case .reference(let target):
            return checkReference(target, at: location, instance)
        }
    }

    private mutating func checkMembers(_ members: SchemaMembers, _ instance: JSON) -> Bool {
        guard case .object(let object) = instance else { return true }
        var valid = true
        for (name, value) in object {
            var matched = false
            if let node = members.properties[name] {
                matched = true
                if !validate(node, value, token: name) {
                    valid = false
                    if !collecting || isFull { return false }
                }
            }
            for (pattern, node) in members.patterns where pattern.matches(name) {
                matched = true
                if !validate(node, value, token: name) {
                    valid = false
                    if !collecting || isFull { return false }
                }
            }
            guard !matched, let additional = members.additional else { continue }
            if case .rejectAll = nodes[additional] {
                report("unknown property \(JSON.string(name).excerpt())", at: members.additionalLocation, token: name)
                valid = false
            } else if !validate(additional, value, token: name) {
                valid = false
            }
            if !valid && (!collecting || isFull) { return false }
        }
        return valid
    }

    private mutating func checkPropertyNames(_ node: Int, at location: String, _ instance: JSON) -> Bool {
        guard case .object(let object) = instance else { return true }
        var valid = true
        for name in object.keys {
            let first = findings.count
            if validate(node, .string(name), token: name) { continue }
            valid = false
            if !collecting { return false }
            for index in first..<findings.count {
                findings[index].message = "invalid property name: " + findings[index].message
            }
        }
        return valid
    }

    private mutating func checkItems(_ items: SchemaItems, _ instance: JSON) -> Bool {
        guard case .array(let elements) = instance else { return true }
        var valid = true
        for (position, element) in elements.enumerated() {
            let node: Int
            if position < items.prefix.count {
                node = items.prefix[position]
            } else if let rest = items.rest {
                if case .rejectAll = nodes[rest] {
                    report("unexpected item: at most \(Self.counted(items.prefix.count, "item", "items")) allowed",
                        at: items.restLocation, token: String(position))
                    return false
                }
                node = rest
            } else {
                break
            }
            if !validate(node, element, token: String(position)) {
                valid = false
                if !collecting || isFull { return false }
            }
        }
        return valid
    }

    private mutating func checkContains(_ node: Int, minimum: Int, maximum: Int?, at location: String, _ instance: JSON) -> Bool {
        guard case .array(let elements) = instance else { return true }
        let matches = quickly { validator in
            elements.indices.filter { validator.validate(node, elements[$0], token: String($0)) }.count
        }
        if matches < minimum {
            report(minimum == 1 && maximum == nil ? "no item matches the \"contains\" schema"
                : "expected at least \(Self.counted(minimum, "item", "items")) matching \"contains\", found \(matches)", at: location)
            return false
        }
        if let maximum, matches > maximum {
            report("expected at most \(Self.counted(maximum, "item", "items")) matching \"contains\", found \(matches)", at: location)
            return false
        }
        return true
    }

    private mutating func checkUniqueItems(at location: String, _ instance: JSON) -> Bool {
        guard case .array(let elements) = instance else { return true }
        var firstPositions: [JSON: Int] = [:]
        for (position, element) in elements.enumerated() {
            if let first = firstPositions.updateValue(position, forKey: element.schemaNormalized) {
                report("items \(first) and \(position) are equal", at: location)
                return false
            }
        }
        return true
    }

    private mutating func checkOneOf(_ branches: [Int], at location: String, _ instance: JSON) -> Bool {
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
            reportAlternatives(branches, keyword: "oneOf", at: location, instance)
        } else {
            report("the value matches more than one schema of \"oneOf\" (\(matching[0]) and \(matching[1]))", at: location)
        }
        return false
    }

    /// Follows a `$ref`, refusing to enter a target that is already being
    /// evaluated for this same value: that recursion would never end.
    private mutating func checkReference(_ target: Int, at location: String, _ instance: JSON) -> Bool {
        for active in activeReferences.reversed() {
            guard active.pathDepth == path.count else { break }
            if active.node == target {
                report("\"$ref\" loops back to a schema already applied to this value, without reading any part of it",
                    at: location)
                return false
            }
        }
        activeReferences.append((target, path.count))
        defer { activeReferences.removeLast() }
        return validate(target, instance)
    }

    // MARK: - Message helpers

    static func counted(_ count: Int, _ singular: String, _ plural: String) -> String {
        "\(count) \(count == 1 ? singular : plural)"
    }

    /// `["ENABLED", "DISABLED"]`, cut after a dozen values.
    static func list(_ values: [JSON]) -> String {
        var shown = values.prefix(12).map { $0.excerpt(limit: 40) }
        if values.count > 12 { shown.append("…") }
        return "[" + shown.joined(separator: ", ") + "]"
    }
}
