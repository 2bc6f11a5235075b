import BuntingJSON
import BuntingSchema

/// `schemas/definitions.schema.json`, built into the binary and compiled once.
enum DefinitionsSchema {
    static let compiled: Result<JSONSchema, JSONSchemaError> = {
        do throws(JSONSchemaError) {
            let document: JSON
            do throws(JSONParseError) {
                document = try JSON.parse(PackageResources.definitions_schema_json)
            } catch {
                throw JSONSchemaError(message: "not JSON: \(error.description)", schemaLocation: "#")
            }
            return .success(try JSONSchema(document))
        } catch {
            return .failure(error)
        }
    }()
}
