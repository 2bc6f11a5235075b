import BuntingJSON

/// Values as text, as Shopify's Liquid writes them.
extension Value {
    /// The value as a string filter sees it (Liquid's `Utils.to_s`): nil is
    /// empty, floats print as Ruby prints them, arrays and objects as Ruby
    /// inspects them (`["a", 1]`, `{"a"=>1}`).
    var text: String {
        switch self {
        case .null, .empty, .blank: return ""
        case .bool(let flag): return flag ? "true" : "false"
        case .integer(let number): return String(number)
        case .float(let number): return RubyFloat.format(number)
        case .string(let text): return text
        case .array(let elements): return Self.inspect(.array(elements))
        case .object(let members): return Self.inspect(.object(members))
        case .range(let start, let end): return "\(start)..\(end)"
        case .time(let time): return time.description
        case .forloop(let frame): return Self.inspect(.object(frame.members))
        }
    }

    /// What `{{ }}` prints for an array: its elements printed one after the
    /// other, nested arrays flattened, nil as nothing.
    static func outputText(of elements: [JSON]) -> String {
        var text = ""
        func append(_ json: JSON) {
            switch json {
            case .null: break
            case .array(let nested): nested.forEach(append)
            default: text += Value(json).text
            }
        }
        elements.forEach(append)
        return text
    }

    /// Ruby's `inspect`, as Liquid prints values inside arrays and objects.
    static func inspect(_ json: JSON) -> String {
        switch json {
        case .null: return "nil"
        case .string(let text): return inspect(text)
        case .array(let elements): return "[" + elements.map(inspect).joined(separator: ", ") + "]"
        case .object(let members):
            return "{" + members.map { inspect($0.key) + "=>" + inspect($0.value) }.joined(separator: ", ") + "}"
        default: return Value(json).text
        }
    }

    /// The value as Ruby's `inspect` writes it, for error messages.
    var inspected: String {
        switch self {
        case .string(let text): return Self.inspect(text)
        case .null: return "nil"
        default: return text
        }
    }

    /// A string in double quotes with Ruby's escapes.
    static func inspect(_ text: String) -> String {
        var result = "\""
        var previousWasHash = false
        for scalar in text.unicodeScalars {
            defer { previousWasHash = scalar == "#" }
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case "\u{0C}": result += "\\f"
            case "\u{0B}": result += "\\v"
            case "\u{07}": result += "\\a"
            case "\u{08}": result += "\\b"
            case "\u{1B}": result += "\\e"
            case "{" where previousWasHash, "$" where previousWasHash, "@" where previousWasHash:
                // `#{` would read as interpolation: Ruby escapes the hash.
                result.removeLast()
                result += "\\#" + String(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// The name of the value's type, for error messages.
    var typeName: String {
        switch self {
        case .null: return "nil"
        case .bool: return "a boolean"
        case .integer: return "an integer"
        case .float: return "a float"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        case .range: return "a range"
        case .empty: return "empty"
        case .blank: return "blank"
        case .time: return "a time"
        case .forloop: return "a forloop"
        }
    }

    /// A key that tells values apart by type and content (for `cycle` groups).
    var groupKey: String {
        switch self {
        case .null: return "nil"
        case .string(let text): return "s" + text
        default: return typeName + ":" + text
        }
    }
}
