import BuntingJSON

/// The string filters. Lengths and positions count characters as Ruby
/// does, in Unicode scalars (code points), not grapheme clusters.
extension Renderer {
    static func capitalized(_ text: String) -> String {
        guard let first = text.unicodeScalars.first else { return text }
        let rest = String(String.UnicodeScalarView(text.unicodeScalars.dropFirst()))
        return first.properties.uppercaseMapping + rest.lowercased()
    }

    /// Ruby's `CGI.escapeHTML`; `once` leaves entities already escaped
    /// (`&amp;`, `&#39;`) alone.
    static func escapeHTML(_ text: String, once: Bool) -> String {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "&"):
                if once, let length = entityLength(bytes, at: index) {
                    output.append(contentsOf: bytes[index..<(index + length)])
                    index += length
                    continue
                }
                output.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): output.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): output.append(contentsOf: "&#39;".utf8)
            default: output.append(byte)
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The length of `&name;` or `&#123;` at `index`, or nil.
    private static func entityLength(_ bytes: [UInt8], at index: Int) -> Int? {
        var cursor = index + 1
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "#") {
            cursor += 1
            let start = cursor
            while cursor < bytes.count, ExpressionLexer.isDigit(bytes[cursor]) { cursor += 1 }
            guard cursor > start else { return nil }
        } else {
            let start = cursor
            while cursor < bytes.count, ExpressionLexer.isIdentifierStart(bytes[cursor]),
                bytes[cursor] != UInt8(ascii: "_")
            {
                cursor += 1
            }
            guard cursor > start else { return nil }
        }
        guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: ";") else { return nil }
        return cursor + 1 - index
    }

    /// Ruby's whitespace for `strip`: NUL, tab, newline, vertical tab, form feed, carriage return, space.
    static func isStripped(_ byte: UInt8) -> Bool {
        byte == 0 || MarkupScanner.isWhitespace(byte)
    }

    static func stripped(_ text: String, leading: Bool, trailing: Bool) -> String {
        let bytes = text.utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        if leading { while start < end, isStripped(bytes[start]) { start = bytes.index(after: start) } }
        if trailing {
            while end > start, isStripped(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        }
        return String(text[start..<end])
    }

    /// Removes `<script>…</script>`, `<style>…</style>` and `<!-- … -->`
    /// blocks, then every `<…>` tag, as Shopify's regular expressions do.
    static func strippingHTML(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var withoutBlocks: [UInt8] = []
        withoutBlocks.reserveCapacity(bytes.count)
        var index = 0
        let blocks: [(open: [UInt8], close: [UInt8])] = [
            (Array("<script".utf8), Array("</script>".utf8)), (Array("<!--".utf8), Array("-->".utf8)),
            (Array("<style".utf8), Array("</style>".utf8)),
        ]
        outer: while index < bytes.count {
            if bytes[index] == UInt8(ascii: "<") {
                for block in blocks where startsWith(bytes, block.open, at: index) {
                    if let close = ByteSearch.firstOffset(of: block.close, in: bytes, from: index + block.open.count) {
                        index = close + block.close.count
                        continue outer
                    }
                }
            }
            withoutBlocks.append(bytes[index])
            index += 1
        }
        var output: [UInt8] = []
        output.reserveCapacity(withoutBlocks.count)
        index = 0
        while index < withoutBlocks.count {
            if withoutBlocks[index] == UInt8(ascii: "<"),
                let close = withoutBlocks[(index + 1)...].firstIndex(of: UInt8(ascii: ">"))
            {
                index = close + 1
                continue
            }
            output.append(withoutBlocks[index])
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func startsWith(_ bytes: [UInt8], _ prefix: [UInt8], at index: Int) -> Bool {
        index + prefix.count <= bytes.count && bytes[index..<(index + prefix.count)].elementsEqual(prefix)
    }

    /// Removes `\n` and `\r\n` (a lone `\r` stays).
    static func strippingNewlines(_ text: String) -> String {
        var output: [UInt8] = []
        let bytes = Array(text.utf8)
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "\r"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") {
                index += 2
                continue
            }
            output.append(bytes[index])
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `\n` and `\r\n` become `<br />\n`.
    static func breakingLines(_ text: String) -> String {
        var output: [UInt8] = []
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\r"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "\n") { output.append(contentsOf: "<br />".utf8) }
            output.append(bytes[index])
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    enum Occurrence { case all, first, last }

    /// `replace`, `replace_first`, `replace_last` and the `remove`s. An
    /// empty pattern matches between every two characters (and at both
    /// ends), as in Ruby.
    mutating func replaced(
        _ text: String, _ pattern: String, with replacement: String, _ which: Occurrence, at offset: Int
    ) throws(TemplateOffsetError) -> String {
        let bytes = Array(text.utf8)
        let needle = Array(pattern.utf8)
        let insert = Array(replacement.utf8)
        try spend(bytes: bytes.count, at: offset)
        var positions: [Int] = []
        switch which {
        case .first:
            if let found = ByteSearch.firstOffset(of: needle, in: bytes, from: 0) { positions = [found] }
        case .last:
            if let found = ByteSearch.lastOffset(of: needle, in: bytes) { positions = [found] }
        case .all:
            if needle.isEmpty {
                positions = [0]
                var index = 0
                for scalar in text.unicodeScalars {
                    index += UTF8.width(scalar)
                    positions.append(index)
                }
            } else {
                var search = 0
                while let found = ByteSearch.firstOffset(of: needle, in: bytes, from: search) {
                    positions.append(found)
                    search = found + needle.count
                }
            }
        }
        guard !positions.isEmpty else { return text }
        let length = bytes.count + positions.count * (insert.count - needle.count)
        if length > limits.maxStringBytes {
            throw .limit("a filter would build a string of more than \(limits.maxStringBytes) bytes", at: offset)
        }
        try spend(bytes: length, at: offset)
        var output: [UInt8] = []
        output.reserveCapacity(length)
        var copied = 0
        for position in positions {
            output.append(contentsOf: bytes[copied..<position])
            output.append(contentsOf: insert)
            copied = position + needle.count
        }
        output.append(contentsOf: bytes[copied...])
        return String(decoding: output, as: UTF8.self)
    }

    /// `slice: offset, length`: characters of a string, elements of an
    /// array; a negative offset counts from the end.
    mutating func slice(_ input: Value, _ offsetValue: Value, _ lengthValue: Value?, at offset: Int)
        throws(TemplateOffsetError) -> Value
    {
        let start = try RubyNumber.integer(offsetValue, at: offset)
        // A nil length is no length, as in Ruby (`length ? … : 1`).
        var length: Int64 = 1
        if let lengthValue, !lengthValue.isNull { length = try RubyNumber.integer(lengthValue, at: offset) }
        if case .array(let elements) = input {
            guard let range = Self.sliceRange(start: start, length: length, count: elements.count) else {
                return .array([])
            }
            try spend(range.count, at: offset)
            return .array(Array(elements[range]))
        }
        let scalars = Array(input.text.unicodeScalars)
        try spend(scalars.count / 4, at: offset)
        guard let range = Self.sliceRange(start: start, length: length, count: scalars.count) else {
            return .string("")
        }
        return .string(String(String.UnicodeScalarView(scalars[range])))
    }

    /// Ruby's `slice(start, length)` bounds, or nil when it gives nothing.
    static func sliceRange(start: Int64, length: Int64, count: Int) -> Range<Int>? {
        guard length >= 0 else { return nil }
        let size = Int64(count)
        let first = start < 0 ? start + size : start
        guard first >= 0, first <= size else { return nil }
        let end = length > size - first ? size : first + length
        return Int(first)..<Int(end)
    }

    /// `split: pattern`: a single space splits on runs of whitespace
    /// (ignoring leading ones), an empty pattern into characters; empty
    /// strings at the end are dropped.
    mutating func split(_ text: String, by pattern: String, at offset: Int) throws(TemplateOffsetError) -> Value {
        try spend(bytes: text.utf8.count, at: offset)
        var parts: [JSON] = []
        func add(_ part: String) throws(TemplateOffsetError) {
            parts.append(.string(part))
            if parts.count > limits.maxArrayLength {
                throw .limit("an array would have more than \(limits.maxArrayLength) elements", at: offset)
            }
        }
        if pattern == " " {
            for word in Self.words(text) { try add(word) }
        } else if pattern.isEmpty {
            for scalar in text.unicodeScalars { try add(String(scalar)) }
        } else {
            let bytes = Array(text.utf8)
            let needle = Array(pattern.utf8)
            var start = 0
            while let found = ByteSearch.firstOffset(of: needle, in: bytes, from: start) {
                try add(String(decoding: bytes[start..<found], as: UTF8.self))
                start = found + needle.count
            }
            try add(String(decoding: bytes[start...], as: UTF8.self))
            while case .string(let last)? = parts.last, last.isEmpty { parts.removeLast() }
        }
        try spend(parts.count, at: offset)
        return .array(parts)
    }

    /// The words of a text, split on runs of ASCII whitespace.
    static func words(_ text: String) -> [String] {
        text.utf8.split(whereSeparator: MarkupScanner.isWhitespace).map { String(Substring($0)) }
    }

    /// `truncate: length, ellipsis`: at most `length` characters, the
    /// ellipsis (`...` by default) included.
    mutating func truncate(_ input: Value, _ lengthValue: Value?, _ ellipsisValue: Value?, at offset: Int)
        throws(TemplateOffsetError) -> Value
    {
        if input.isNull { return .null }
        let length =
            try lengthValue.map { value throws(TemplateOffsetError) in try RubyNumber.integer(value, at: offset) } ?? 50
        let ellipsis = ellipsisValue?.text ?? "..."
        let text = input.text
        try spend(bytes: text.utf8.count, at: offset)
        let scalars = text.unicodeScalars
        guard Int64(scalars.count) > length else { return .string(text) }
        // Ruby's `length - ellipsis.length`, at least 0; a length near the
        // least integer would overflow it, and keeps nothing either way.
        let (difference, overflowed) = length.subtractingReportingOverflow(Int64(ellipsis.unicodeScalars.count))
        let keep = overflowed ? 0 : max(difference, 0)
        let kept = String(String.UnicodeScalarView(scalars.prefix(Int(clamping: keep))))
        return .string(try concatenated(kept, ellipsis, at: offset))
    }

    /// `truncatewords: count, ellipsis`: the first words (at least one),
    /// joined by single spaces, then the ellipsis, when there are more.
    mutating func truncateWords(_ input: Value, _ countValue: Value?, _ ellipsisValue: Value?, at offset: Int)
        throws(TemplateOffsetError) -> Value
    {
        if input.isNull { return .null }
        var count =
            try countValue.map { value throws(TemplateOffsetError) in try RubyNumber.integer(value, at: offset) } ?? 15
        if count <= 0 { count = 1 }
        let text = input.text
        try spend(bytes: text.utf8.count, at: offset)
        let words = Self.words(text)
        guard Int64(words.count) > count else { return .string(text) }
        let kept = words.prefix(Int(count)).joined(separator: " ")
        return .string(try concatenated(kept, ellipsisValue?.text ?? "...", at: offset))
    }

    /// Ruby's `CGI.escape`: letters, digits and `_.-~` stay, a space becomes
    /// `+`, every other byte `%XX`.
    static func urlEncoded(_ text: String) -> String {
        var output: [UInt8] = []
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            if MarkupScanner.isWordByte(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "~")
            {
                output.append(byte)
            } else if byte == UInt8(ascii: " ") {
                output.append(UInt8(ascii: "+"))
            } else {
                output.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Ruby's `CGI.unescape`: `+` is a space, `%XX` a byte; the result must
    /// be UTF-8.
    mutating func urlDecoded(_ text: String, at offset: Int) throws(TemplateOffsetError) -> String {
        let bytes = Array(text.utf8)
        try spend(bytes: bytes.count, at: offset)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        func hexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                output.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
                let low = hexValue(bytes[index + 2])
            {
                output.append(high << 4 | low)
                index += 2
            } else {
                output.append(byte)
            }
            index += 1
        }
        guard let decoded = String(validating: output, as: UTF8.self) else {
            throw .invalid("url_decode: the decoded bytes are not UTF-8", at: offset)
        }
        return decoded
    }

    mutating func base64Decoded(_ text: String, urlSafe: Bool, at offset: Int) throws(TemplateOffsetError) -> String {
        try spend(bytes: text.utf8.count, at: offset)
        guard let bytes = Base64.decode(text, urlSafe: urlSafe) else {
            throw .invalid(
                "invalid base64 provided to \(urlSafe ? "base64_url_safe_decode" : "base64_decode")", at: offset)
        }
        // Bytes that are not UTF-8 cannot be text: they become U+FFFD.
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `size`: characters of a string, elements of an array, members of an
    /// object; Ruby's 8 for an integer (its size in bytes); else 0.
    static func size(_ input: Value) -> Value {
        switch input {
        case .string(let text): return .integer(Int64(text.unicodeScalars.count))
        case .array(let elements): return .integer(Int64(elements.count))
        case .object(let members): return .integer(Int64(members.count))
        case .range(let start, let end): return .integer(Int64(Value.rangeCount(start, end)))
        case .integer: return .integer(8)
        default: return .integer(0)
        }
    }
}
