import BuntingJSON
import BuntingSchema
import Testing

/// `$ref` in its forms, schema resources, and schemas that must not hang.
@Suite struct JSONSchemaReferenceTests {
    @Test func refersToDefsDefinitionsAndPointers() throws {
        let schema = #"""
            {"$defs": {"a b": {"type": "string"}, "x/y": {"type": "integer"}},
             "definitions": {"n": {"type": "number"}},
             "properties": {
               "p": {"$ref": "#/$defs/a%20b"}, "q": {"$ref": "#/$defs/x~1y"}, "r": {"$ref": "#/definitions/n"},
               "s": {"$ref": "#/properties/q"}}}
            """#
        #expect(try isValid(schema, #"{"p": "x", "q": 1, "r": 1.5, "s": 2}"#))
        #expect(
            try messages(schema, #"{"p": 1, "q": "x", "r": null, "s": 0.5}"#) == [
                "/p: expected string, got integer", "/q: expected integer, got string", "/r: expected number, got null",
                "/s: expected integer, got number",
            ])
    }

    @Test func recursiveSchemasFollowTheInstance() throws {
        let schema = ##"{"type": ["integer", "array"], "items": {"$ref": "#"}}"##
        #expect(try isValid(schema, "[1, [2, [3, []]]]"))
        #expect(try messages(schema, #"[1, [2, ["x"]]]"#) == ["/1/1/0: expected array or integer, got string"])
    }

    @Test func refSiblingsApplyIn2020ButNotInDraft07() throws {
        let modern = ##"{"$defs": {"s": {"type": "string"}}, "$ref": "#/$defs/s", "maxLength": 2}"##
        #expect(try !isValid(modern, #""abc""#))
        let draft07 = #"""
            {"$schema": "http://json-schema.org/draft-07/schema#",
             "definitions": {"s": {"type": "string"}}, "$ref": "#/definitions/s", "maxLength": 2}
            """#
        #expect(try isValid(draft07, #""abc""#))
    }

    @Test func anchorsAndEmbeddedIds() throws {
        let schema = #"""
            {"$id": "https://example.com/root.json",
             "properties": {
               "a": {"$ref": "#name"}, "b": {"$ref": "item.json"}, "c": {"$ref": "item.json#/$defs/inner"},
               "d": {"$ref": "https://example.com/root.json#/$defs/item/$defs/inner"}},
             "$defs": {
               "named": {"$anchor": "name", "type": "string"},
               "item": {"$id": "item.json", "type": "array", "$defs": {"inner": {"type": "boolean"}}}}}
            """#
        #expect(try isValid(schema, #"{"a": "x", "b": [], "c": true, "d": false}"#))
        #expect(
            try messages(schema, #"{"a": 1, "b": {}, "c": 1, "d": 1}"#) == [
                "/a: expected string, got integer", "/b: expected array, got object",
                "/c: expected boolean, got integer",
                "/d: expected boolean, got integer",
            ])
    }

    @Test func draft07AnchorsAndDependencies() throws {
        let schema = #"""
            {"$schema": "http://json-schema.org/draft-07/schema#",
             "definitions": {"flag": {"$id": "#flag", "type": "boolean"}},
             "properties": {"f": {"$ref": "#flag"}},
             "dependencies": {"a": ["b"], "c": {"required": ["d"]}}}
            """#
        #expect(try isValid(schema, #"{"f": true, "a": 1, "b": 2, "c": 3, "d": 4}"#))
        #expect(
            try messages(schema, #"{"f": 1, "a": 1, "c": 3}"#) == [
                "/f: expected boolean, got integer", #"(root): property "a" requires property "b""#,
                #"(root): missing required property "d""#,
            ])
        // In 2020-12, "dependencies" is not a keyword any more.
        #expect(try isValid(#"{"dependencies": {"a": ["b"]}}"#, #"{"a": 1}"#))
    }

    @Test func otherDocumentsByIdOrByName() throws {
        let byName = try JSON.parse(#"{"type": "string", "$defs": {"n": {"type": "number"}}}"#)
        let byID = try JSON.parse(#"{"$id": "https://example.com/schemas/id.json", "type": "boolean"}"#)
        let root = try JSON.parse(
            #"""
            {"$id": "https://example.com/schemas/root.json",
             "properties": {"a": {"$ref": "./name.json"}, "b": {"$ref": "id.json"}, "c": {"$ref": "name.json#/$defs/n"}}}
            """#)
        let schema = try JSONSchema(root, resources: ["name.json": byName, "whatever": byID])
        #expect(schema.isValid(try JSON.parse(#"{"a": "x", "b": true, "c": 1}"#)))
        let found = schema.validate(try JSON.parse(#"{"a": 1, "b": 1, "c": "x"}"#))
        #expect(
            found.map(\.description) == [
                "/a: expected string, got integer", "/b: expected boolean, got integer",
                "/c: expected number, got string",
            ])
        #expect(
            found.map(\.keywordLocation) == [
                "name.json#/type", "https://example.com/schemas/id.json#/type", "name.json#/$defs/n/type",
            ])
    }

    @Test func twoSchemasMayNotClaimOneId() throws {
        let first = try JSON.parse(#"{"$id": "https://example.com/a.json", "type": "string"}"#)
        let second = try JSON.parse(#"{"$id": "https://example.com/a.json", "type": "number"}"#)
        let error = #expect(throws: JSONSchemaError.self) {
            try JSONSchema(["$ref": "https://example.com/a.json"], resources: ["a.json": first, "b.json": second])
        }
        #expect(error?.message.hasPrefix(#""https://example.com/a.json" names two schemas"#) == true)
    }

    @Test func aRefLoopThatReadsNothingIsAViolationNotAHang() throws {
        let loops = [
            ##"{"$ref": "#"}"##,
            ##"{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}"##,
            ##"{"anyOf": [{"$ref": "#"}, {"type": "string"}], "not": {"$ref": "#"}}"##,
        ]
        for schema in loops {
            for instance in ["1", #"{"a": [1]}"#] {
                let found = try violations(schema, instance)
                #expect(!found.isEmpty, "\(schema)")
                #expect(try !isValid(schema, instance))
            }
        }
        let found = try violations(##"{"$ref": "#"}"##, "1")
        #expect(
            found.map(\.message) == [
                #""$ref" loops back to a schema already applied to this value, without reading any part of it"#
            ])
    }

    @Test func deepInstancesAreValidated() throws {
        let depth = 50
        let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let wrapped =
            ##"{"anyOf": [{"type": "array", "items": {"$ref": "#"}}, {"type": "string"}], "not": {"const": 1}}"##
        #expect(try isValid(wrapped, deep))
        let bad = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
        let found = try violations(wrapped, bad)
        #expect(
            found.map(\.message) == [
                "expected array or string, got integer", #"the value must not match the "not" schema"#,
            ])
        #expect(found.first?.instanceLocation.tokens.count == depth)
    }

    /// As deep as the parser allows: validated in an optimized build, reported
    /// as too deep where frames are larger; never a crash.
    @Test func theDeepestInstancesNeverOverflowTheStack() throws {
        let depth = JSON.defaultMaxDepth
        let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let bad = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
        let schemas = [
            ##"{"type": "array", "items": {"$ref": "#"}}"##,
            ##"{"anyOf": [{"type": "array", "items": {"$ref": "#"}}, {"type": "string"}], "not": {"const": 1}}"##,
            ##"{"oneOf": [{"type": "array", "items": {"$ref": "#"}}, {"type": "string"}], "if": {"$ref": "#"}}"##,
        ]
        for schema in schemas {
            for message in try violations(schema, deep).map(\.message) {
                #expect(message == "the value is nested too deeply to validate")
            }
            _ = try isValid(schema, deep)
            #expect(try !violations(schema, bad).isEmpty)
        }
    }

    /// Each level doubles the work of the one above it: without a budget,
    /// 2^40 evaluations.
    @Test func exponentialSchemasRunOutOfStepsInsteadOfHanging() throws {
        let schema =
            ##"{"anyOf": [{"items": {"$ref": "#"}, "maxItems": 0}, {"items": {"$ref": "#"}}, {"type": "integer"}], "type": "array"}"##
        let depth = 40
        let bad = String(repeating: "[", count: depth) + "null" + String(repeating: "]", count: depth)
        let found = try violations(schema, bad)
        #expect(found.map(\.message).contains("the document is too complex to validate against this schema"))
    }
}
