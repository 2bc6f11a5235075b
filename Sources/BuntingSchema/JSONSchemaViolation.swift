import BuntingJSON

/// One way an instance breaks a schema.
public struct JSONSchemaViolation: Sendable, Hashable, CustomStringConvertible {
    /// The value that is wrong. For a missing required property, the object
    /// that lacks it; for an unknown property or a property name that breaks
    /// `propertyNames`, that member.
    public let instanceLocation: JSONPointer
    /// The keyword that failed, as `<resource URI>#<JSON pointer>`; the URI is
    /// left out for the schema that was compiled: `#/properties/flags/required`.
    public let keywordLocation: String
    /// A sentence for people, such as `missing required property "variants"`.
    public let message: String

    public init(instanceLocation: JSONPointer, keywordLocation: String, message: String) {
        self.instanceLocation = instanceLocation
        self.keywordLocation = keywordLocation
        self.message = message
    }

    /// `/flags/checkout/state: value "ON" is not one of ["ENABLED", "DISABLED"]`;
    /// the whole document is shown as `(root)`.
    public var description: String {
        (instanceLocation.isRoot ? "(root)" : instanceLocation.description) + ": " + message
    }
}
