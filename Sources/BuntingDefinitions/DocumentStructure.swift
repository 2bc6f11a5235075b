import BuntingExperiments
import BuntingJSON
import BuntingSchema

/// Whether a document is sure to load, told from its text and structure
/// alone: what lets a server serve a document it has never seen at once and
/// check and compile it in full in the background (`DeferredDefinitions`),
/// as it serves a document noted before.
///
/// A lenient load (`DefinitionsLoader`) refuses a document only for what is
/// wrong with the document as a whole: text that does not parse, a top level
/// that is not an object, a GrowthBook payload that cannot be read, and the
/// schema's findings outside every flag, evaluator, banner and card — which
/// include a section of the wrong type — and the flag set's own refusals,
/// which are of section types too. A mistake inside one flag, banner or card
/// costs that item only. So a document whose whole text parses to an object,
/// that is not a payload, and whose skeleton passes the schema is sure to
/// load: the skeleton is the document with each of those four sections
/// emptied (an object `{}`, an array `[]`; a value of another type kept, so
/// that its type is found wrong), checked against the schema with those
/// sections' item schemas left out. For the four sections the schema says
/// nothing but their type about the section itself (`propertyNames`,
/// `additionalProperties` and `items` speak of the items), and every other
/// member is checked in full as written. `DocumentStructureTests` hold it to
/// the full load on every document the tests and fuzz corpora have.
enum DocumentStructure {
    /// Documents up to this size are judged by their skeleton: the pass over
    /// the whole text it takes is then a few milliseconds, and large
    /// documents load as they always did.
    static let maxBytes = 1 << 20

    /// The sections whose items' mistakes stay with the item.
    static let itemSections = ["flags", "$evaluators", "banners", "contentCards"]

    /// The skeleton's schema: the built-in schema with the item sections'
    /// schemas reduced to their types and only the definitions the rest
    /// refers to, written by `scripts/compact-schema` (every definition of a
    /// schema is compiled, and the items' are most of them: compiling the
    /// whole schema cost more than the rest of a start). `DocumentStructureTests`
    /// derive it again from the built-in schema.
    static let skeletonSchema: JSONSchema? = {
        guard let schema = try? JSON.parse(PackageResources.definitions_skeleton_compact_json) else { return nil }
        return try? JSONSchema(schema, patterns: .onFirstUse)
    }()

    /// Whether a lenient load of `bytes` is sure to succeed. False says
    /// nothing: the document is then loaded in full before it serves.
    static func surelyLoads(_ bytes: [UInt8]) -> Bool {
        outlineIfSurelyLoads(bytes) != nil
    }

    /// The document's outline (where its members and its flags are written)
    /// when a lenient load of it is sure to succeed, else nil. The whole text
    /// is checked in one pass without being parsed; only the members outside
    /// the item sections are parsed, for the skeleton.
    static func outlineIfSurelyLoads(_ bytes: [UInt8]) -> JSONOutline? {
        guard let schema = skeletonSchema else { return nil }
        return bytes.withUnsafeBytes { text -> JSONOutline? in
            guard let outline = JSONOutline.of(text, inside: ["flags"]),
                !GrowthBookPayload.isPayload(topLevelKeys: outline.members.map(\.key))
            else { return nil }
            var skeleton = JSONObject()
            for member in outline.members {
                let value = UnsafeRawBufferPointer(rebasing: text[member.value])
                if itemSections.contains(member.key), let first = value.first,
                    first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
                {
                    skeleton[member.key] = first == UInt8(ascii: "{") ? .object([:]) : .array([])
                } else {
                    // One level below the document (as the load reads it); the whole text was checked at its depth.
                    guard let parsed = try? JSON.parse(value, maxDepth: JSON.defaultMaxDepth - 1) else { return nil }
                    skeleton[member.key] = parsed
                }
            }
            return schema.validate(.object(skeleton), limit: 1).isEmpty ? outline : nil
        }
    }
}
