import BuntingJSON

extension JSON {
    /// JSONLogic truthiness: JavaScript's, except that an empty array is false.
    ///
    /// False: `null`, `false`, `0`, `-0`, NaN, `""` and `[]`. True: everything
    /// else, including `"0"`, `{}` and `[0]`. Banner and card targeting use this
    /// to decide eligibility.
    public var isTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let value): return value
        case .integer(let value): return value != 0
        case .real(let value): return value != 0 && !value.isNaN
        case .string(let value): return !value.isEmpty
        case .array(let elements): return !elements.isEmpty
        case .object: return true
        }
    }
}
