import BuntingJSON
import Testing
@testable import BuntingRules

/// The operator list is the compiler's and the definitions schema's: an
/// operator added to one and not the others fails here.
struct OperatorNamesTests {
    @Test func theSchemaListsJSONLogicsAndFlagdsOperators() throws {
        let schema = try loadJSON(TestPaths.packageRoot.appendingPathComponent("schemas/definitions.schema.json"))
        let listed = try #require(schema["$defs"]?["operation"]?["properties"]?.objectValue).keys
        #expect(Set(listed).subtracting(["$ref"]) == OperatorNames.jsonLogic.union(OperatorNames.flagd))
        #expect(OperatorNames.proposals.isDisjoint(with: listed))
    }

    @Test func theCompilerKnowsEveryListedOperator() {
        for name in OperatorNames.all {
            for argument: JSON in [[], [1], [1, 2], [1, 2, 3]] {
                let message = Self.compileError(.object([name: argument]))?.description ?? ""
                #expect(!message.contains("unknown operator"), "\(name): \(message)")
            }
        }
    }

    @Test func anOperatorNotListedIsUnknown() {
        for name in ["nope", "VAR", "fractional_", "$flagd"] {
            let message = Self.compileError(.object([name: []]))?.description ?? ""
            #expect(message.contains("unknown operator"), "\(name): \(message)")
        }
    }

    private static func compileError(_ rule: JSON) -> RuleCompileError? {
        do {
            _ = try JSONLogicRule(rule)
            return nil
        } catch {
            return error
        }
    }
}
