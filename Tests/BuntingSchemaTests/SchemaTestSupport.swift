import BuntingJSON
import BuntingSchema

/// Compiles `schema` (JSON text) and validates `instance` (JSON text).
func violations(_ schema: String, _ instance: String, limit: Int = JSONSchema.defaultViolationLimit) throws
    -> [JSONSchemaViolation]
{
    try JSONSchema(JSON.parse(schema)).validate(JSON.parse(instance), limit: limit)
}

/// Whether `instance` is valid against `schema`, checked by both entry points,
/// which must agree.
func isValid(_ schema: String, _ instance: String) throws -> Bool {
    let compiled = try JSONSchema(JSON.parse(schema))
    let value = try JSON.parse(instance)
    let quick = compiled.isValid(value)
    let full = compiled.validate(value).isEmpty
    precondition(quick == full, "isValid and validate disagree on \(instance) against \(schema)")
    return quick
}

/// The violations as "pointer: message" lines.
func messages(_ schema: String, _ instance: String) throws -> [String] {
    try violations(schema, instance).map(\.description)
}
