import CJansson

extension JSON {
    /// Arrays and objects may nest this deep by default: far beyond any real
    /// message or rule, yet shallow enough that recursion over a value is safe
    /// on any thread's stack.
    public static let defaultMaxDepth = 512

    /// Parses one JSON text of any type (a bare `3` is valid JSON; whether it
    /// makes sense is for the caller to say).
    ///
    /// Decisions, each tested: an integer outside 64 bits is an error
    /// (`numberOutOfRange`), not a silent real; `\u0000` inside a string is kept;
    /// invalid UTF-8 is an error; a key given twice or holding `\u0000` is an
    /// error; nesting deeper than `maxDepth` is an error, and the one
    /// reported when the text has other errors too.
    ///
    /// The depth is counted while converting jansson's tree (jansson itself
    /// stops at 2048 levels): the text is walked again, for the position of
    /// the level too many, only when the tree is too deep or jansson refused
    /// the text. Walking every text first cost a tenth of parsing it.
    public static func parse(
        _ bytes: UnsafeRawBufferPointer, maxDepth: Int = JSON.defaultMaxDepth
    ) throws(JSONParseError) -> JSON {
        try checkNotBlank(bytes)
        if bytes.count >= piecewiseParsingBytes, let parsed = parseInPieces(bytes, maxDepth: maxDepth) { return parsed }

        var error = json_error_t()
        let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
        guard let root = json_loadb(base, bytes.count, bunting_json_decode_flags(), &error) else {
            try checkNesting(bytes, maxDepth: maxDepth)
            throw parseError(from: &error)
        }
        let handle = JanssonHandle(taking: root)
        do throws(TooDeep) {
            return try convert(handle.pointer, levelsLeft: maxDepth)
        } catch {
            try checkNesting(bytes, maxDepth: maxDepth)
            throw JSONParseError(
                kind: .tooDeep, message: "arrays and objects nested deeper than \(maxDepth) levels", line: 0, column: 0,
                position: 0)
        }
    }

    public static func parse(_ bytes: [UInt8], maxDepth: Int = JSON.defaultMaxDepth) throws(JSONParseError) -> JSON {
        let result: Result<JSON, JSONParseError> = bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONParseError) -> JSON in try parse(buffer, maxDepth: maxDepth) }
        }
        return try result.get()
    }

    public static func parse(_ text: String, maxDepth: Int = JSON.defaultMaxDepth) throws(JSONParseError) -> JSON {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }

    // MARK: - From jansson to Swift

    /// A tree nested deeper than allowed, found while converting it.
    struct TooDeep: Error {}

    /// `levelsLeft`: how many arrays and objects may still nest, this value included.
    static func convert(_ value: UnsafeMutablePointer<json_t>, levelsLeft: Int) throws(TooDeep) -> JSON {
        switch json_type(UInt32(bunting_json_type(value))) {
        case JSON_OBJECT:
            guard levelsLeft > 0 else { throw TooDeep() }
            var object = JSONObject()
            object.reserveCapacity(json_object_size(value))
            var iterator = json_object_iter(value)
            while let current = iterator {
                let key = makeString(json_object_iter_key(current), count: json_object_iter_key_len(current))
                if let member = json_object_iter_value(current) {
                    object.appendNew(key, try convert(member, levelsLeft: levelsLeft - 1))
                }
                iterator = json_object_iter_next(value, current)
            }
            return .object(object)
        case JSON_ARRAY:
            guard levelsLeft > 0 else { throw TooDeep() }
            let count = json_array_size(value)
            var array: [JSON] = []
            array.reserveCapacity(count)
            for index in 0..<count {
                if let element = json_array_get(value, index) {
                    array.append(try convert(element, levelsLeft: levelsLeft - 1))
                }
            }
            return .array(array)
        case JSON_STRING:
            return .string(makeString(json_string_value(value), count: json_string_length(value)))
        case JSON_INTEGER:
            return .integer(Int64(json_integer_value(value)))
        case JSON_REAL:
            return .real(json_real_value(value))
        case JSON_TRUE:
            return .bool(true)
        case JSON_FALSE:
            return .bool(false)
        default:
            return .null
        }
    }

    /// jansson has already checked that the bytes are UTF-8; NUL bytes are kept.
    private static func makeString(_ pointer: UnsafePointer<CChar>?, count: Int) -> String {
        guard let pointer, count > 0 else { return "" }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
            String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        }
    }

    // MARK: - Errors

    private static func parseError(from error: inout json_error_t) -> JSONParseError {
        let code = UInt32(bunting_json_error_code(&error))
        let text = String(cString: bunting_json_error_text(&error))
        let kind: JSONParseError.Kind
        switch code {
        case json_error_invalid_utf8.rawValue: kind = .invalidUTF8
        case json_error_premature_end_of_input.rawValue: kind = .truncated
        case json_error_numeric_overflow.rawValue: kind = .numberOutOfRange
        case json_error_duplicate_key.rawValue: kind = .duplicateKey
        case json_error_null_byte_in_key.rawValue: kind = .nulInKey
        case json_error_stack_overflow.rawValue: kind = .tooDeep
        case json_error_invalid_syntax.rawValue, json_error_end_of_input_expected.rawValue: kind = .syntax
        default: kind = .other
        }
        return JSONParseError(
            kind: kind, message: text, line: Int(error.line), column: Int(error.column),
            position: Int(error.position))
    }

    private static func checkNotBlank(_ bytes: UnsafeRawBufferPointer) throws(JSONParseError) {
        for byte in bytes where !isJSONWhitespace(byte) { return }
        throw JSONParseError(
            kind: .empty, message: "empty input: expected a JSON value", line: 0, column: 0, position: 0)
    }

    /// Walks the text once, outside strings, counting brackets, so that a deep
    /// document is refused with the exact position of the level too many.
    private static func checkNesting(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) throws(JSONParseError) {
        // Each level takes a byte, so a text this short cannot nest too deep.
        guard bytes.count > maxDepth else { return }
        var depth = 0
        var inString = false
        var escaped = false
        for index in 0..<bytes.count {
            let byte = bytes[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > maxDepth {
                    let (line, column) = lineAndColumn(of: index, in: bytes)
                    throw JSONParseError(
                        kind: .tooDeep, message: "arrays and objects nested deeper than \(maxDepth) levels",
                        line: line, column: column, position: index)
                }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
            default:
                break
            }
        }
    }

    /// Line and column of a byte offset, counting columns in Unicode scalars.
    private static func lineAndColumn(of offset: Int, in bytes: UnsafeRawBufferPointer) -> (Int, Int) {
        var line = 1
        var column = 1
        for index in 0..<offset {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
