import BuntingJSON
import BuntingSchema
import Foundation
import Testing

/// `schemas/definitions.schema.json`: the shape of a Bunting definitions document.
@Suite struct DefinitionsSchemaTests {
    static let url = Fixtures.repository.appendingPathComponent("schemas/definitions.schema.json")

    static func schema() throws -> JSONSchema {
        try JSONSchema(Fixtures.json(url))
    }

    /// The small document of DESIGN.md, verbatim.
    static let designExample = #"""
        {
          "channels": {"featureFlags": true, "banners": true, "contentCards": {"enabled": true}},
          "$evaluators": {"isGold": {"==": [{"var": "tier"}, "gold"]}},
          "flags": {
            "checkout": {
              "state": "ENABLED",
              "variants": {
                "new": {"enabled": true, "properties": {"color": {"type": "string", "value": "green"}}},
                "old": {"enabled": false, "properties": {}}
              },
              "defaultVariant": "old",
              "targeting": {"if": [{"$ref": "isGold"}, "new", "old"]}
            },
            "rollout": {"state": "ENABLED", "variants": {"on": true, "off": false},
                        "defaultVariant": "off", "targeting": {"fractional": [["on", 25], ["off", 75]]}}
          },
          "banners": [
            {"id": "spring-top", "placementId": "home-top", "html": "<p>Spring</p>", "priority": 10,
             "properties": {"theme": {"type": "string", "value": "dark"}}, "targeting": {"$ref": "isGold"}}
          ],
          "contentCards": [
            {"id": "welcome", "type": "captionedImage", "title": "Welcome", "description": "Start here",
             "imageUrl": "https://example.com/w.png", "aspectRatio": 1.5, "url": "https://example.com",
             "linkText": "Open", "extras": {"feed": "inbox"}, "created": 1700900000, "pinned": false,
             "dismissible": true, "expiresAt": 4102444800}
          ]
        }
        """#

    @Test func theDesignExampleAndTheSchemasOwnExamplesAreValid() throws {
        let schema = try Self.schema()
        #expect(schema.validate(try JSON.parse(Self.designExample)).isEmpty)
        let examples = try #require(try Fixtures.json(Self.url)["examples"]?.arrayValue)
        #expect(!examples.isEmpty)
        for example in examples { #expect(schema.validate(example).isEmpty, "\(example.encodedString())") }
        #expect(schema.isValid(["$schema": "https://example.com/definitions.schema.json"]))
        #expect(schema.isValid([:]))
    }

    /// Each property the schema defines, and each definition, says what it is for.
    @Test func everyPropertyHasADescription() throws {
        var undescribed: [String] = []
        func visit(_ schema: JSON, at pointer: JSONPointer, narrowing: Bool) {
            guard case .object(let object) = schema else { return }
            for (keyword, value) in object {
                let here = pointer.appending(keyword)
                switch (keyword, value) {
                case ("properties", .object(let properties)):
                    for (name, property) in properties {
                        // Properties restated inside if/then only narrow a described property.
                        if property["description"] == nil && !narrowing {
                            undescribed.append(here.appending(name).description)
                        }
                        visit(property, at: here.appending(name), narrowing: narrowing)
                    }
                case ("$defs", .object(let definitions)):
                    for (name, definition) in definitions {
                        if definition["description"] == nil { undescribed.append(here.appending(name).description) }
                        visit(definition, at: here.appending(name), narrowing: false)
                    }
                case ("if", _), ("then", _), ("else", _):
                    visit(value, at: here, narrowing: true)
                case ("allOf", .array(let schemas)), ("anyOf", .array(let schemas)), ("oneOf", .array(let schemas)),
                    ("prefixItems", .array(let schemas)):
                    for (index, element) in schemas.enumerated() {
                        visit(element, at: here.appending(index), narrowing: narrowing)
                    }
                case ("items", _), ("additionalProperties", _), ("propertyNames", _), ("not", _), ("contains", _):
                    visit(value, at: here, narrowing: narrowing)
                default:
                    break
                }
            }
        }
        visit(try Fixtures.json(Self.url), at: .root, narrowing: false)
        #expect(undescribed == [])
    }

    /// A document with one mistake each, and where the mistake is reported.
    static let mistakes: [(String, String, String)] = [
        (#"{"channel": {}}"#, "/channel", #"unknown property "channel""#),
        (#"{"channels": {"banners": "yes"}}"#, "/channels/banners", "expected boolean or object, got string"),
        (
            #"{"channels": {"contentCards": {"enabled": 1}}}"#, "/channels/contentCards/enabled",
            "expected boolean, got integer"
        ),
        (
            #"{"fractionalHashing": "md5"}"#, "/fractionalHashing",
            #"value "md5" is not one of ["murmur3-string", "murmur3-cbor"]"#
        ),
        (
            #"{"flags": {"f": {"state": "ENABLED", "variants": {"a": {"enabled": "yes"}}}}}"#,
            "/flags/f/variants/a/enabled", "expected boolean, got string"
        ),
        (
            #"{"flags": {"f": {"state": "ENABLED", "variants": {"a": {"enabled": true, "properties": {"p": {"type": "number", "value": "1"}}}}}}}"#,
            "/flags/f/variants/a/properties/p/value", "expected number, got string"
        ),
        (
            #"{"flags": {"f": {"state": "ENABLED", "variants": {"a": 1}, "targeting": {"fractional": [["a", 1.5]]}}}}"#,
            "/flags/f/targeting/fractional/0/1", "expected object or integer, got number"
        ),
        (
            #"{"banners": [{"id": "b", "placementId": "p", "html": "", "priority": 1}]}"#, "/banners/0",
            #"missing required property "properties""#
        ),
        (
            #"{"banners": [{"id": "", "placementId": "p", "html": "", "priority": 1, "properties": {}}]}"#,
            "/banners/0/id", "expected at least 1 character, got 0"
        ),
        (
            #"{"banners": [{"id": "b", "placementId": "p", "html": "", "priority": 1.5, "properties": {}}]}"#,
            "/banners/0/priority", "expected integer, got number"
        ),
        (
            #"{"banners": [{"id": "b", "placementId": "p", "html": "", "priority": 1, "properties": {}, "controlShare": 1.5}]}"#,
            "/banners/0/controlShare", "value 1.5 is greater than the maximum 1"
        ),
        (
            #"{"banners": [{"id": "b", "placementId": "p", "html": "", "priority": 1, "properties": {"i": {"type": "image", "value": 3}}}]}"#,
            "/banners/0/properties/i/value", "expected string, got integer"
        ),
        (
            #"{"banners": [{"id": "b", "placementId": "p", "html": "", "priority": 1, "properties": {"c": {"type": "colour", "value": "red"}}}]}"#,
            "/banners/0/properties/c/type",
            #"value "colour" is not one of ["string", "number", "boolean", "image", "jsonobject", "datetime"]"#
        ),
        (
            #"{"banners": [{"id": "b", "placementId": "p", "html": "", "priority": 1, "properties": {}, "schedule": {"start": 1700000000000}}]}"#,
            "/banners/0/schedule/start", "value 1700000000000 is greater than the maximum 99999999999"
        ),
        (
            #"{"banners": [{"id": "b", "placementId": "p", "html": "", "priority": 1, "properties": {}, "targeting": {"starts_with": [{"var": "email"}, 1]}}]}"#,
            "/banners/0/targeting/starts_with/1", "expected object or string, got integer"
        ),
        (
            #"{"contentCards": [{"id": "c", "type": "imageOnly", "extras": {}, "created": 1}]}"#, "/contentCards/0",
            #"missing required property "imageUrl""#
        ),
        (
            #"{"contentCards": [{"id": "c", "type": "classic", "extras": {}, "created": 1}]}"#,
            "/contentCards/0", #"missing required property "title" or "description""#
        ),
        (
            #"{"contentCards": [{"id": "c", "type": "captionedImage", "imageUrl": "u", "extras": {}, "created": 1}]}"#,
            "/contentCards/0", #"missing required property "title""#
        ),
        (
            #"{"contentCards": [{"id": "c", "type": "control", "title": "t", "extras": {}, "created": 1}]}"#,
            "/contentCards/0/type", #"value "control" is not one of ["classic", "captionedImage", "imageOnly"]"#
        ),
        (
            #"{"contentCards": [{"id": "c", "type": "classic", "title": "t", "extras": {"n": 1}, "created": 1}]}"#,
            "/contentCards/0/extras/n", "expected string, got integer"
        ),
        (
            #"{"contentCards": [{"id": "c", "type": "classic", "title": "t", "extras": {}, "created": 1, "colour": "red"}]}"#,
            "/contentCards/0/colour", #"unknown property "colour""#
        ),
        (
            #"{"contentCards": [{"id": "c", "type": "classic", "title": "t", "extras": {}, "created": "2024-01-01"}]}"#,
            "/contentCards/0/created", "expected number, got string"
        ),
        (#"{"$evaluators": {"e": {"==": [1]}}}"#, "/$evaluators/e/==", "expected at least 2 items, got 1"),
        (
            #"{"banners": [{"id": "b", "placementId": "p", "html": "", "priority": 1, "properties": {"p": {"value": 1}}}]}"#,
            "/banners/0/properties/p", #"missing required property "type""#
        ),
    ]

    @Test(arguments: mistakes)
    func mistakesAreFoundWhereTheyAre(_ document: String, _ pointer: String, _ message: String) throws {
        let found = try Self.schema().validate(JSON.parse(document))
        #expect(found.map(\.description) == [pointer + ": " + message])
    }

    /// The copy built into the binary (`scripts/compact-schema`: no
    /// annotations, no whitespace) compiles with every pattern read, and
    /// finds what the schema finds, in the same words and places.
    @Test func theBuiltInCompactCopyFindsWhatTheSchemaFinds() throws {
        let compactURL = Fixtures.repository.appendingPathComponent(
            "Sources/BuntingDefinitions/Resources/definitions.schema.compact.json")
        let full = try Self.schema()
        let compact = try JSONSchema(Fixtures.json(compactURL))
        var documents = try Self.mistakes.map { try JSON.parse($0.0) }
        documents.append(try JSON.parse(Self.designExample))
        documents.append(
            try Fixtures.json(Fixtures.repository.appendingPathComponent("examples/definitions/bunting.json")))
        for fixture in FlagdSchemaTests.fixtures {
            let value = try Fixtures.json(fixture.url)
            documents.append(
                fixture.folder == "targeting"
                    ? ["flags": ["f": ["state": "ENABLED", "variants": ["on": true], "targeting": value]]] : value)
        }
        #expect(documents.count > 50)
        for document in documents {
            let (fromCompact, fromFull) = (compact.validate(document), full.validate(document))
            #expect(fromCompact.map(\.description) == fromFull.map(\.description))
            #expect(fromCompact.map(\.keywordLocation) == fromFull.map(\.keywordLocation))
        }
    }

    /// One compiled schema, shared by concurrent validations, gives each the same answer.
    @Test func oneSchemaServesManyTasks() async throws {
        let schema = try Self.schema()
        let valid = try JSON.parse(Self.designExample)
        let invalid = try JSON.parse(
            #"{"flags": {"f": {"state": "ON", "variants": {"a": 1}, "targeting": {"var": "$flagd.x"}}}}"#)
        let expected = schema.validate(invalid)
        #expect(expected.count == 2)
        let results = await withTaskGroup(of: (Bool, [JSONSchemaViolation]).self) { group in
            for _ in 0..<16 {
                group.addTask { (schema.isValid(valid), schema.validate(invalid)) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 16)
        for (isValid, found) in results {
            #expect(isValid)
            #expect(found == expected)
        }
    }

    @Test func violationsCanBeShownAtLineAndColumn() throws {
        let text = """
            {
              "contentCards": [
                {"id": "c", "type": "classic", "title": "t", "extras": {},
                 "created": 1, "pinned": "yes"}
              ]
            }
            """
        let found = try Self.schema().validate(JSON.parse(text))
        let violation = try #require(found.first)
        #expect(violation.description == "/contentCards/0/pinned: expected boolean, got string")
        #expect(JSONSourceLocator(text).location(of: violation.instanceLocation)?.description == "4:30")
    }

    // MARK: - flagd's fixtures, as a Bunting document

    /// Every flag document of flagd's tests: map-form flags follow flagd's
    /// verdict; array-form flags (flagd daemon's own extension, `flagd.json`)
    /// are not Bunting's format and are refused like flags.json refuses them.
    @Test(arguments: FlagdSchemaTests.fixtures.filter { $0.folder != "targeting" })
    func flagdFlagDocuments(_ fixture: FlagdSchemaTests.Fixture) throws {
        let document = try Fixtures.json(fixture.url)
        let found = try Self.schema().validate(document)
        if case .array? = document["flags"] {
            #expect(found.map(\.description) == ["/flags: expected object, got array"])
        } else if fixture.expectation == "positive" {
            #expect(found.isEmpty, "\(found)")
        } else {
            #expect(!found.isEmpty)
        }
    }

    /// Each targeting fixture as the targeting of a flag, of a banner and of a
    /// card, and as an evaluator.
    @Test(arguments: FlagdSchemaTests.fixtures.filter { $0.folder == "targeting" })
    func flagdTargetingRules(_ fixture: FlagdSchemaTests.Fixture) throws {
        let rule = try Fixtures.json(fixture.url)
        let flag: JSON = ["state": "ENABLED", "variants": ["on": true, "off": false], "targeting": rule]
        let banner: JSON = [
            "id": "b", "placementId": "p", "html": "", "priority": 1, "properties": [:], "targeting": rule,
        ]
        let card: JSON = ["id": "c", "type": "classic", "title": "t", "extras": [:], "created": 1, "targeting": rule]
        let documents: [(JSON, String)] = [
            (["flags": ["f": flag]], "/flags/f/targeting"),
            (["banners": [banner]], "/banners/0/targeting"),
            (["contentCards": [card]], "/contentCards/0/targeting"),
            (["$evaluators": ["e": rule]], "/$evaluators/e"),
        ]
        let schema = try Self.schema()
        for (document, place) in documents {
            let found = schema.validate(document)
            if fixture.expectation == "positive" {
                #expect(found.isEmpty, "\(place): \(found)")
            } else {
                #expect(!found.isEmpty, "\(place)")
                #expect(found.allSatisfy { $0.instanceLocation.description.hasPrefix(place + "/") }, "\(found)")
            }
        }
    }

    @Test func flagdExamples() throws {
        let schema = try Self.schema()
        #expect(
            schema.validate(try Fixtures.json(Fixtures.flagdJSON.appendingPathComponent("examples/minimal.json")))
                .isEmpty)
        let full = schema.validate(try Fixtures.json(Fixtures.flagdJSON.appendingPathComponent("examples/full.json")))
        #expect(
            full.map(\.instanceLocation.description) == [
                "/flags/starts-ends-flag/targeting/if/2/if/2/if/0/ends_with/1",
                "/flags/equal-greater-lesser-version-flag/targeting/if/2/if/2/if/2/if/0/sem_ver/2",
            ])
    }
}
