import BuntingCore
@testable import BuntingDefinitions
import BuntingJSON
import Foundation
import Testing

/// A document never seen is served before its full load only when its
/// structure says it loads: that verdict must never be wrong (every document
/// it passes loads, leniently), and it must pass the documents that do load,
/// problems inside items and all, or it saves nothing.
@Suite struct DocumentStructureTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private func loads(_ bytes: [UInt8]) -> Bool {
        if case .success = Definitions.load(bytes) { return true }
        return false
    }

    /// The verdict is never wrong on `bytes`.
    private func expectSound(_ bytes: [UInt8], _ comment: String = "") {
        guard DocumentStructure.surelyLoads(bytes) else { return }
        #expect(
            loads(bytes),
            "said to load, but the load refuses: \(comment) \(String(decoding: bytes.prefix(300), as: UTF8.self))")
    }

    /// The skeleton `scripts/compact-schema` wrote is the built-in schema
    /// with the item sections reduced to their types (which must be all
    /// they say of the section itself) and the definitions the rest uses.
    @Test func theSkeletonSchemaIsDerivedFromTheBuiltInOne() throws {
        #expect(DocumentStructure.skeletonSchema != nil)
        let written = try JSON.parse(PackageResources.definitions_skeleton_compact_json)
        guard case .object(var schema) = try JSON.parse(PackageResources.definitions_schema_compact_json),
            case .object(var properties)? = schema["properties"], case .object(let definitions)? = schema["$defs"]
        else { throw Failure("the built-in schema's shape") }
        for section in DocumentStructure.itemSections {
            let sectionSchema = try #require(properties[section]?.objectValue)
            #expect(
                Set(sectionSchema.keys).isSubset(of: ["type", "propertyNames", "additionalProperties", "items"]),
                "\(section)")
            properties[section] = ["type": try #require(sectionSchema["type"])]
        }
        schema["properties"] = .object(properties)
        var kept = JSONObject()
        var pending = Self.references(in: .object(properties))
        while let reference = pending.popLast() {
            #expect(reference.hasPrefix("#/$defs/"))
            let name = String(reference.dropFirst("#/$defs/".count))
            guard kept[name] == nil else { continue }
            kept[name] = try #require(definitions[name])
            pending += Self.references(in: kept[name]!)
        }
        schema["$defs"] = .object(kept)
        #expect(written == .object(schema))
        #expect(kept.count < definitions.count / 4, "most definitions are the items'")
    }

    private static func references(in schema: JSON) -> [String] {
        switch schema {
        case .object(let members):
            members.flatMap { key, value -> [String] in
                if key == "$ref", case .string(let reference) = value { return [reference] }
                return references(in: value)
            }
        case .array(let elements): elements.flatMap(references(in:))
        default: []
        }
    }

    private struct Failure: Error {
        let what: String
        init(_ what: String) { self.what = what }
    }

    @Test func documentsThatLoadWithProblemsInsideItemsPass() throws {
        var documents = [
            DeferredDefinitionsTests.document, LenientLoadingTests.mixed,
            #"{"flags": {}}"#, #"{}"#, #"{"banners": [], "contentCards": []}"#,
            // Items the schema or the compiler finds wrong: each costs itself only.
            #"{"flags": {"a": {"state": "NOPE", "variants": 3}, "": {}}, "$evaluators": {"x": 5}}"#,
            #"{"banners": [7, {"id": 1}], "contentCards": [{"id": "c", "type": "weird"}]}"#,
        ]
        for path in [
            "examples/definitions/bunting.json", "Tests/BuntingRulesTests/Fixtures/flagd-schemas/examples/full.json",
        ] {
            documents.append(
                String(decoding: try Data(contentsOf: Self.root.appendingPathComponent(path)), as: UTF8.self))
        }
        for document in documents {
            let bytes = Array(document.utf8)
            #expect(loads(bytes), "\(document.prefix(80))")
            #expect(DocumentStructure.surelyLoads(bytes), "\(document.prefix(80))")
        }
    }

    @Test(arguments: [
        #"{"flags": "none"}"#, #"{"flags": []}"#, #"{"contentCards": {"a": 1}}"#, #"{"banners": 7}"#,
        #"{"channels": {"featureFlags": "on"}}"#, #"{"fractionalHashing": "md5"}"#, #"[]"#,
        #"{"flags": {}, "$evaluators": []}"#,
        #"{"flags": {}, "metadata": {"version": [1]}}"#, #"{"flags": {}, "unknown": 1}"#, #"{"features": {"f": 1}}"#,
        #"{"flags": {"a": }"#, #"{"flags": {}} x"#, #"{"features": {}, "savedGroups": {}}"#,
    ])
    func documentsWhoseStructureIsWrongDoNotPass(text: String) {
        #expect(!DocumentStructure.surelyLoads(Array(text.utf8)))
    }

    /// Every document of the fuzz corpora and the schema fixtures, and
    /// random changes of type anywhere in documents that load: what passes loads.
    @Test func whatPassesLoadsOnTheCorporaAndOnChangedDocuments() throws {
        var documents: [[UInt8]] = []
        for directory in [
            "fuzz/corpus/definitions", "fuzz/corpus/growthbook",
            "Tests/BuntingRulesTests/Fixtures/flagd-schemas/examples",
        ] {
            let url = Self.root.appendingPathComponent(directory)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] {
                documents.append(Array(try Data(contentsOf: url.appendingPathComponent(name))))
            }
        }
        documents.append(Array(DeferredDefinitionsTests.document.utf8))
        documents.append(
            Array(try Data(contentsOf: Self.root.appendingPathComponent("examples/definitions/bunting.json"))))
        #expect(documents.count > 20)
        var passed = 0
        for document in documents {
            if DocumentStructure.surelyLoads(document) { passed += 1 }
            expectSound(document)
        }
        #expect(passed > 5)

        // A value anywhere replaced by one of another type, from a fixed seed.
        let replacements: [JSON] = [.null, true, 7, 2.5, "text", [], [1, "a"], [:], ["k": "v"]]
        var random = UInt64(0x5EED)
        func next() -> Int {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: random >> 33)
        }
        let trees = documents.compactMap { try? JSON.parse($0) }.filter { if case .object = $0 { true } else { false } }
        for _ in 0..<3000 {
            var tree = trees[next() % trees.count]
            for _ in 0...(next() % 3) {
                tree = Self.replacing(tree, with: replacements[next() % replacements.count], pick: next)
            }
            expectSound(tree.encoded(), "changed")
        }
    }

    /// `value` with one member or element somewhere (chosen by `pick`) replaced by `replacement`.
    private static func replacing(_ value: JSON, with replacement: JSON, pick: () -> Int) -> JSON {
        switch value {
        case .object(var object) where !object.isEmpty:
            let key = object.keys[pick() % object.count]
            object[key] = pick() % 3 == 0 ? replacement : replacing(object[key]!, with: replacement, pick: pick)
            return .object(object)
        case .array(var array) where !array.isEmpty:
            let index = pick() % array.count
            array[index] = pick() % 3 == 0 ? replacement : replacing(array[index], with: replacement, pick: pick)
            return .array(array)
        default:
            return replacement
        }
    }
}
