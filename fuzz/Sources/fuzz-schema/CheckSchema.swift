import BuntingJSON
import BuntingSchema
import FuzzSupport

/// Compiles a JSON Schema and validates instances with it. The input is a JSON
/// text: `[schema, instance...]`, or any other value, which is then both the
/// schema and the one instance. Checks:
/// - `isValid` agrees with `validate` finding nothing;
/// - `validate` keeps to its limit, and with a limit of one reports the first
///   violation the unlimited run reports;
/// - every violation's instance location is a value of the instance, which
///   `JSONSourceLocator` finds in the instance's text at a byte that starts a
///   value of that kind;
/// - `JSONSourceLocator` finds every value of the input in the input's own text.
func checkSchema(_ bytes: UnsafeRawBufferPointer) {
    guard let document = try? JSON.parse(bytes) else { return }
    checkLocations(of: document, in: Array(bytes))

    let schemaValue: JSON
    let instances: [JSON]
    if case .array(let elements) = document, let first = elements.first {
        schemaValue = first
        instances = Array(elements.dropFirst())
    } else {
        schemaValue = document
        instances = [document]
    }
    guard let schema = try? JSONSchema(schemaValue, uri: "https://example.com/fuzz.json") else { return }

    for instance in instances {
        let violations = schema.validate(instance)
        require(violations.count <= JSONSchema.defaultViolationLimit, "\(violations.count) violations past the limit")
        require(schema.isValid(instance) == violations.isEmpty, "isValid disagrees with \(violations.count) violations")
        let first = schema.validate(instance, limit: 1)
        require(
            first == Array(violations.prefix(1)),
            "with a limit of one: \(first.map(describe)), unlimited: \(violations.prefix(3).map(describe))")

        let text = instance.encoded()
        let locator = JSONSourceLocator(text)
        for violation in violations {
            guard let value = violation.instanceLocation.resolve(in: instance) else {
                require(false, "violation at \(violation.instanceLocation), which the instance does not hold")
                return
            }
            guard let location = locator.location(of: violation.instanceLocation) else {
                require(false, "no source location for \(violation.instanceLocation)")
                return
            }
            require(
                startsValue(of: value, at: location.offset, in: text),
                "location \(location) of "
                    + "\(violation.instanceLocation) in \(String(decoding: text.prefix(200), as: UTF8.self))")
        }
    }
}

private func describe(_ violation: JSONSchemaViolation) -> String {
    "\(violation.instanceLocation) \(violation.keywordLocation): \(violation.message)"
}

/// Looks up the first few hundred values of `document` in its own text.
private func checkLocations(of document: JSON, in text: [UInt8]) {
    let locator = JSONSourceLocator(text)
    var pending: [(JSONPointer, JSON)] = [(.root, document)]
    var checked = 0
    while let (pointer, value) = pending.popLast(), checked < 300 {
        checked += 1
        guard let location = locator.location(of: pointer) else {
            require(false, "no source location for \(pointer)")
            return
        }
        require(
            startsValue(of: value, at: location.offset, in: text),
            "location \(location) of \(pointer) starts no \(kind(of: value))")
        switch value {
        case .array(let elements):
            for (index, element) in elements.enumerated() { pending.append((pointer.appending(index), element)) }
        case .object(let members):
            for (key, member) in members { pending.append((pointer.appending(key), member)) }
        default:
            break
        }
    }
}

/// Whether the byte at `offset` is one a value of `value`'s kind starts with.
private func startsValue(of value: JSON, at offset: Int, in text: [UInt8]) -> Bool {
    guard offset >= 0, offset < text.count else { return false }
    let byte = text[offset]
    switch value {
    case .null: return byte == UInt8(ascii: "n")
    case .bool(let flag): return byte == UInt8(ascii: flag ? "t" : "f")
    case .integer, .real: return byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    case .string: return byte == UInt8(ascii: "\"")
    case .array: return byte == UInt8(ascii: "[")
    case .object: return byte == UInt8(ascii: "{")
    }
}

private func kind(of value: JSON) -> String {
    switch value {
    case .null: "null"
    case .bool: "boolean"
    case .integer, .real: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
}
