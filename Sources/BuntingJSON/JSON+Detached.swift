extension JSON {
    /// The same value in storage of its own, shared with nothing: what is
    /// kept of a parsed document (compiled rules, variants, cards) then
    /// holds no part of it, so that the document is freed whole instead of
    /// leaving the kept parts scattered over its pages, which the allocator
    /// then cannot give back.
    public func detached() -> JSON {
        switch self {
        case .null, .bool, .integer, .real: return self
        case .string(let text): return .string(Self.detached(text))
        case .array(let elements): return .array(elements.map { $0.detached() })
        case .object(let object):
            var copy = JSONObject()
            copy.reserveCapacity(object.count)
            for (key, value) in object { copy[Self.detached(key)] = value.detached() }
            return .object(copy)
        }
    }

    /// A string in storage of its own (see `detached()`).
    public static func detached(_ text: String) -> String {
        var text = text
        return text.withUTF8 { String(decoding: $0, as: UTF8.self) }
    }
}
