/// A JSON Pointer (RFC 6901): a path of reference tokens from the root of a
/// JSON document to one value in it, such as `/flags/checkout/variants`.
///
/// Tokens are kept unescaped; `~0` and `~1` appear only in the text form.
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// The reference tokens, unescaped, outermost first. Empty for the whole document.
    public private(set) var tokens: [String]

    /// The pointer to the whole document (the empty string in text form).
    public static let root = JSONPointer(tokens: [])

    public init(tokens: [String]) {
        self.tokens = tokens
    }

    /// Why a text is not a JSON Pointer.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// Parses the text form: empty, or `/` followed by tokens separated by `/`,
    /// in which `~1` stands for `/` and `~0` for `~`.
    public init(parsing text: String) throws(ParseError) {
        guard !text.isEmpty else {
            self.init(tokens: [])
            return
        }
        guard text.hasPrefix("/") else {
            throw ParseError(message: "a JSON pointer must be empty or start with \"/\": \(text)")
        }
        var tokens: [String] = []
        for rawToken in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            tokens.append(try Self.unescape(rawToken, in: text))
        }
        self.init(tokens: tokens)
    }

    /// The text form, with `~` written as `~0` and `/` as `~1`.
    public var description: String {
        var text = ""
        for token in tokens {
            text.append("/")
            for character in token.unicodeScalars {
                switch character {
                case "~": text.append("~0")
                case "/": text.append("~1")
                default: text.unicodeScalars.append(character)
                }
            }
        }
        return text
    }

    public var isRoot: Bool { tokens.isEmpty }

    /// The pointer to the value that contains this one; nil for the root.
    public var parent: JSONPointer? {
        isRoot ? nil : JSONPointer(tokens: Array(tokens.dropLast()))
    }

    /// This pointer extended by one token (an object key, or an array index as text).
    public func appending(_ token: String) -> JSONPointer {
        var copy = self
        copy.tokens.append(token)
        return copy
    }

    /// This pointer extended by an array index.
    public func appending(_ index: Int) -> JSONPointer {
        appending(String(index))
    }

    /// The value this pointer names in `document`, or nil when there is none:
    /// a missing key, an index out of range or not written as RFC 6901 wants
    /// (digits without leading zeros; `-` names no element), or a step into a
    /// value that is neither an object nor an array.
    public func resolve(in document: JSON) -> JSON? {
        var current = document
        for token in tokens {
            guard let child = Self.child(of: current, at: token) else { return nil }
            current = child
        }
        return current
    }

    /// One step down: the member `token` of an object, or the element it
    /// numbers of an array; nil when there is none.
    public static func child(of value: JSON, at token: String) -> JSON? {
        switch value {
        case .object(let object):
            return object[token]
        case .array(let elements):
            guard let index = arrayIndex(token), index < elements.count else { return nil }
            return elements[index]
        default:
            return nil
        }
    }

    /// The array index a token names, if it is written as RFC 6901 requires.
    public static func arrayIndex(_ token: String) -> Int? {
        let digits = token.utf8
        guard let first = digits.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else { return nil }
        if first == UInt8(ascii: "0") { return digits.count == 1 ? 0 : nil }
        guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int(token)
    }

    private static func unescape(_ raw: Substring, in text: String) throws(ParseError) -> String {
        guard raw.contains("~") else { return String(raw) }
        var token = ""
        var scalars = raw.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "~" else {
                token.unicodeScalars.append(scalar)
                continue
            }
            switch scalars.next() {
            case "0": token.append("~")
            case "1": token.append("/")
            default: throw ParseError(message: "\"~\" must be followed by 0 or 1 in a JSON pointer: \(text)")
            }
        }
        return token
    }
}
