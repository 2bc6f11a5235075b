import BuntingJSON

/// The value type a caller expects of a flag, for typed resolution.
public enum FlagValueType: String, Sendable, Hashable, CaseIterable {
    case boolean, string, integer, float, object

    /// flagd's checks: a float may be any number, an object may also be an
    /// array, and an integer is a number without a fraction: an integer, or a
    /// real such as `10.0` within ±(2⁵³ − 1), which converts without loss
    /// (the flagd daemon reads `10.0` as 10 too; flagd-core's Python refuses
    /// it). A real with a fraction is a mismatch, never truncated.
    public func accepts(_ value: JSON) -> Bool {
        switch (self, value) {
        case (.boolean, .bool), (.string, .string), (.integer, .integer),
            (.float, .integer), (.float, .real), (.object, .object), (.object, .array):
            return true
        case (.integer, .real(let number)):
            return Self.isWholeInteger(number)
        default:
            return false
        }
    }

    /// Whether a real converts to an integer without loss.
    static func isWholeInteger(_ number: Double) -> Bool {
        number.rounded(.towardZero) == number && abs(number) <= 9_007_199_254_740_991
    }
}
