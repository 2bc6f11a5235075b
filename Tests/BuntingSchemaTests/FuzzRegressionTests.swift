import BuntingJSON
import BuntingSchema
import Foundation
import Testing

/// Inputs the schema fuzz target (fuzz/Sources/fuzz-schema) once failed on,
/// kept in fuzz/crashes/schema/, run through the same calls and checks.
@Suite struct SchemaFuzzRegressionTests {
    static let crashes = Fixtures.repository.appendingPathComponent("fuzz/crashes/schema")

    static var inputs: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: crashes.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test func thereAreInputs() {
        #expect(!Self.inputs.isEmpty, "no inputs in \(Self.crashes.path)")
    }

    /// `[schema, instance...]`: every instance validated with and without a
    /// limit, and quickly, must tell the same story.
    @Test(arguments: inputs)
    func validationDoesNotDependOnTheLimit(_ name: String) throws {
        let document = try JSON.parse(Array(Data(contentsOf: Self.crashes.appendingPathComponent(name))))
        let elements = try #require(document.arrayValue)
        let schema = try JSONSchema(elements[0], uri: "https://example.com/fuzz.json")
        for instance in elements.dropFirst() {
            let all = schema.validate(instance)
            #expect(schema.isValid(instance) == all.isEmpty)
            for limit in [1, 2] {
                #expect(
                    schema.validate(instance, limit: limit) == Array(all.prefix(limit)),
                    "limit \(limit), \(instance)")
            }
        }
    }

    /// The first input found: with a limit of one, the anyOf's only branch
    /// saw just its type complaint and was reported as "#/anyOf" wanting a
    /// string; unlimited, it also saw multipleOf and spoke for itself.
    @Test func aBranchIsJudgedOnAllItsComplaints() throws {
        let schema = try JSONSchema(JSON.parse(#"{"anyOf":[{"type":"string","multipleOf":1.5}]}"#))
        let first = schema.validate(.real(1.25), limit: 1)
        #expect(first.map(\.keywordLocation) == ["#/anyOf/0/type"])
        #expect(schema.validate(.real(1.25)).map(\.keywordLocation) == ["#/anyOf/0/type", "#/anyOf/0/multipleOf"])
    }
}
