import BuntingJSON
import BuntingSchema
import Foundation
import Testing

/// flagd's own draft-07 schemas, run against flagd's own positive and negative documents.
@Suite struct FlagdSchemaTests {
    static let schemaNames = ["flags.json", "flagd.json", "targeting.json"]

    /// One of flagd's schemas, compiled with the other two available to `$ref`.
    static func schema(_ name: String) throws -> JSONSchema {
        var resources: [String: JSON] = [:]
        for other in schemaNames where other != name {
            resources[other] = try Fixtures.json(Fixtures.flagdJSON.appendingPathComponent(other))
        }
        return try JSONSchema(Fixtures.json(Fixtures.flagdJSON.appendingPathComponent(name)), resources: resources)
    }

    /// The schema a fixture names in `$schema` (a relative path), or else the one
    /// its folder is named after.
    static func schemaName(for document: JSON, folder: String) -> String {
        if let path = document["$schema"]?.stringValue, let name = path.split(separator: "/").last {
            return String(name)
        }
        return folder + ".json"
    }

    struct Fixture: CustomTestStringConvertible, Sendable {
        let folder: String
        let expectation: String
        let file: String
        var testDescription: String { "\(folder)/\(expectation)/\(file)" }
        var url: URL {
            Fixtures.flagdJSON.appendingPathComponent("test/\(folder)/\(expectation)/\(file)")
        }
    }

    static let fixtures: [Fixture] = {
        var fixtures: [Fixture] = []
        for folder in ["flags", "flagd", "targeting"] {
            for expectation in ["positive", "negative"] {
                let directory = Fixtures.flagdJSON.appendingPathComponent("test/\(folder)/\(expectation)")
                let files = (try? Fixtures.jsonFiles(in: directory)) ?? []
                fixtures += files.map { Fixture(folder: folder, expectation: expectation, file: $0.lastPathComponent) }
            }
        }
        return fixtures
    }()

    @Test func everySchemaCompiles() throws {
        for name in Self.schemaNames { _ = try Self.schema(name) }
        #expect(Self.fixtures.count == 36)
    }

    @Test(arguments: fixtures)
    func positivesValidateAndNegativesFail(_ fixture: Fixture) throws {
        let document = try Fixtures.json(fixture.url)
        let schema = try Self.schema(Self.schemaName(for: document, folder: fixture.folder))
        let found = schema.validate(document)
        if fixture.expectation == "positive" {
            #expect(found.isEmpty, "\(found)")
            #expect(schema.isValid(document))
        } else {
            #expect(!found.isEmpty)
            #expect(!schema.isValid(document))
        }
    }

    /// `minimal.json` is valid. `full.json` is not, on purpose or not: two of its
    /// flags hold a branch whose variant is named "fail", with the very mistakes
    /// of the negative fixtures `invalid-ends-with-param` and
    /// `sem-ver-invalid-ver-expression` (Python's `jsonschema` Draft7Validator
    /// agrees). Everything else in it is valid.
    @Test func examplesValidateExceptTheirDeliberateMistakes() throws {
        let examples = try Fixtures.jsonFiles(in: Fixtures.flagdJSON.appendingPathComponent("examples"))
        #expect(examples.map(\.lastPathComponent) == ["full.json", "minimal.json"])
        let expected: [String: [String]] = [
            "minimal.json": [],
            "full.json": [
                "/flags/starts-ends-flag/targeting/if/2/if/2/if/0/ends_with/1: expected object or string, got integer",
                "/flags/equal-greater-lesser-version-flag/targeting/if/2/if/2/if/2/if/0/sem_ver/2",
            ],
        ]
        for url in examples {
            let document = try Fixtures.json(url)
            let found = try Self.schema(Self.schemaName(for: document, folder: "flags")).validate(document)
            let described = found.map {
                $0.message.contains("2.0.0.0") ? $0.instanceLocation.description : $0.description
            }
            #expect(described == expected[url.lastPathComponent], "\(url.lastPathComponent)")
        }
    }

    /// The negatives fail for the reason their names give, said plainly.
    @Test func negativesSayWhatIsWrong() throws {
        let expected: [String: [String]] = [
            "flags/negative/empty-variants.json": ["/flags/myBoolFlag/variants: expected at least 1 property, got 0"],
            "flags/negative/missing-variants.json": [#"/flags/myBoolFlag: missing required property "variants""#],
            "flags/negative/mixed-variant-types.ffconfig.json": [
                "/flags/myBoolFlag/variants/off: expected boolean, got string"
            ],
            "flags/negative/state-set-incorrectly.json": [
                #"/flags/myBoolFlag/state: value "WILL-FAIL" is not one of ["ENABLED", "DISABLED"]"#
            ],
            "flags/negative/with-array-flags.json": ["/flags: expected object, got array"],
            "flags/negative/with-invalid-flag-metadata.json": [
                "/flags/myBoolFlag/metadata/invalid: expected boolean, number or string, got object"
            ],
            "flags/negative/with-invalid-targeting.json": [
                #"/flags/targetedFlag/targeting/not-a-real-rule: unknown property "not-a-real-rule""#
            ],
            "targeting/negative/fractional-negative-weighting.json": [
                "/fractional/1/1: value -25 is less than the minimum 0"
            ],
            "targeting/negative/invalid-flagd-props.json": [
                #"/if/0/==/0/var: "$flagd.invalidProp" does not match the pattern "^\\$flagd\\.((timestamp)|(flagKey))$""#
            ],
            "targeting/negative/fractional-invalid-weighting.json": [
                "/fractional/1/1: expected object or integer, got string"
            ],
            "targeting/negative/sem-ver-invalid-range-specifier.json": [
                #"/if/0/sem_ver/1: value "*" is not one of ["=", "!=", ">", "<", ">=", "<=", "~", "^"]"#
            ],
        ]
        for (path, messages) in expected {
            let url = Fixtures.flagdJSON.appendingPathComponent("test/" + path)
            let document = try Fixtures.json(url)
            let folder = String(path.split(separator: "/")[0])
            let found = try Self.schema(Self.schemaName(for: document, folder: folder)).validate(document)
            #expect(found.map(\.description) == messages, "\(path)")
        }
    }
}
