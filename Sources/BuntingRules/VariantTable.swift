import BuntingJSON

/// A flag's variants by name. Names match by their exact code units, as in
/// flagd (Swift's `==` would also match canonically equivalent spellings).
/// Few variants are scanned, which beats hashing the name; many are hashed.
/// A class, so that a lookup does not copy the table.
final class VariantTable: Sendable {
    let names: [String]
    let values: [JSON]
    private let positions: [String: Int]?

    init(_ object: JSONObject) {
        names = object.keys
        values = object.map(\.value)
        var positions: [String: Int] = [:]
        if names.count > 8 {
            for (position, name) in names.enumerated() { positions[name] = position }
        }
        self.positions = names.count > 8 ? positions : nil
    }

    var isEmpty: Bool { names.isEmpty }

    /// The position of the variant called `name`.
    func position(of name: String) -> Int? {
        if let positions {
            guard let position = positions[name], JavaScript.sameCodeUnits(names[position], name) else { return nil }
            return position
        }
        for position in names.indices where JavaScript.sameCodeUnits(names[position], name) {
            return position
        }
        return nil
    }

    subscript(name: String) -> JSON? {
        position(of: name).map { values[$0] }
    }
}
