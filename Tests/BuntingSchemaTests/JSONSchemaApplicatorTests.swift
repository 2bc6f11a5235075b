import BuntingJSON
import BuntingSchema
import Testing

/// allOf, anyOf, oneOf, not, if/then/else, and how failed alternatives are reported.
@Suite struct JSONSchemaApplicatorTests {
    @Test func allOfReportsEveryFailingBranch() throws {
        let schema = #"{"allOf": [{"required": ["a"]}, {"required": ["b"]}]}"#
        #expect(try isValid(schema, #"{"a": 1, "b": 2}"#))
        #expect(
            try messages(schema, "{}") == [
                #"(root): missing required property "a""#, #"(root): missing required property "b""#,
            ])
    }

    @Test func anyOfOfTypesGivesOneMessage() throws {
        let schema = #"{"anyOf": [{"type": "string"}, {"type": "object"}, {"type": "null"}]}"#
        #expect(try isValid(schema, "null"))
        let found = try violations(schema, "7")
        #expect(found.map(\.description) == ["(root): expected null, object or string, got integer"])
        #expect(found.first?.keywordLocation == "#/anyOf")
    }

    @Test func anyOfReportsTheBranchThatGotFurthest() throws {
        let schema = #"""
            {"anyOf": [
              {"type": "object", "properties": {"var": {"type": "string"}}, "additionalProperties": false},
              {"type": "object", "properties": {"in": {"type": "array", "items": [{"type": "string"}, {"type": "array"}]}},
               "additionalProperties": false}
            ]}
            """#
        #expect(try messages(schema, #"{"in": ["a", 2]}"#) == ["/in/1: expected array, got integer"])
        #expect(try messages(schema, #"{"var": 2}"#) == ["/var: expected string, got integer"])
    }

    @Test func aDiscriminatorPicksItsBranch() throws {
        let schema = #"""
            {"oneOf": [
              {"properties": {"type": {"const": "imageOnly"}}, "required": ["imageUrl"]},
              {"properties": {"type": {"const": "captionedImage"}}, "required": ["imageUrl", "title"]},
              {"properties": {"type": {"const": "classic"}}, "required": ["title"]}
            ]}
            """#
        #expect(try isValid(schema, #"{"type": "classic", "title": "t"}"#))
        #expect(
            try messages(schema, #"{"type": "captionedImage", "imageUrl": "u"}"#)
                == [#"(root): missing required property "title""#])
        #expect(try messages(schema, #"{"type": "classic"}"#) == [#"(root): missing required property "title""#])
    }

    @Test func whenEveryBranchFailsAlikeTheFirstSpeaks() throws {
        let schema = #"""
            {"anyOf": [
              {"properties": {"state": {"enum": ["ENABLED", "DISABLED"]}, "variants": {"additionalProperties": {"type": "boolean"}}}},
              {"properties": {"state": {"enum": ["ENABLED", "DISABLED"]}, "variants": {"additionalProperties": {"type": "string"}}}}
            ]}
            """#
        #expect(
            try messages(schema, #"{"state": "ON", "variants": {"a": true}}"#)
                == [#"/state: value "ON" is not one of ["ENABLED", "DISABLED"]"#])
        #expect(
            try messages(schema, #"{"state": "ENABLED", "variants": {"a": true, "b": "x"}}"#)
                == ["/variants/b: expected boolean, got string"])
    }

    @Test func branchesThatEachMissOneMemberGiveOneMessage() throws {
        let schema = #"{"anyOf": [{"required": ["title"]}, {"required": ["description"]}]}"#
        #expect(try isValid(schema, #"{"description": "d"}"#))
        let found = try violations(schema, "{}")
        #expect(found.map(\.description) == [#"(root): missing required property "title" or "description""#])
        #expect(found.first?.keywordLocation == "#/anyOf")
    }

    @Test func oneOfRefusesTwoMatches() throws {
        let schema = #"{"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 0}, {"type": "string"}]}"#
        #expect(try isValid(schema, "-1"))
        #expect(try isValid(schema, "0.5"))
        #expect(try messages(schema, "1") == [#"(root): the value matches more than one schema of "oneOf" (0 and 1)"#])
        #expect(try messages(schema, "null") == ["(root): expected number or string, got null"])
    }

    @Test func notRefusesWhatItsSchemaAccepts() throws {
        let schema = #"{"not": {"type": "string", "pattern": "^\\$flagd\\."}}"#
        #expect(try isValid(schema, #""email""#))
        #expect(try isValid(schema, "3"))
        #expect(try messages(schema, #""$flagd.other""#) == [#"(root): the value must not match the "not" schema"#])
    }

    @Test func ifThenElse() throws {
        let schema = #"""
            {"if": {"properties": {"type": {"const": "imageOnly"}}},
             "then": {"required": ["imageUrl"]}, "else": {"required": ["title"]}}
            """#
        #expect(try isValid(schema, #"{"type": "imageOnly", "imageUrl": "u"}"#))
        #expect(try isValid(schema, #"{"type": "classic", "title": "t"}"#))
        #expect(try messages(schema, #"{"type": "imageOnly"}"#) == [#"(root): missing required property "imageUrl""#])
        #expect(try messages(schema, #"{"type": "classic"}"#) == [#"(root): missing required property "title""#])
        #expect(try isValid(#"{"if": {"const": 1}, "then": {"multipleOf": 2}}"#, "3"))
    }

    @Test func violationsStopAtTheLimit() throws {
        let schema = #"{"items": {"type": "string"}}"#
        let instance = "[" + Array(repeating: "1", count: 500).joined(separator: ",") + "]"
        #expect(try violations(schema, instance).count == 100)
        #expect(try violations(schema, instance, limit: 3).map(\.instanceLocation.description) == ["/0", "/1", "/2"])
    }

    @Test func keywordLocationsPointIntoTheSchema() throws {
        let schema = ##"{"properties": {"a": {"$ref": "#/$defs/s"}}, "$defs": {"s": {"type": "string"}}}"##
        let found = try violations(schema, #"{"a": 1}"#)
        #expect(found.first?.keywordLocation == "#/$defs/s/type")
        #expect(found.first?.instanceLocation == JSONPointer(tokens: ["a"]))
    }
}
