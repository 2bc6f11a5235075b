import BuntingRules

/// A string compared and hashed by its UTF-8 bytes, as JavaScript compares
/// property keys (by code units): Swift's `String` equality would also equate
/// canonically equivalent forms ("é" and "e\u{301}"), which are two different
/// feature keys in a payload.
struct ExactKey: Hashable, Sendable {
    let string: String

    init(_ string: String) { self.string = string }

    static func == (lhs: ExactKey, rhs: ExactKey) -> Bool {
        JavaScript.sameCodeUnits(lhs.string, rhs.string)
    }

    func hash(into hasher: inout Hasher) {
        var copy = string
        copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
