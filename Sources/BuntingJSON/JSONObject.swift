#if canImport(Glibc)
import Glibc
#endif

/// A JSON object that remembers the order of its keys.
///
/// Members live in one array, in insertion order, so building, iterating and
/// copying an object is as cheap as for an array; objects of more than
/// `indexThreshold` members also keep a hash index for lookups. Keys are
/// compared byte for byte, as JSON does: `"é"` and `"e\u0301"` are two keys
/// (Swift's `==` would call them equal). Two objects are equal when they hold
/// the same members, whatever their order.
public struct JSONObject: Sendable {
    public typealias Member = (key: String, value: JSON)

    private var members: [Member] = []
    /// Key → position in `members`, for large objects only.
    private var index: [ExactString: Int]?

    /// Up to this many members a linear scan beats hashing the key.
    static let indexThreshold = 12

    public init() {}

    public init(_ pairs: [(String, JSON)]) {
        members.reserveCapacity(pairs.count)
        for (key, value) in pairs { self[key] = value }
    }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }

    /// The keys in insertion order.
    public var keys: [String] { members.map(\.key) }

    /// Reads or writes a member. Writing a new key appends it; writing an
    /// existing key keeps its place; writing nil removes the member.
    public subscript(key: String) -> JSON? {
        get {
            guard let position = position(of: key) else { return nil }
            return members[position].value
        }
        set {
            if let position = position(of: key) {
                if let newValue {
                    members[position].value = newValue
                } else {
                    members.remove(at: position)
                    rebuildIndex()
                }
            } else if let newValue {
                members.append((key, newValue))
                if index != nil {
                    index![ExactString(key)] = members.count - 1
                } else if members.count > Self.indexThreshold {
                    rebuildIndex()
                }
            }
        }
    }

    public mutating func reserveCapacity(_ capacity: Int) {
        members.reserveCapacity(capacity)
    }

    /// Whether the two are copies of one object (their members in one
    /// storage, never changed since): the same members in the same order,
    /// known without comparing them. False says nothing.
    public func sharesStorage(with other: JSONObject) -> Bool {
        members.withUnsafeBufferPointer { mine in
            other.members.withUnsafeBufferPointer { theirs in
                mine.baseAddress == theirs.baseAddress && mine.count == theirs.count
            }
        }
    }

    /// Copies every member of `other` into this object, `other` winning on a clash.
    public mutating func merge(_ other: JSONObject) {
        for (key, value) in other { self[key] = value }
    }

    /// Appends a member known not to be present yet (the parser's case: jansson
    /// has already refused duplicate keys), without looking for it first.
    mutating func appendNew(_ key: String, _ value: JSON) {
        members.append((key, value))
        if index != nil {
            index![ExactString(key)] = members.count - 1
        } else if members.count > Self.indexThreshold {
            rebuildIndex()
        }
    }

    private func position(of key: String) -> Int? {
        if let index { return index[ExactString(key)] }
        for position in members.indices where sameBytes(members[position].key, key) { return position }
        return nil
    }

    private mutating func rebuildIndex() {
        guard members.count > Self.indexThreshold else {
            index = nil
            return
        }
        var rebuilt: [ExactString: Int] = [:]
        rebuilt.reserveCapacity(members.count)
        for (position, member) in members.enumerated() { rebuilt[ExactString(member.key)] = position }
        index = rebuilt
    }
}

extension JSONObject: Sequence {
    public typealias Iterator = IndexingIterator<[Member]>
    public func makeIterator() -> Iterator { members.makeIterator() }
    public var underestimatedCount: Int { members.count }
}

extension JSONObject: Hashable {
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (key, value) in lhs where rhs[key] != value { return false }
        return true
    }

    /// Order-independent, to agree with `==`: the members' own hashes are summed.
    public func hash(into hasher: inout Hasher) {
        var sum = 0
        for (key, value) in members {
            var member = Hasher()
            member.combine(ExactString(key))
            member.combine(value)
            sum = sum &+ member.finalize()
        }
        hasher.combine(count)
        hasher.combine(sum)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self.init(elements)
    }
}
