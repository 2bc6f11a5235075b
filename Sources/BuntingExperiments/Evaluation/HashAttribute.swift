import BuntingJSON

/// How the SDK reads a hash attribute from the attributes: its value when
/// truthy, else "" (so 0, false and "" count as missing), trying the
/// fallback attribute when the first is missing.
enum HashAttribute {
    static func value(of attribute: String, in attributes: JSON) -> JSON {
        guard let value = attributes[attribute], JSValues.isTruthy(value) else { return "" }
        return value
    }

    /// (attribute used, its value): `attribute`, else `fallback` when that has a value.
    static func resolve(_ attribute: String, fallback: String?, in attributes: JSON) -> (String, JSON) {
        let value = value(of: attribute, in: attributes)
        if JSValues.isTruthy(value) { return (attribute, value) }
        if let fallback {
            let fallbackValue = self.value(of: fallback, in: attributes)
            if JSValues.isTruthy(fallbackValue) { return (fallback, fallbackValue) }
        }
        return (attribute, value)
    }

    /// The text a sticky document is keyed by: the SDK's `toString`, which
    /// writes a string as it is and anything else as JSON.
    static func stickyValue(_ value: JSON) -> String {
        if case .string(let text) = value { return text }
        if let number = JSValues.number(value) { return JSValues.string(number) }
        return value.encodedString()
    }
}
