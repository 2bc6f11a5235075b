import BuntingJSON

/// The keywords that judge a value by itself, and the messages of them all.
/// Nothing here recurses into subschemas, so these frames are never stacked.
extension SchemaValidator {
    mutating func checkAssertion(_ keyword: SchemaKeyword, _ instance: JSON) -> Bool {
        switch keyword.check {
        case .type(let types):
            if types.admits(instance) { return true }
            report("expected \(types.listed), got \(instance.typeName)", at: keyword, kind: .type(types))
        case .enumeration(let values, let original):
            if values.contains(instance.schemaNormalized) { return true }
            report("value \(instance.excerpt()) is not one of \(Self.list(original))", at: keyword, kind: .value)
        case .constant(let value, let original):
            if instance.schemaNormalized == value { return true }
            report("expected \(original.excerpt()), got \(instance.excerpt())", at: keyword, kind: .value)
        case .required(let names):
            guard case .object(let object) = instance else { return true }
            let missing = names.filter { object[$0] == nil }
            for name in missing {
                report("missing required property \(Self.quoted(name))", at: keyword, kind: .missingProperty(name))
            }
            return missing.isEmpty
        case .dependentRequired(let dependencies):
            guard case .object(let object) = instance else { return true }
            var valid = true
            for (property, requires) in dependencies where object[property] != nil {
                for name in requires where object[name] == nil {
                    report("property \(Self.quoted(property)) requires property \(Self.quoted(name))", at: keyword)
                    valid = false
                }
            }
            return valid
        case .minProperties(let minimum):
            guard case .object(let object) = instance, object.count < minimum else { return true }
            report(
                "expected at least \(Self.counted(minimum, "property", "properties")), got \(object.count)",
                at: keyword)
        case .maxProperties(let maximum):
            guard case .object(let object) = instance, object.count > maximum else { return true }
            report(
                "expected at most \(Self.counted(maximum, "property", "properties")), got \(object.count)",
                at: keyword)
        case .minItems(let minimum):
            guard case .array(let elements) = instance, elements.count < minimum else { return true }
            report("expected at least \(Self.counted(minimum, "item", "items")), got \(elements.count)", at: keyword)
        case .maxItems(let maximum):
            guard case .array(let elements) = instance, elements.count > maximum else { return true }
            report("expected at most \(Self.counted(maximum, "item", "items")), got \(elements.count)", at: keyword)
        case .uniqueItems:
            return assertUniqueItems(at: keyword, instance)
        case .minimum(let bound, let exclusive):
            guard instance.isNumber else { return true }
            let order = SchemaNumber.compare(instance, bound)
            if exclusive ? order > 0 : order >= 0 { return true }
            report(
                exclusive
                    ? "value \(instance.excerpt()) is not greater than \(bound.excerpt())"
                    : "value \(instance.excerpt()) is less than the minimum \(bound.excerpt())", at: keyword)
        case .maximum(let bound, let exclusive):
            guard instance.isNumber else { return true }
            let order = SchemaNumber.compare(instance, bound)
            if exclusive ? order < 0 : order <= 0 { return true }
            report(
                exclusive
                    ? "value \(instance.excerpt()) is not less than \(bound.excerpt())"
                    : "value \(instance.excerpt()) is greater than the maximum \(bound.excerpt())", at: keyword)
        case .multipleOf(let divisor):
            guard instance.isNumber, !SchemaNumber.isMultiple(instance, of: divisor) else { return true }
            report("value \(instance.excerpt()) is not a multiple of \(divisor.excerpt())", at: keyword)
        case .minLength(let minimum):
            // A scalar takes one to four UTF-8 bytes: counting them is rarely needed.
            guard case .string(let text) = instance, text.utf8.count / 4 < minimum else { return true }
            let length = text.unicodeScalars.count
            if length >= minimum { return true }
            report("expected at least \(Self.counted(minimum, "character", "characters")), got \(length)", at: keyword)
        case .maxLength(let maximum):
            guard case .string(let text) = instance, text.utf8.count > maximum else { return true }
            let length = text.unicodeScalars.count
            if length <= maximum { return true }
            report("expected at most \(Self.counted(maximum, "character", "characters")), got \(length)", at: keyword)
        case .pattern(let pattern):
            guard case .string(let text) = instance, !pattern.matches(text) else { return true }
            report("\(instance.excerpt()) does not match the pattern \(Self.quoted(pattern.source))", at: keyword)
        default:
            return true // keywords that apply subschemas are checked in SchemaValidator.swift
        }
        return false
    }

    private mutating func assertUniqueItems(at keyword: SchemaKeyword, _ instance: JSON) -> Bool {
        guard case .array(let elements) = instance else { return true }
        var firstPositions: [JSON: Int] = [:]
        for (position, element) in elements.enumerated() {
            if let first = firstPositions.updateValue(position, forKey: element.schemaNormalized) {
                report("items \(first) and \(position) are equal", at: keyword)
                return false
            }
        }
        return true
    }

    // MARK: - Messages of the keywords that apply subschemas

    mutating func reportUnknownProperty(_ name: String, at location: @autoclosure () -> String) {
        report("unknown property \(Self.quoted(name))", at: location(), kind: .unknownProperty, token: .key(name))
    }

    mutating func reportUnexpectedItem(_ position: Int, allowed: Int, at location: @autoclosure () -> String) {
        report(
            "unexpected item: at most \(Self.counted(allowed, "item", "items")) allowed", at: location(),
            token: .index(position))
    }

    mutating func reportContains(_ matches: Int, minimum: Int, maximum: Int?, at keyword: SchemaKeyword) {
        if matches < minimum {
            report(
                minimum == 1 && maximum == nil
                    ? "no item matches the \"contains\" schema"
                    : "expected at least \(Self.counted(minimum, "item", "items")) "
                        + "matching \"contains\", found \(matches)", at: keyword)
        } else if let maximum {
            report(
                "expected at most \(Self.counted(maximum, "item", "items")) "
                    + "matching \"contains\", found \(matches)", at: keyword)
        }
    }

    mutating func reportSeveralMatches(_ first: Int, _ second: Int, at keyword: SchemaKeyword) {
        report("the value matches more than one schema of \"oneOf\" (\(first) and \(second))", at: keyword)
    }

    mutating func reportReferenceLoop(at keyword: SchemaKeyword) {
        report(
            "\"$ref\" loops back to a schema already applied to this value, without reading any part of it",
            at: keyword)
    }

    mutating func reportTooDeep() {
        report("the value is nested too deeply to validate", at: "#")
    }

    /// Said once; every evaluation after the budget ran out fails at once.
    mutating func reportTooComplex() {
        guard !findings.contains(where: { $0.message == Self.tooComplex }) else { return }
        report(Self.tooComplex, at: "#")
    }

    private static let tooComplex = "the document is too complex to validate against this schema"

    mutating func markAsPropertyName(_ positions: Range<Int>) {
        for position in positions { prefixMessage(at: position, with: "invalid property name: ") }
    }

    // MARK: - Message helpers

    static func quoted(_ text: String) -> String {
        JSON.string(text).excerpt()
    }

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
