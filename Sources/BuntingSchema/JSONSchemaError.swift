/// Why a schema cannot be compiled, and where in it.
public struct JSONSchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    /// The schema location: `<resource URI>#<JSON pointer>`, the URI left out
    /// for the schema being compiled.
    public let schemaLocation: String

    public init(message: String, schemaLocation: String) {
        self.message = message
        self.schemaLocation = schemaLocation
    }

    public var description: String { "\(schemaLocation): \(message)" }
}
