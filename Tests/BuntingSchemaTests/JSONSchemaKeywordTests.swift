import BuntingJSON
import BuntingSchema
import Testing

/// One test per assertion keyword: what passes, what fails, and the message.
@Suite struct JSONSchemaKeywordTests {
    @Test func booleanSchemas() throws {
        #expect(try isValid("true", "1"))
        #expect(try !isValid("false", "1"))
        #expect(try messages("false", "1") == ["(root): no value is allowed here"])
        #expect(try isValid("{}", #"{"a": [1]}"#))
    }

    @Test func typeNamesTheExpectedAndActualTypes() throws {
        #expect(try messages(#"{"type": "integer"}"#, #""7""#) == ["(root): expected integer, got string"])
        #expect(
            try messages(#"{"type": ["string", "null"]}"#, "1.5") == ["(root): expected null or string, got number"])
        #expect(
            try messages(#"{"type": ["string", "number", "boolean"]}"#, "{}")
                == ["(root): expected boolean, number or string, got object"])
    }

    @Test func integerAcceptsWholeReals() throws {
        #expect(try isValid(#"{"type": "integer"}"#, "2.0"))
        #expect(try isValid(#"{"type": "integer"}"#, "1e300"))
        #expect(try !isValid(#"{"type": "integer"}"#, "2.5"))
        #expect(try isValid(#"{"type": "number"}"#, "2"))
        #expect(try !isValid(#"{"type": "boolean"}"#, "0"))
        #expect(try !isValid(#"{"type": "array"}"#, "{}"))
        #expect(try isValid(#"{"type": "null"}"#, "null"))
    }

    @Test func enumComparesByValue() throws {
        let schema = #"{"enum": ["ENABLED", "DISABLED", 2, {"a": [1.0]}]}"#
        #expect(try isValid(schema, #""ENABLED""#))
        #expect(try isValid(schema, "2.0"))
        #expect(try isValid(schema, #"{"a": [1]}"#))
        #expect(try !isValid(schema, #"{"a": [1], "b": 2}"#))
        #expect(
            try messages(#"{"enum": ["ENABLED", "DISABLED"]}"#, "7")
                == [#"(root): value 7 is not one of ["ENABLED", "DISABLED"]"#])
    }

    @Test func constComparesByValue() throws {
        #expect(try isValid(#"{"const": 1}"#, "1.0"))
        #expect(try isValid(#"{"const": {"a": 1, "b": [true]}}"#, #"{"b": [true], "a": 1}"#))
        #expect(try !isValid(#"{"const": false}"#, "0"))
        #expect(
            try messages(#"{"const": "imageOnly"}"#, #""classic""#) == [#"(root): expected "imageOnly", got "classic""#]
        )
    }

    @Test func requiredNamesEachMissingProperty() throws {
        let schema = #"{"required": ["state", "variants"]}"#
        #expect(try isValid(schema, #"{"state": 1, "variants": 2}"#))
        #expect(try isValid(schema, "[]"))
        #expect(
            try messages(schema, "{}") == [
                #"(root): missing required property "state""#, #"(root): missing required property "variants""#,
            ])
    }

    @Test func propertiesApplyToTheirMembers() throws {
        let schema = #"{"properties": {"a": {"type": "string"}, "b": {"minimum": 3}}}"#
        #expect(try isValid(schema, #"{"a": "x", "c": 1}"#))
        #expect(try isValid(schema, "7"))
        #expect(
            try messages(schema, #"{"a": 1, "b": 2}"#) == [
                "/a: expected string, got integer", "/b: value 2 is less than the minimum 3",
            ])
    }

    @Test func additionalPropertiesFalseNamesTheUnknownProperty() throws {
        let schema = #"{"properties": {"color": {}}, "patternProperties": {"^x-": {}}, "additionalProperties": false}"#
        #expect(try isValid(schema, #"{"color": 1, "x-note": 2}"#))
        let found = try violations(schema, #"{"colour": 1}"#)
        #expect(found.map(\.description) == [#"/colour: unknown property "colour""#])
        #expect(found.first?.keywordLocation == "#/additionalProperties")
    }

    @Test func additionalPropertiesSchemaAppliesToTheRest() throws {
        let schema = #"{"properties": {"id": {}}, "additionalProperties": {"type": "string"}}"#
        #expect(try isValid(schema, #"{"id": 1, "x": "y"}"#))
        #expect(try messages(schema, #"{"id": 1, "x": 2}"#) == ["/x: expected string, got integer"])
    }

    @Test func patternPropertiesApplyToMatchingNames() throws {
        let schema = #"{"patternProperties": {"^n_": {"type": "number"}, "_s$": {"type": "string"}}}"#
        #expect(try isValid(schema, #"{"n_a": 1, "b_s": "x", "other": null}"#))
        #expect(try messages(schema, #"{"n_s": 1}"#) == ["/n_s: expected string, got integer"])
    }

    @Test func propertyNames() throws {
        let schema = #"{"propertyNames": {"pattern": "^[a-z]+$"}}"#
        #expect(try isValid(schema, #"{"abc": 1}"#))
        #expect(
            try messages(schema, #"{"aBc": 1}"#) == [
                #"/aBc: invalid property name: "aBc" does not match the pattern "^[a-z]+$""#
            ])
    }

    @Test func minAndMaxProperties() throws {
        #expect(try messages(#"{"minProperties": 1}"#, "{}") == ["(root): expected at least 1 property, got 0"])
        #expect(
            try messages(#"{"maxProperties": 1}"#, #"{"a": 1, "b": 2}"#) == [
                "(root): expected at most 1 property, got 2"
            ])
        #expect(try isValid(#"{"minProperties": 1}"#, "[]"))
    }

