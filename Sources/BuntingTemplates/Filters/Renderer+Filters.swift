import BuntingJSON

/// Applying one filter: its arguments evaluated, then the filter's own
/// function (in the `Filters+…` files, by kind).
extension Renderer {
    mutating func apply(_ call: FilterCall, to input: Value) throws(TemplateOffsetError) -> Value {
        var arguments: [Value] = []
        arguments.reserveCapacity(call.positional.count)
        for expression in call.positional { arguments.append(try evaluate(expression)) }
        let at = call.offset
        func argument(_ index: Int) -> Value { index < arguments.count ? arguments[index] : .null }
        func given(_ index: Int) -> Value? { index < arguments.count ? arguments[index] : nil }

        switch call.filter {
        // Strings
        case .append: return .string(try concatenated(input.text, argument(0).text, at: at))
        case .prepend: return .string(try concatenated(argument(0).text, input.text, at: at))
        case .capitalize: return .string(try charged(Self.capitalized(input.text), at: at))
        case .downcase: return .string(try charged(input.text.lowercased(), at: at))
        case .upcase: return .string(try charged(input.text.uppercased(), at: at))
        case .escape:
            return input.isNull ? .null : .string(try charged(Self.escapeHTML(input.text, once: false), at: at))
        case .escapeOnce: return .string(try charged(Self.escapeHTML(input.text, once: true), at: at))
        case .lstrip: return .string(Self.stripped(input.text, leading: true, trailing: false))
        case .rstrip: return .string(Self.stripped(input.text, leading: false, trailing: true))
        case .strip: return .string(Self.stripped(input.text, leading: true, trailing: true))
        case .stripHTML: return .string(try charged(Self.strippingHTML(input.text), at: at))
        case .stripNewlines: return .string(try charged(Self.strippingNewlines(input.text), at: at))
        case .newlineToBR: return .string(try checkString(try charged(Self.breakingLines(input.text), at: at), at: at))
        case .remove: return .string(try replaced(input.text, argument(0).text, with: "", .all, at: at))
        case .removeFirst: return .string(try replaced(input.text, argument(0).text, with: "", .first, at: at))
        case .removeLast: return .string(try replaced(input.text, argument(0).text, with: "", .last, at: at))
        case .replace: return .string(try replaced(input.text, argument(0).text, with: argument(1).text, .all, at: at))
        case .replaceFirst:
            return .string(try replaced(input.text, argument(0).text, with: argument(1).text, .first, at: at))
        case .replaceLast:
            return .string(try replaced(input.text, argument(0).text, with: argument(1).text, .last, at: at))
        case .slice: return try slice(input, argument(0), given(1), at: at)
        case .split: return try split(input.text, by: argument(0).text, at: at)
        case .truncate: return try truncate(input, given(0), given(1), at: at)
        case .truncatewords: return try truncateWords(input, given(0), given(1), at: at)
        case .urlEncode: return input.isNull ? .null : .string(try charged(Self.urlEncoded(input.text), at: at))
        case .urlDecode: return input.isNull ? .null : .string(try urlDecoded(input.text, at: at))
        case .base64Encode:
            return .string(try checkString(try charged(Base64.encode(input.text, urlSafe: false), at: at), at: at))
        case .base64Decode: return .string(try base64Decoded(input.text, urlSafe: false, at: at))
        case .base64URLSafeEncode:
            return .string(try checkString(try charged(Base64.encode(input.text, urlSafe: true), at: at), at: at))
        case .base64URLSafeDecode: return .string(try base64Decoded(input.text, urlSafe: true, at: at))
        case .size: return Self.size(input)
        // Arrays
        case .join: return .string(try join(input, glue: given(0).map(\.text) ?? " ", at: at))
        case .first: return Self.first(input)
        case .last: return Self.last(input)
        case .concat: return try concat(input, argument(0), at: at)
        case .map: return try map(input, property: argument(0), at: at)
        case .reverse: return .array(try elements(of: input, at: at).reversed())
        case .sort: return try sort(input, property: argument(0), natural: false, at: at)
        case .sortNatural: return try sort(input, property: argument(0), natural: true, at: at)
        case .uniq: return try unique(input, property: argument(0), at: at)
        case .compact: return try compact(input, property: argument(0), at: at)
        case .where: return try select(.where, input, property: argument(0), target: argument(1), at: at)
        case .reject: return try select(.reject, input, property: argument(0), target: argument(1), at: at)
        case .has: return try select(.has, input, property: argument(0), target: argument(1), at: at)
        case .find: return try select(.find, input, property: argument(0), target: argument(1), at: at)
        case .findIndex: return try select(.findIndex, input, property: argument(0), target: argument(1), at: at)
        case .sum: return try sum(input, property: argument(0), at: at)
        // Numbers
        case .abs: return try absolute(input, at: at)
        case .ceil: return try rounded(input, mode: .up, at: at)
        case .floor: return try rounded(input, mode: .down, at: at)
        case .round: return try round(input, places: argument(0), at: at)
        case .plus: return try arithmetic(.plus, input, argument(0), at: at)
        case .minus: return try arithmetic(.minus, input, argument(0), at: at)
        case .times: return try arithmetic(.times, input, argument(0), at: at)
        case .dividedBy: return try arithmetic(.dividedBy, input, argument(0), at: at)
        case .modulo: return try arithmetic(.modulo, input, argument(0), at: at)
        case .atLeast: return try bound(input, argument(0), keepLarger: true, at: at)
        case .atMost: return try bound(input, argument(0), keepLarger: false, at: at)
        // Dates
        case .date: return try date(input, format: argument(0), at: at)
        case .timeZone: return try timeZone(input, zone: argument(0), at: at)
        // Default
        case .default:
            var allowFalse = false
            for (name, expression) in call.keywords where name == "allow_false" {
                allowFalse = try evaluate(expression).isTruthy
            }
            let missing = allowFalse ? input.isNull : !input.isTruthy
            return missing || input.isEmptyCollection ? (given(0) ?? .string("")) : input
        }
    }

    /// Charges for a string a filter built, by its length.
    mutating func charged(_ text: String, at offset: Int) throws(TemplateOffsetError) -> String {
        try spend(bytes: text.utf8.count, at: offset)
        return text
    }

    /// `a + b`, refused before it is built when it would be too long.
    mutating func concatenated(_ first: String, _ second: String, at offset: Int) throws(TemplateOffsetError) -> String
    {
        let length = first.utf8.count + second.utf8.count
        if length > limits.maxStringBytes {
            throw .limit("a filter would build a string of more than \(limits.maxStringBytes) bytes", at: offset)
        }
        try spend(bytes: length, at: offset)
        return first + second
    }
}
