import BuntingJSONRPC

/// Keys a client asks for that come back as the members of a reply's object
/// (`evaluateFlags`' `flagKeys`, `evaluateFeatures`' `featureKeys`). A key
/// holding U+0000 is refused: JSON can write it, but jansson, and so Bunting's
/// own reader and many clients', refuses such a member name, and no key of a
/// definitions document can hold one (the document would not parse).
enum MemberKeys {
    static func check(_ keys: [String]?, field: String) throws(RPCError) {
        guard let keys else { return }
        for (index, key) in keys.enumerated() where key.utf8.contains(0) {
            throw .invalidParams(
                field: "\(field)[\(index)]", "must not hold U+0000: it would be the name of a member of the reply")
        }
    }
}
