import BuntingJSON

/// Where sticky bucket documents live between evaluations: the engine keeps
/// them in SQLite, the tests in memory. Documents are keyed by (attribute
/// name, attribute value); an evaluation reads them before it starts (see
/// `documents(for:attributes:)`) and hands back the ones it changed, which
/// the owner saves.
public protocol StickyBucketStore {
    func document(attributeName: String, attributeValue: String) -> StickyAssignmentsDocument?
    mutating func save(_ document: StickyAssignmentsDocument)
}

extension StickyBucketStore {
    /// The documents an evaluation of `payload` for `attributes` may read:
    /// one per attribute the payload's experiments hash by or fall back to,
    /// with the user's value of it (the JavaScript SDK's
    /// `getAllStickyBucketAssignmentDocs`).
    public func documents(for payload: GrowthBookPayload, attributes: JSON) -> [StickyAssignmentsDocument] {
        var found: [StickyAssignmentsDocument] = []
        for attribute in payload.stickyBucketAttributes {
            let value = HashAttribute.stickyValue(HashAttribute.value(of: attribute, in: attributes))
            if let document = document(attributeName: attribute, attributeValue: value) { found.append(document) }
        }
        return found
    }

    /// Saves every document an evaluation changed.
    public mutating func save(_ documents: [StickyAssignmentsDocument]) {
        for document in documents { save(document) }
    }
}

extension GrowthBookPayload {
    /// The (attribute name, value) of every sticky document an evaluation for
    /// `attributes` may read: what a store loads before it (see `documents(for:attributes:)`).
    public func stickyDocumentKeys(for attributes: JSON) -> [(name: String, value: String)] {
        stickyBucketAttributes.map { attribute in
            (attribute, HashAttribute.stickyValue(HashAttribute.value(of: attribute, in: attributes)))
        }
    }
}

/// Sticky bucket documents in a dictionary: for tests, and for evaluations
/// that should remember assignments only while the process runs.
public struct InMemoryStickyBucketStore: StickyBucketStore, Sendable {
    public private(set) var documents: [String: StickyAssignmentsDocument] = [:]

    public init(_ documents: [StickyAssignmentsDocument] = []) {
        for document in documents { self.documents[document.key] = document }
    }

    public func document(attributeName: String, attributeValue: String) -> StickyAssignmentsDocument? {
        documents[StickyAssignmentsDocument.key(attributeName: attributeName, attributeValue: attributeValue)]
    }

    public mutating func save(_ document: StickyAssignmentsDocument) {
        documents[document.key] = document
    }
}
