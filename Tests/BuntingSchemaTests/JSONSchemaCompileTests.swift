import BuntingJSON
import BuntingSchema
import Testing

/// Schemas that cannot be compiled say why and where.
@Suite struct JSONSchemaCompileTests {
    private func compileError(_ schema: String) throws -> JSONSchemaError? {
        let value = try JSON.parse(schema)
        return #expect(throws: JSONSchemaError.self) { try JSONSchema(value) }
    }

    @Test func badKeywordValues() throws {
        let cases: [(String, String)] = [
            (#"{"type": "strin"}"#, "#/type"),
            (#"{"properties": {"a": {"minLength": -1}}}"#, "#/properties/a/minLength"),
            (#"{"required": "a"}"#, "#/required"),
            (#"{"dependentRequired": {"a/b": [1]}}"#, "#/dependentRequired/a~1b"),
            (#"{"anyOf": []}"#, "#/anyOf"),
            (#"{"items": {"multipleOf": 0}}"#, "#/items/multipleOf"),
            (#"{"enum": 1}"#, "#/enum"),
            (#"{"not": 3}"#, "#/not"),
            (#"{"$defs": {"unused": {"maxItems": "2"}}}"#, "#/$defs/unused/maxItems"),
        ]
        for (schema, location) in cases {
            #expect(try compileError(schema)?.schemaLocation == location, "\(schema)")
        }
    }

    @Test func aPatternThatDoesNotCompileIsAnError() throws {
        let error = try compileError(#"{"patternProperties": {"(": {}}}"#)
        #expect(error?.schemaLocation == "#/patternProperties/(")
        #expect(error?.message.hasPrefix("invalid regular expression \"(\"") == true)
        #expect(try compileError(#"{"pattern": "[a-"}"#)?.schemaLocation == "#/pattern")
    }

    /// Patterns read on first use match as those read while compiling; one
    /// that cannot be read compiles and then matches nothing.
    @Test func patternsReadOnFirstUseMatchTheSame() throws {
        let properties = #"""
            "version": {"pattern": "^v?[0-9]+(\\.[0-9]+)*$"}, "flagd": {"pattern": "^\\$flagd\\."}
            """#
        let others = #""patternProperties": {"^x-[a-z]+$": {"type": "integer"}}"#
        let eager = try JSONSchema(JSON.parse("{\"properties\": {\(properties)}, \(others)}"))
        let lazy = try JSONSchema(
            JSON.parse("{\"properties\": {\(properties), \"broken\": {\"pattern\": \"[a-\"}}, \(others)}"),
            patterns: .onFirstUse)
        let instances = [
            #"{"version": "v1.2.3"}"#, #"{"version": "1..2"}"#, #"{"flagd": "$flagd.flagKey"}"#, #"{"flagd": "flagd"}"#,
            #"{"x-a": 1}"#, #"{"x-a": "one"}"#, #"{"x-A": "one"}"#,
        ]
        for text in instances {
            let instance = try JSON.parse(text)
            #expect(lazy.isValid(instance) == eager.isValid(instance), "\(text)")
            #expect(lazy.validate(instance).map(\.message) == eager.validate(instance).map(\.message), "\(text)")
        }
        #expect(!lazy.isValid(try JSON.parse(#"{"broken": "a"}"#)))
        #expect(lazy.isValid(try JSON.parse(#"{"broken": 1}"#)))
    }

    @Test func aRefThatLeadsNowhereIsAnError() throws {
        let error = try compileError(##"{"properties": {"a": {"$ref": "#/$defs/missing"}}}"##)
        #expect(error?.description == ##"#/properties/a/$ref: cannot resolve "$ref": "#/$defs/missing""##)
        #expect(try compileError(#"{"$ref": "other.json"}"#) != nil)
    }

    @Test func keywordsWeCannotHonourAreRefused() throws {
        #expect(
            try compileError(#"{"unevaluatedProperties": false}"#)?.message
                == #""unevaluatedProperties" is not supported"#)
        #expect(try compileError(##"{"$dynamicRef": "#meta"}"##) != nil)
    }

    @Test func aSchemaMustBeAnObjectOrABoolean() throws {
        #expect(try compileError("3")?.message == "a schema must be an object or a boolean")
    }
}
