/// RFC 6901 pointers, built from reference tokens.
enum JSONPointer {
    /// `~` becomes `~0` and `/` becomes `~1`, in that order.
    static func escape(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        var escaped = ""
        for character in token.unicodeScalars {
            switch character {
            case "~": escaped += "~0"
            case "/": escaped += "~1"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    static func make(prefix: String, tokens: [String]) -> String {
        var pointer = prefix
        for token in tokens { pointer += "/" + escape(token) }
        return pointer
    }
}
