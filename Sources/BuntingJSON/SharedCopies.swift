/// Copies of values kept from a parsed document (see `JSON.detached`), one
/// for each way of writing them: values written exactly alike — the same
/// text, so the same types, code units, bits and member order (`ExactJSON`
/// in the rules) — share one copy. Thousands of banners or cards written
/// with the same few properties or extras then keep a few objects instead
/// of one each (at 18,000 banners, 3.4 MB of properties).
///
/// For the time the values are made; dropped afterwards, the copies staying
/// with what keeps them.
public struct SharedCopies {
    private var copies: [[UInt8]: JSON] = [:]

    public init() {}

    /// `value`'s copy: the one made for a value with the same text, or a new one.
    public mutating func copy(of value: JSON) -> JSON {
        let text = value.encoded()
        if let known = copies[text] { return known }
        let copy = value.detached()
        copies[text] = copy
        return copy
    }
}