    @Test func dependentRequiredAndDependentSchemas() throws {
        let required = #"{"dependentRequired": {"imageUrl": ["aspectRatio"]}}"#
        #expect(try isValid(required, #"{"title": 1}"#))
        #expect(
            try messages(required, #"{"imageUrl": "u"}"#) == [
                #"(root): property "imageUrl" requires property "aspectRatio""#
            ])
        let schemas = #"{"dependentSchemas": {"a": {"required": ["b"]}}}"#
        #expect(try isValid(schemas, #"{"a": 1, "b": 2}"#))
        #expect(try messages(schemas, #"{"a": 1}"#) == [#"(root): missing required property "b""#])
    }

    @Test func prefixItemsAndItems() throws {
        let schema = #"{"prefixItems": [{"type": "string"}, {"type": "integer"}], "items": {"type": "boolean"}}"#
        #expect(try isValid(schema, #"["a", 1, true, false]"#))
        #expect(try isValid(schema, #"["a"]"#))
        #expect(
            try messages(schema, #"[1, "a", null]"#) == [
                "/0: expected string, got integer", "/1: expected integer, got string",
                "/2: expected boolean, got null",
            ])
        #expect(
            try messages(#"{"prefixItems": [{}], "items": false}"#, "[1, 2, 3]")
                == ["/1: unexpected item: at most 1 item allowed"])
        #expect(try messages(#"{"items": {"type": "number"}}"#, #"[1, "x"]"#) == ["/1: expected number, got string"])
    }

    @Test func draft07ArrayItemsAndAdditionalItems() throws {
        let schema = #"""
            {"$schema": "http://json-schema.org/draft-07/schema#",
             "items": [{"type": "string"}], "additionalItems": {"type": "number"}}
            """#
        #expect(try isValid(schema, #"["a", 1, 2]"#))
        #expect(try messages(schema, #"["a", "b"]"#) == ["/1: expected number, got string"])
        // additionalItems means nothing beside a single items schema.
        #expect(try isValid(#"{"items": {}, "additionalItems": false}"#, "[1, 2]"))
    }

    @Test func containsWithMinAndMaxContains() throws {
        #expect(try isValid(#"{"contains": {"const": 1}}"#, "[0, 1]"))
        #expect(
            try messages(#"{"contains": {"const": 1}}"#, "[0, 2]") == [
                #"(root): no item matches the "contains" schema"#
            ])
        #expect(
            try messages(#"{"contains": {"const": 1}, "minContains": 2}"#, "[1, 2]")
                == [#"(root): expected at least 2 items matching "contains", found 1"#])
        #expect(
            try messages(#"{"contains": {"const": 1}, "maxContains": 1}"#, "[1, 1]")
                == [#"(root): expected at most 1 item matching "contains", found 2"#])
        #expect(try isValid(#"{"contains": {"const": 1}, "minContains": 0}"#, "[]"))
        #expect(try isValid(#"{"contains": {"const": 1}, "maxContains": 9223372036854775807}"#, "[1, 1]"))
        #expect(try isValid(#"{"minLength": 9223372036854775807, "maxItems": 9223372036854775807}"#, "[]"))
        #expect(try !isValid(#"{"minLength": 9223372036854775807}"#, #""abc""#))
    }

    @Test func minAndMaxItems() throws {
        #expect(try messages(#"{"minItems": 2}"#, "[1]") == ["(root): expected at least 2 items, got 1"])
        #expect(try messages(#"{"maxItems": 1}"#, "[1, 2]") == ["(root): expected at most 1 item, got 2"])
        #expect(try isValid(#"{"maxItems": 1}"#, #""long string""#))
    }

    @Test func uniqueItemsComparesByValue() throws {
        #expect(try isValid(#"{"uniqueItems": true}"#, #"[1, "1", [1], {"a": 1}]"#))
        #expect(
            try messages(#"{"uniqueItems": true}"#, #"[1, 2, {"a": [1]}, 1.0]"#) == ["(root): items 0 and 3 are equal"])
        #expect(try !isValid(#"{"uniqueItems": true}"#, #"[{"a": 1, "b": 2}, {"b": 2, "a": 1.0}]"#))
        #expect(try isValid(#"{"uniqueItems": false}"#, "[1, 1]"))
    }

    @Test func minimumAndMaximum() throws {
        #expect(try isValid(#"{"minimum": 1, "maximum": 2}"#, "1"))
        #expect(try isValid(#"{"minimum": 1, "maximum": 2}"#, "2.0"))
        #expect(try messages(#"{"minimum": 1}"#, "0.5") == ["(root): value 0.5 is less than the minimum 1"])
        #expect(try messages(#"{"maximum": 1.5}"#, "2") == ["(root): value 2 is greater than the maximum 1.5"])
        #expect(try isValid(#"{"minimum": 1}"#, #""0""#))
    }

    @Test func exclusiveBoundsInBothForms() throws {
        #expect(try messages(#"{"exclusiveMinimum": 0}"#, "0") == ["(root): value 0 is not greater than 0"])
        #expect(try messages(#"{"exclusiveMaximum": 1}"#, "1.0") == ["(root): value 1.0 is not less than 1"])
        #expect(try isValid(#"{"exclusiveMinimum": 0, "exclusiveMaximum": 1}"#, "0.5"))
        // draft-04's boolean form makes the sibling bound exclusive.
        #expect(try !isValid(#"{"minimum": 0, "exclusiveMinimum": true}"#, "0"))
        #expect(try isValid(#"{"minimum": 0, "exclusiveMinimum": false}"#, "0"))
        #expect(try !isValid(#"{"maximum": 5, "exclusiveMaximum": true}"#, "5"))
    }

    @Test func boundsCompareLargeIntegersExactly() throws {
        #expect(try !isValid(#"{"maximum": 9007199254740992.0}"#, "9007199254740993"))
        #expect(try isValid(#"{"minimum": -9.3e18}"#, "-9223372036854775808"))
        #expect(try !isValid(#"{"maximum": 1e18}"#, "9223372036854775807"))
    }

    @Test func multipleOfIsExactOnDecimals() throws {
        #expect(try isValid(#"{"multipleOf": 2}"#, "10"))
        #expect(try messages(#"{"multipleOf": 2}"#, "7") == ["(root): value 7 is not a multiple of 2"])
        #expect(try isValid(#"{"multipleOf": 0.1}"#, "0.3"))
        #expect(try isValid(#"{"multipleOf": 0.0001}"#, "0.0075"))
        #expect(try !isValid(#"{"multipleOf": 0.0001}"#, "0.00751"))
        #expect(try isValid(#"{"multipleOf": 0.5}"#, "4"))
        #expect(try isValid(#"{"multipleOf": 1e-300}"#, "1e300"))
        #expect(try !isValid(#"{"multipleOf": 0.123456789}"#, "1e308"))
        #expect(try isValid(#"{"type": "integer", "multipleOf": 1}"#, "2.0"))
    }

    @Test func lengthsCountUnicodeScalars() throws {
        #expect(try isValid(#"{"minLength": 2, "maxLength": 2}"#, #""é😀""#))
        #expect(try messages(#"{"minLength": 1}"#, #""""#) == ["(root): expected at least 1 character, got 0"])
        #expect(try messages(#"{"maxLength": 2}"#, #""abc""#) == ["(root): expected at most 2 characters, got 3"])
        // "e" + combining acute: one character to a reader, two scalars to JSON Schema.
        #expect(try !isValid(#"{"maxLength": 1}"#, #""e\u0301""#))
    }

    @Test func patternIsUnanchoredECMAScriptSubset() throws {
        #expect(try isValid(#"{"pattern": "b"}"#, #""abc""#))
        #expect(try messages(#"{"pattern": "^x$"}"#, #""abc""#) == [#"(root): "abc" does not match the pattern "^x$""#])
        #expect(try !isValid(#"{"pattern": "^abc$"}"#, #""abc\n""#))
        #expect(try !isValid(#"{"pattern": "^\\d$"}"#, #""\u0663""#))
        #expect(try isValid(#"{"pattern": "^.$"}"#, #""😀""#))
        #expect(try isValid(#"{"pattern": "^.{2}$"}"#, #""e\u0301""#))
        #expect(try isValid(#"{"pattern": "^\\p{L}+$"}"#, #""héllo""#))
        #expect(try isValid(#"{"pattern": "^x"}"#, "12"))
    }

    /// Patterns that start with `^` and a literal check the literal before the
    /// regular expression; the answers must not change.
    @Test func patternsStartingWithALiteral() throws {
        let cases: [(String, String, Bool)] = [
            (#"^\$flagd\."#, "$flagd.flagKey", true), (#"^\$flagd\."#, "flagd.x", false),
            (#"^\$flagd\."#, "$flagd", false), ("^abc$", "abc", true), ("^abc$", "abcd", false),
            ("^ab+c", "abbbc", true), ("^ab+c", "ac", false), ("^ab?c", "ac", true), ("^ab*", "a", true),
            ("^a{2}", "aa", true), ("^a{2}", "a{2}", false), ("^ab|^x", "xyz", true), ("^é", "é", true),
            ("^e\\u0301", "e\\u0301", true), ("^(?i)ab", "AB", true), ("^a\\.?b", "ab", true),
        ]
        for (pattern, text, expected) in cases {
            let schema = JSON.object(["pattern": .string(pattern)])
            let compiled = try JSONSchema(schema)
            let instance = try JSON.parse("\"" + text + "\"")
            #expect(compiled.isValid(instance) == expected, "\(pattern) on \(text)")
        }
    }

    @Test func annotationsAndUnknownKeywordsAssertNothing() throws {
        let schema = #"""
            {"title": "t", "description": "d", "default": 1, "examples": [2], "$comment": "c",
             "deprecated": true, "readOnly": true, "writeOnly": false, "format": "email",
             "contentMediaType": "text/html", "x-vendor": {"type": "string"}, "then": false, "else": false}
            """#
        #expect(try isValid(schema, #""not an email""#))
        #expect(try isValid(schema, "42"))
    }
}
