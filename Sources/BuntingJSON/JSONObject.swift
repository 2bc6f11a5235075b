/// A JSON object that remembers the order of its keys.
///
/// Order matters to people reading replies by hand and to tests that compare
/// text; lookups stay O(1). Two objects are equal when they hold the same
/// members, whatever their order, as JSON defines it.
public struct JSONObject: Sendable {
    private var orderedKeys: [String] = []
    private var members: [String: JSON] = [:]

    public init() {}

    public init(_ pairs: [(String, JSON)]) {
        orderedKeys.reserveCapacity(pairs.count)
        members.reserveCapacity(pairs.count)
        for (key, value) in pairs { self[key] = value }
    }

    public var count: Int { orderedKeys.count }
    public var isEmpty: Bool { orderedKeys.isEmpty }

    /// The keys in insertion order.
    public var keys: [String] { orderedKeys }

    /// Reads or writes a member. Writing a new key appends it; writing an
    /// existing key keeps its place; writing nil removes the member.
    public subscript(key: String) -> JSON? {
        get { members[key] }
        set {
            if let newValue {
                if members.updateValue(newValue, forKey: key) == nil { orderedKeys.append(key) }
            } else if members.removeValue(forKey: key) != nil {
                orderedKeys.removeAll { $0 == key }
            }
        }
    }

    public mutating func reserveCapacity(_ capacity: Int) {
        orderedKeys.reserveCapacity(capacity)
        members.reserveCapacity(capacity)
    }

    /// Copies every member of `other` into this object, `other` winning on a clash.
    public mutating func merge(_ other: JSONObject) {
        for (key, value) in other { self[key] = value }
    }
}

extension JSONObject: Sequence {
    public struct Iterator: IteratorProtocol {
        private var keyIterator: IndexingIterator<[String]>
        private let members: [String: JSON]

        fileprivate init(_ object: JSONObject) {
            keyIterator = object.orderedKeys.makeIterator()
            members = object.members
        }

        public mutating func next() -> (key: String, value: JSON)? {
            guard let key = keyIterator.next(), let value = members[key] else { return nil }
            return (key, value)
        }
    }

    public func makeIterator() -> Iterator { Iterator(self) }
    public var underestimatedCount: Int { count }
}

extension JSONObject: Hashable {
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool { lhs.members == rhs.members }
    public func hash(into hasher: inout Hasher) { hasher.combine(members) }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self.init(elements)
    }
}
