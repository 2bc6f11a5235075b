import BuntingJSON

/// One compiled (sub)schema. Subschemas are named by their index in the
/// compiled schema's node list, so that `$ref` cycles need no references.
enum SchemaNode: Sendable {
    /// `true`, `{}`, or a schema of annotations only.
    case acceptAll
    /// `false`, and where it was written, for the message.
    case rejectAll(SchemaPlace)
    case keywords([SchemaKeyword])
}

/// Where a schema object was written. Messages name keywords by location,
/// `<resource>#<pointer>` (the resource left out for the root document), but
/// the text is only made for a message: most keywords never fail.
final class SchemaPlace: Sendable {
    let resource: String
    let pointer: JSONPointer

    init(resource: String, pointer: JSONPointer) {
        self.resource = resource
        self.pointer = pointer
    }

    var location: String { resource + "#" + pointer.description }

    func location(of keyword: String) -> String {
        resource + "#" + pointer.appending(keyword).description
    }
}

/// A keyword with its compiled argument and where it was written.
///
/// A class, though immutable: validation reads keywords millions of times,
/// and copying a reference costs one retain where copying the value would
/// retain each part of its argument.
final class SchemaKeyword: Sendable {
    let place: SchemaPlace
    let name: String
    let check: SchemaCheck

    init(place: SchemaPlace, name: String, check: SchemaCheck) {
        self.place = place
        self.name = name
        self.check = check
    }

    var location: String { place.location(of: name) }
}

/// The keywords that assert something, after compilation. Annotations
/// (`title`, `default`, `format`, ...) leave no trace here.
enum SchemaCheck: Sendable {
    case type(SchemaTypes)
    /// Values normalized with `schemaNormalized`; `original` keeps them as written, for messages.
    case enumeration(Set<JSON>, original: [JSON])
    case constant(JSON, original: JSON)

    /// `properties`, `patternProperties` and `additionalProperties` of one
    /// schema object, checked in one pass over the instance's members.
    case members(SchemaMembers)
    case propertyNames(Int)
    case required([String])
    case dependentRequired([(property: String, requires: [String])])
    case dependentSchemas([(property: String, node: Int)])
    case minProperties(Int)
    case maxProperties(Int)

    /// `prefixItems` (or draft-07 array-form `items`) and the schema for the
    /// items after them (`items`, or draft-07 `additionalItems`).
    case items(SchemaItems)
    case contains(node: Int, minimum: Int, maximum: Int?)
    case minItems(Int)
    case maxItems(Int)
    case uniqueItems

    case minimum(JSON, exclusive: Bool)
    case maximum(JSON, exclusive: Bool)
    case multipleOf(JSON)

    case minLength(Int)
    case maxLength(Int)
    case pattern(SchemaPattern)

    case allOf([Int])
    case anyOf([Int])
    case oneOf([Int])
    case not(Int)
    case conditional(condition: Int, then: Int?, else: Int?)
    case reference(Int)
}

struct SchemaMembers: Sendable {
    var properties: [String: Int] = [:]
    var patterns: [(pattern: SchemaPattern, node: Int)] = []
    var additional: Int?
}

struct SchemaItems: Sendable {
    var prefix: [Int] = []
    var rest: Int?
    /// `items`, or `additionalItems` beside draft-07 array-form `items`.
    var restKeyword = "items"
}
