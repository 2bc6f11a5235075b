import BuntingJSON
import BuntingSchema

/// `schemas/definitions.schema.json`, built into the binary and compiled once.
///
/// Its patterns are read when first used: `DefinitionsSchemaTests` compiles
/// it with every pattern read, and start-up does not pay for patterns that
/// the document at hand never meets (flagd's semantic version pattern alone
/// costs half as much as validating a 100-flag document).
enum DefinitionsSchema {
    static let compiled: Result<JSONSchema, JSONSchemaError> = {
        do throws(JSONSchemaError) {
            let document: JSON
            do throws(JSONParseError) {
                document = try JSON.parse(PackageResources.definitions_schema_compact_json)
            } catch {
                throw JSONSchemaError(message: "not JSON: \(error.description)", schemaLocation: "#")
            }
            return .success(try JSONSchema(document, patterns: .onFirstUse))
        } catch {
            return .failure(error)
        }
    }()
}
