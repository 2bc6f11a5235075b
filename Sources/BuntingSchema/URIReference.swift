/// A URI reference split into its RFC 3986 parts, enough to resolve `$id` and
/// `$ref` values against a base URI as JSON Schema requires.
///
/// Nothing is percent-decoded except fragments, which JSON Schema reads as
/// JSON pointers or anchor names.
struct URIReference: Equatable {
    var scheme: String?
    var authority: String?
    var path: String
    var query: String?
    var fragment: String?

    init(
        scheme: String? = nil, authority: String? = nil, path: String = "", query: String? = nil,
        fragment: String? = nil
    ) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// Splits `text` as RFC 3986 appendix B does.
    init(_ text: String) {
        var rest = Substring(text)
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        if let colon = rest.firstIndex(of: ":"), Self.isScheme(rest[..<colon]) {
            scheme = String(rest[..<colon]).lowercased()
            rest = rest[rest.index(after: colon)...]
        }
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            authority = String(rest[..<slash])
            rest = rest[slash...]
        }
        path = String(rest)
    }

    /// The text form (RFC 3986 section 5.3).
    var text: String {
        var result = ""
        if let scheme { result += scheme + ":" }
        if let authority { result += "//" + authority }
        result += path
        if let query { result += "?" + query }
        if let fragment { result += "#" + fragment }
        return result
    }

    /// This reference without its fragment: the URI of a whole schema resource.
    var withoutFragment: URIReference {
        var copy = self
        copy.fragment = nil
        return copy
    }

    /// The target of this reference seen from `base` (RFC 3986 section 5.2.2).
    func resolved(against base: URIReference) -> URIReference {
        var target = URIReference()
        if scheme != nil {
            target = self
            target.path = Self.removingDotSegments(path)
            return target
        }
        target.scheme = base.scheme
        if authority != nil {
            target.authority = authority
            target.path = Self.removingDotSegments(path)
            target.query = query
        } else {
            target.authority = base.authority
            if path.isEmpty {
                target.path = base.path
                target.query = query ?? base.query
            } else {
                target.path = Self.removingDotSegments(path.hasPrefix("/") ? path : merged(with: base))
                target.query = query
            }
        }
        target.fragment = fragment
        return target
    }

    /// The fragment with `%XX` escapes decoded, as a JSON pointer or anchor needs it.
    var decodedFragment: String? {
        guard let fragment else { return nil }
        guard fragment.contains("%") else { return fragment }
        var bytes: [UInt8] = []
        var utf8 = fragment.utf8.makeIterator()
        while let byte = utf8.next() {
            if byte == UInt8(ascii: "%"), let high = utf8.next(), let low = utf8.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func merged(with base: URIReference) -> String {
        if base.authority != nil && base.path.isEmpty { return "/" + path }
        guard let lastSlash = base.path.lastIndex(of: "/") else { return path }
        return String(base.path[...lastSlash]) + path
    }

    private static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first)
        else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "+" || scalar == "-" || scalar == "."
        }
    }

    /// RFC 3986 section 5.2.4.
    static func removingDotSegments(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (position, segment) in segments.enumerated() {
            if position == 0 && absolute { continue }
            let isLast = position == segments.count - 1
            switch segment {
            case ".":
                if isLast { output.append("") }
            case "..":
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append("") }
            default:
                output.append(segment)
            }
        }
        let joined = output.joined(separator: "/")
        return absolute ? "/" + joined : joined
    }
}
