import BuntingJSON

/// The value type a caller expects of a flag, for typed resolution.
public enum FlagValueType: String, Sendable, Hashable, CaseIterable {
    case boolean, string, integer, float, object

    /// flagd's checks: an integer must be written without a fraction, a
    /// float may be any number, an object may also be an array.
    func accepts(_ value: JSON) -> Bool {
        switch (self, value) {
        case (.boolean, .bool), (.string, .string), (.integer, .integer),
             (.float, .integer), (.float, .real), (.object, .object), (.object, .array):
            return true
        default:
            return false
        }
    }
}
